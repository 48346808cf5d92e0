// Managing webhooks and their queues, for the HTTP endpoints and the CLI alike: CRUD, token rotation,
// the delivery log, dead letters, redelivery, and the outbox rows other writers add to their writes.
import { randomBytes } from 'node:crypto';
import { put, remove, type Scope, type Store, type WriteOp } from '../../../ports/store';
import type { EventDoc } from '../../../core/model/event';
import type { WebhookConfig } from '../../config';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { newObjectId } from '../../../core/object-id';
import { chunkForWebhook, planDeliveries, runsByUser, typeMatches, type WebhookEvent } from '../../../core/webhooks/delivery-plan';
import { parseWebhookUrl } from '../../../core/webhooks/webhook-url';
import { checkedAddresses } from '../../../adapters/outbound-http/checked-addresses';
import { OutboundFailure, type AddressGuard } from '../../../ports/outbound-http';
import { webhookAddressGuard } from './delivery/delivery-guard';
import type { DeliveryWorker } from './delivery/delivery-worker';
import { publicView } from '../../../core/model/views';
import { publicEvent } from '../../../core/model/views';
import type { TrackJson } from '../../track-step';
import { MAX_WEBHOOKS_PER_ENVIRONMENT, type WebhookDirectory } from './webhook-directory';
import { outboxPuts, type PayloadTexts } from './outbox-bundle';
import { tombstoneOp } from './webhook-tombstones';
import { DELIVERY_LOG, newOutboxRow, SHARED_USER_KEEP_BEYOND_MAX_AGE_MS, type DeliveryLogEntry, type OutboxRow, type WebhookDoc } from './webhook-docs';
import type { WebhookFields } from './webhook-input';
import type { WebhookMetrics } from './webhook-metrics';
import { listPage, type PageQuery } from '../../api/list-query';
import { USERS, EVENTS, OUTBOX, WEBHOOKS } from '../../api/collections';

const ID = /^[0-9a-f]{24}$/;
const ROW_BATCH = 500;
export const MAX_REDELIVER_EVENTS = 1000;
/** Queue counts stop here: past it the dashboard says "at least" (the delivery cap is usually lower). */
export const QUEUE_COUNT_CAP = 100_000;

export interface WebhookQueue {
  pending: number;
  dead: number;
  countedTo: number;
  oldestPendingAt: string | null;
  nextAttemptAt: string | null;
}

export interface RedeliverEventsRequest {
  eventIds?: string[];
  createdAfter?: Date;
  createdBefore?: Date;
  limit: number;
}

export interface OutboxAddition {
  ops: WriteOp[];
  /** Webhooks that got rows: the worker is woken for them once the write committed. */
  webhookIds: string[];
}

function newToken(): string {
  return randomBytes(24).toString('hex');
}

