// Keeps a dead receiver from filling the disk (issue 31): every few seconds each webhook's pending rows
// are counted through the outbox's (webhook, state) index (no document is read) and its head row is
// looked at; queue-guard.ts decides, and a change is written to the webhook document: at the cap the
// webhook is marked queue-full and new events are not queued for it (WebhookService.outboxFor drops
// and counts them), below 90% of the cap queueing resumes; a head row failing for
// WAYMARK_WEBHOOK_DISABLE_AFTER_MS disables the webhook. Between two checks a queue can pass its cap by
// what track writes in that time (5 s × the update rate): the cap bounds the disk, not a row count.
import { put, type Scope, type Store } from '../../../../ports/store';
import type { WebhookDirectory } from '../webhook-directory';
import type { OutboxRow, WebhookDoc } from '../webhook-docs';
import type { WebhookMetrics } from '../webhook-metrics';
import { decideQueueGuard } from '../../../../core/webhooks/queue-guard';
import type { Logger } from '../../../../ports/logger';
import { OUTBOX, WEBHOOKS } from '../../../api/collections';

export const QUEUE_CHECK_MS = 5000;

export interface QueueCapsDeps {
  store: Store;
  directory: WebhookDirectory;
  metrics: WebhookMetrics;
  logger: Logger;
  maxQueued: number;
  disableAfterMs: number;
}

export class QueueCaps {
  constructor(private readonly deps: QueueCapsDeps) {}

  /** One look at every enabled webhook; returns how many webhooks changed. */
  async check(now: Date): Promise<number> {
    const { directory } = this.deps;
    let changed = 0;
    let full = 0;
    for (const { scope, webhook } of await directory.all(now.getTime())) {
      if (!webhook.enabled) continue;
      const next = await this.checkOne(scope, webhook._id, now);
      if (next?.changed) changed++;
      if (next?.full) full++;
    }
    this.deps.metrics.queueFull.set(full);
    return changed;
  }

  private async checkOne(scope: Scope, webhookId: string, now: Date): Promise<{ changed: boolean; full: boolean } | undefined> {
    const { store, maxQueued, disableAfterMs, metrics, logger } = this.deps;
    const pending = { webhookId, state: 'pending' };
    const queued = await store.count(OUTBOX, scope, { equals: pending, sortBy: 'createdAt', order: 'asc', limit: maxQueued + 1 });
    const head = queued === 0 ? undefined : ((await store.list(OUTBOX, scope, { equals: pending, sortBy: 'createdAt', order: 'asc', limit: 1 })).docs.at(0));
    // The document as stored now, not as the directory cached it: an edit meanwhile must not be undone.
    const webhook = await store.get(WEBHOOKS, scope, webhookId);
    if (!webhook || !webhook.enabled) return undefined;
    const decision = decideQueueGuard(
      { queueFullSince: webhook._queueFullSince, failingSince: webhook._failingSince },
      { queued, cap: maxQueued, headFailing: (head?.attempts ?? 0) > 0, now, disableAfterMs },
    );
    const full = decision.queueFullSince !== undefined && !decision.disable;
    if (!decision.disable && decision.queueFullSince === webhook._queueFullSince && decision.failingSince === webhook._failingSince) return { changed: false, full };
    const { _queueFullSince: _full, _failingSince: _failing, ...rest } = webhook;
    const next: WebhookDoc = { ...rest, updatedAt: now.toISOString() };
    if (decision.disable) {
      Object.assign(next, { enabled: false, disabledReason: 'failing', disabledAt: now.toISOString() });
      metrics.disabled.inc({ reason: 'failing' });
      logger.warn('webhook disabled: its receiver kept failing', { webhookId, failingSince: decision.failingSince, lastError: head?.lastError, lastStatus: head?.lastStatus });
    } else {
      if (decision.queueFullSince !== undefined) next._queueFullSince = decision.queueFullSince;
      if (decision.failingSince !== undefined) next._failingSince = decision.failingSince;
      if (decision.queueFullSince !== webhook._queueFullSince) {
        logger.warn(decision.queueFullSince ? 'webhook queue full: new events are not queued for it' : 'webhook queue below its cap again: queueing resumed', { webhookId, queued, cap: maxQueued });
      }
    }
    await store.write([put(WEBHOOKS, scope, next)]);
    this.deps.directory.invalidate(scope);
    return { changed: true, full };
  }
}