export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly directory: WebhookDirectory,
    private readonly config: WebhookConfig,
    private readonly metrics: WebhookMetrics,
    private readonly worker: DeliveryWorker,
  ) {}

  private guardMade: AddressGuard | undefined;

  private get guard(): AddressGuard {
    return (this.guardMade ??= webhookAddressGuard({ allowPrivate: this.config.allowPrivate, allowedNetworks: this.config.allowedNetworks }));
  }

  /** Refuses URLs whose host resolves to an address deliveries may not reach (checked again on every delivery). */
  private async checkReachable(url: string): Promise<void> {
    const parsed = parseWebhookUrl(url);
    if (!parsed.ok) throw new BadRequest('url', parsed.message);
    try {
      await checkedAddresses(parsed.target.host, this.guard);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new BadRequest('url', err instanceof OutboundFailure && err.kind === 'refused' ? `url ${message}` : `url host ${message}`);
    }
  }

  async list(scope: Scope): Promise<WebhookDoc[]> {
    const { docs } = await this.store.list(WEBHOOKS, scope, { limit: MAX_WEBHOOKS_PER_ENVIRONMENT * 4, sortBy: 'createdAt', order: 'asc' });
    return docs;
  }

  async get(scope: Scope, id: string): Promise<WebhookDoc> {
    const found = ID.test(id) ? (await this.store.get(WEBHOOKS, scope, id)) : undefined;
    if (!found) throw new NotFound(`No webhook with _id "${id}"`, 'id');
    return found;
  }

  /**
   * The webhook's queue: rows pending and dead letters, each counted through the outbox's index up to
   * QUEUE_COUNT_CAP (a count costs the index entries it reads), and the head row's age and next attempt.
   */
  async queue(scope: Scope, id: string): Promise<WebhookQueue> {
    const webhook = await this.get(scope, id);
    const pending = { webhookId: webhook._id, state: 'pending' };
    const counted = (state: string) => this.store.count(OUTBOX, scope, { equals: { webhookId: webhook._id, state }, sortBy: 'createdAt', order: 'asc', limit: QUEUE_COUNT_CAP });
    const [queued, dead, head] = await Promise.all([
      counted('pending'), counted('dead'),
      this.store.list(OUTBOX, scope, { equals: pending, sortBy: 'createdAt', order: 'asc', limit: 1 }).then((r) => r.docs.at(0)),
    ]);
    return { pending: queued, dead, countedTo: QUEUE_COUNT_CAP, oldestPendingAt: head?.createdAt ?? null, nextAttemptAt: head?.nextAttemptAt ?? null };
  }

  async create(scope: Scope, fields: WebhookFields, now: Date): Promise<WebhookDoc> {
    if (fields.url === undefined) throw new BadRequest('url', 'url is required');
    const existing = await this.list(scope);
    if (existing.length >= MAX_WEBHOOKS_PER_ENVIRONMENT) {
      throw new Conflict('url', `An environment can have at most ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks; delete one first`);
    }
    await this.checkReachable(fields.url);
    const iso = now.toISOString();
    const webhook: WebhookDoc = {
      _id: newObjectId(now), createdAt: iso, updatedAt: iso, live: scope.live, url: fields.url, types: fields.types ?? null,
      mode: fields.mode ?? 'single', enabled: fields.enabled ?? true, token: newToken(),
    };
    if (fields.description !== undefined) webhook.description = fields.description;
    await this.store.write([put(WEBHOOKS, scope, webhook)]);
    this.directory.invalidate(scope);
    return webhook;
  }

  async update(scope: Scope, id: string, fields: WebhookFields, now: Date): Promise<WebhookDoc> {
    const current = await this.get(scope, id);
    if (fields.url !== undefined && fields.url !== current.url) await this.checkReachable(fields.url);
    const next: WebhookDoc = { ...current, ...fields, types: fields.types === undefined ? current.types : fields.types, updatedAt: now.toISOString() };
    // Enabled again, or pointed elsewhere: the gateway's verdict on the old receiver no longer holds.
    if (fields.enabled === true || fields.url !== undefined) {
      delete next.disabledReason;
      delete next.disabledAt;
      delete next._failingSince;
    }
    await this.store.write([put(WEBHOOKS, scope, next)]);
    this.directory.invalidate(scope);
    // A fixed URL or a re-enabled webhook should not wait out the backoff of its failing head row.
    if (next.enabled && (fields.url !== undefined || fields.enabled !== undefined)) await this.retryHeadNow(scope, id, now);
    return next;
  }

  private async retryHeadNow(scope: Scope, webhookId: string, now: Date): Promise<void> {
    const { docs } = await this.store.list(OUTBOX, scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit: 1 });
    const head = docs.at(0);
    if (head && head.nextAttemptAt !== undefined && Date.parse(head.nextAttemptAt) > now.getTime()) {
      await this.store.write([put(OUTBOX, scope, { ...head, nextAttemptAt: now.toISOString(), updatedAt: now.toISOString() })]);
    }
    this.worker.unblock(scope, webhookId);
  }

  /**
   * Deletes the webhook; its queue and dead letters go in the background (delivery-queue-purge.ts), its
   * delivery log ages out on its own. The tombstone goes in the same write as the webhook's delete, so
   * that a crash at any point leaves the webhook (delete it again) or its tombstone, whose clean-up
   * sweep takes whatever rows the background removal had not reached, and rows a writer that still saw
   * the webhook commits later. Written before, it would have the clean-up sweep the queue of a webhook
   * still in use after a crash.
   */
  async remove(scope: Scope, id: string, now: Date): Promise<void> {
    await this.get(scope, id);
    await this.worker.retire(scope, id);
    await this.store.write([remove(WEBHOOKS, scope, id), tombstoneOp(scope, id, now)]);
    this.directory.invalidate(scope);
    this.worker.queuePurge.add(scope, id);
  }

  async rotateToken(scope: Scope, id: string, now: Date): Promise<WebhookDoc> {
    const current = await this.get(scope, id);
    const next: WebhookDoc = {
      ...current, token: newToken(), updatedAt: now.toISOString(),
      _previousToken: current.token, _previousTokenUntil: new Date(now.getTime() + this.config.tokenGraceMs).toISOString(),
    };
    await this.store.write([put(WEBHOOKS, scope, next)]);
    this.directory.invalidate(scope);
    return next;
  }

  async deliveries(scope: Scope, id: string, query: Omit<PageQuery, 'sortBy' | 'equals'> & { outcome?: string }): Promise<{ entries: DeliveryLogEntry[]; hasMore: boolean }> {
    await this.get(scope, id);
    const equals: Record<string, string> = { webhookId: id };
    if (query.outcome !== undefined) equals.outcome = query.outcome;
    const { docs, hasMore } = await listPage(this.store, DELIVERY_LOG, scope, { limit: query.limit, order: query.order, ranges: query.ranges, beforeId: query.beforeId, afterId: query.afterId, sortBy: 'createdAt', equals });
    return { entries: docs, hasMore };
  }

  async deadLetters(scope: Scope, id: string, limit: number): Promise<{ rows: OutboxRow[]; hasMore: boolean }> {
    await this.get(scope, id);
    const { docs, hasMore } = await this.store.list(OUTBOX, scope, { equals: { webhookId: id, state: 'dead' }, sortBy: 'createdAt', order: 'asc', limit });
    return { rows: docs, hasMore };
  }

  /** Puts dead letters back in the queue (all, up to ROW_BATCH per call, or the given ids), in their original order. */
  async redeliverDead(scope: Scope, id: string, rowIds: string[] | undefined, now: Date): Promise<{ queued: number; hasMore: boolean; missing: string[] }> {
    await this.get(scope, id);
    let rows: OutboxRow[];
    let hasMore = false;
    const missing: string[] = [];
    if (rowIds) {
      rows = [];
      for (const rowId of rowIds) {
        const row = ID.test(rowId) ? (await this.store.get(OUTBOX, scope, rowId)) : undefined;
        if (row && row.webhookId === id && row.state === 'dead') rows.push(row);
        else missing.push(rowId);
      }
    } else {
      ({ rows, hasMore } = await this.deadLetters(scope, id, ROW_BATCH));
    }
    // Dead letters kept without their payload are queued again from their events, as stored now.
    const stripped = rows.filter((row) => row.payloadDropped);
    rows = rows.filter((row) => !row.payloadDropped);
    let rebuilt = 0;
    if (stripped.length > 0) {
      const eventIds = [...new Set(stripped.flatMap((row) => row.eventIds))];
      rebuilt = (await this.redeliverEvents(scope, id, { eventIds, limit: eventIds.length }, now)).queued;
      await this.store.write(stripped.map((row) => (remove(OUTBOX, scope, row._id))));
    }
    const iso = now.toISOString();
    const ops: WriteOp[] = rows.map((row) => {
      const { deadAt: _deadAt, deadReason: _deadReason, ...rest } = row;
      const requeued: OutboxRow = { ...rest, state: 'pending', attempts: 0, enqueuedAt: iso, nextAttemptAt: iso, updatedAt: iso, origin: 'redelivery' };
      return put(OUTBOX, scope, requeued);
    });
    await this.store.write(ops);
    this.metrics.redelivered.inc({ what: 'dead-letter' }, rows.length);
    if (rows.length > 0) this.worker.unblock(scope, id);
    return { queued: rows.length + rebuilt, hasMore, missing };
  }

  /**
   * Queues stored events again for one webhook, whatever its type filter says (the caller chose them):
   * by id, or by creation time (oldest first, at most `limit`). The payload's user is the user as
   * stored now; the event is the event as stored.
   */
  async redeliverEvents(scope: Scope, id: string, req: RedeliverEventsRequest, now: Date): Promise<{ queued: number; eventIds: string[]; missing: string[]; hasMore: boolean }> {
    const webhook = await this.get(scope, id);
    let events: EventDoc[] = [];
    const missing: string[] = [];
    let hasMore = false;
    if (req.eventIds) {
      for (const eventId of req.eventIds) {
        const e = ID.test(eventId) ? await this.store.get(EVENTS, scope, eventId) : undefined;
        if (e) events.push(e);
        else missing.push(eventId);
      }
    } else {
      const range = { field: 'createdAt' as const, after: req.createdAfter?.toISOString(), before: req.createdBefore?.toISOString() };
      const page = await this.store.list(EVENTS, scope, { limit: req.limit, sortBy: 'createdAt', order: 'asc', ranges: [range] });
      events = page.docs.filter((e) => typeMatches(e.type, webhook.types));
      hasMore = page.hasMore;
    }
    const users = new Map<string, object | null>();
    const userOf = async (e: EventDoc): Promise<object | null> => {
      const ref = e.userRef;
      if (ref === undefined) return e.user ?? null;
      if (!users.has(ref)) {
        const stored = await this.store.get(USERS, scope, ref);
        users.set(ref, stored ? publicView(stored) : (e.user ?? null));
      }
      return users.get(ref) ?? null;
    };
    const ops: WriteOp[] = [];
    let queued = 0;
    for (const run of runsByUser(events, (e) => e.userRef ?? `event:${e._id}`)) {
      const user = await userOf(run[0]);
      const rows = chunkForWebhook(id, webhook.mode, run.map((e) => publicEvent(e) as WebhookEvent), user).map((planned) => newOutboxRow(planned, now, 'redelivery'));
      queued += rows.length;
      ops.push(...outboxPuts(scope, rows, user));
    }
    await this.store.write(ops);
    this.metrics.redelivered.inc({ what: 'event' }, queued);
    if (queued > 0) this.worker.unblock(scope, id);
    return { queued, eventIds: events.map((e) => e._id), missing, hasMore };
  }

  /**
   * Outbox rows for events being written: add the ops to the same Store write as the events, so the
   * events and their deliveries commit (or fail) together. `user` is the payload's user object; `json`,
   * when the caller has it (the track path), is the text of that user and of each event, written into
   * the rows instead of serialising them again.
   */
  async outboxFor(scope: Scope, events: readonly EventDoc[], user: object | null, at: Date, json?: TrackJson): Promise<OutboxAddition> {
    if (events.length === 0) return { ops: [], webhookIds: [] };
    const all = await this.directory.forScope(scope, at.getTime());
    if (all.length === 0) return { ops: [], webhookIds: [] };
    const shown = events.map((e) => publicEvent(e) as WebhookEvent);
    // A webhook whose queue is at its cap gets nothing until it catches up (delivery-queue-caps.ts).
    const webhooks = all.filter((w) => w._queueFullSince === undefined);
    for (const w of all) {
      if (w._queueFullSince === undefined || !w.enabled) continue;
      const dropped = shown.filter((e) => typeMatches(e.type, w.types)).length;
      if (dropped > 0) this.metrics.dropped.inc({ reason: 'queue-full' }, dropped);
    }
    const planned = planDeliveries(webhooks, shown, user);
    const texts = json && payloadTexts(shown, json);
    // Rows for several webhooks share their user (outbox-bundle.ts ShareUser).
    const share = { keepMs: this.config.maxAgeMs + SHARED_USER_KEEP_BEYOND_MAX_AGE_MS };
    const ops = outboxPuts(scope, planned.map((p) => newOutboxRow(p, at, 'event')), user, texts, share);
    return { ops, webhookIds: [...new Set(planned.map((p) => p.webhookId))] };
  }
}

/** `json.events[i]` is the text of `shown[i]`. */
function payloadTexts(shown: readonly WebhookEvent[], json: TrackJson): PayloadTexts {
  const byEvent = new Map(shown.map((e, i) => [e, json.events[i]]));
  return { user: json.user, event: (e) => byEvent.get(e) ?? JSON.stringify(e) };
}
