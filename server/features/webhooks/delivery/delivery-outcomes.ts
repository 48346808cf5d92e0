// What an attempt's outcome writes: the row deleted or moved on (delivered), rescheduled (retry) or
// turned into a dead letter, a delivery-log entry for every attempt, and the metrics and log lines
// counted once those writes are committed.
import { put, remove, type Scope, type WriteOp } from '../../../../ports/store';
import { deliveryIdOf, endsRow, type QueuedRequest } from '../outbox-bundle';
import type { PayloadBodies } from '../shared-user';
import { payloadText, type DeliveryLogEntry, type DeliveryOutcome, type OutboxRow, type WebhookDoc, DELIVERY_LOG } from '../webhook-docs';
import type { WebhookMetrics } from '../webhook-metrics';
import { newObjectId } from '../../../../core/object-id';
import { decideAfterAttempt, isExpired, type Decision, type RetryPolicy } from '../../../../core/webhooks/retry-policy';
import type { Logger } from '../../../../ports/logger';
import type { DeliveryAttempt } from './delivery-http';
import { OUTBOX } from '../../../api/collections';

/** What one request's turn produced. */
export interface Turn {
  ops: WriteOp[];
  /** 'next': the endpoint may go on with its next request; 'stop': it waits (until `retryAtMs`). */
  next: 'next' | 'stop';
  retryAtMs?: number;
  /** Delivered requests' writes may wait in the buffer; anything else is written before going on. */
  delivered: boolean;
  onWritten: () => void;
}

export interface OutcomeSettings {
  retry: RetryPolicy;
  logRetentionMs: number;
  /** Dead letters with a larger payload keep only their event ids. */
  deadPayloadMaxBytes: number;
}

export interface OutcomeDeps {
  bodies: PayloadBodies;
  metrics: WebhookMetrics;
  logger: Logger;
  settings: OutcomeSettings;
  random: () => number;
}

export class DeliveryOutcomes {
  constructor(private readonly deps: OutcomeDeps) {}

  isExpired(row: OutboxRow, now: Date): boolean {
    return isExpired(new Date(row.enqueuedAt), now, this.deps.settings.retry);
  }

  /** A request that reached its maximum age before it could be sent: a dead letter, never sent. */
  async expired(scope: Scope, webhook: WebhookDoc, request: QueuedRequest, now: Date): Promise<Turn> {
    const { metrics } = this.deps;
    return {
      ops: [...(await this.deadOps(scope, request, now, 'max-age', {})), this.log(scope, webhook, request, 'expired', undefined, undefined, now)],
      next: 'next', delivered: false, onWritten: () => metrics.dead.inc({ reason: 'max-age' }),
    };
  }

  /** The writes after an attempt that reached the receiver or failed to (`now`: when it began; `after`: when it ended). */
  async afterAttempt(scope: Scope, webhook: WebhookDoc, request: QueuedRequest, attempt: DeliveryAttempt, now: Date, after: Date): Promise<Turn> {
    const { metrics, settings } = this.deps;
    const { row } = request;
    const attempts = row.attempts + 1;
    const decision = decideAfterAttempt({
      attempts, enqueuedAt: new Date(row.enqueuedAt), now: after, policy: settings.retry, random: this.deps.random(),
      outcome: attempt.ok ? { ok: true } : { ok: false, retryAfterMs: attempt.retryAfterMs },
    });
    metrics.requests.inc({ result: attempt.ok ? 'delivered' : 'failed' });
    metrics.latency.observe(attempt.latencyMs / 1000);

    const seen: Partial<OutboxRow> = { attempts, lastAttemptAt: now.toISOString(), lastStatus: attempt.status ?? null, lastError: attempt.error };
    if (decision.kind === 'delivered') {
      return {
        ops: [this.doneOp(scope, request, after), this.log(scope, webhook, request, 'delivered', attempt, decision, after)],
        next: 'next', delivered: true,
        onWritten: () => {
          metrics.eventsDelivered.inc({}, row.eventIds.length);
          metrics.lag.observe((after.getTime() - Date.parse(row.enqueuedAt)) / 1000);
        },
      };
    }
    if (decision.kind === 'retry') {
      // A bundle waits as a whole, with its first unsent part's attempts.
      const waiting = request.bundle ? { ...request.bundle.row, sent: request.bundle.index } : row;
      const retry: OutboxRow = { ...waiting, ...seen, updatedAt: after.toISOString(), nextAttemptAt: decision.at.toISOString() };
      return {
        ops: [put(OUTBOX, scope, retry), this.log(scope, webhook, request, 'retry', attempt, decision, after)],
        next: 'stop', retryAtMs: decision.at.getTime(), delivered: false, onWritten: () => metrics.retries.inc(),
      };
    }
    return {
      ops: [...(await this.deadOps(scope, request, after, decision.reason, seen)), this.log(scope, webhook, request, 'dead', attempt, decision, after)],
      next: 'next', delivered: false,
      onWritten: () => {
        metrics.dead.inc({ reason: decision.reason });
        this.deps.logger.warn('webhook dead letter', { webhookId: webhook._id, outboxId: row._id, reason: decision.reason, error: attempt.error });
      },
    };
  }

  private log(scope: Scope, webhook: WebhookDoc, request: QueuedRequest, outcome: DeliveryOutcome, attempt: DeliveryAttempt | undefined, decision: Decision | undefined, now: Date): WriteOp {
    const { row } = request;
    const iso = now.toISOString();
    const entry: DeliveryLogEntry = {
      _id: newObjectId(now), createdAt: iso, updatedAt: iso, webhookId: webhook._id, outboxId: deliveryIdOf(request), outcome,
      eventIds: row.eventIds, attempt: attempt ? row.attempts + 1 : row.attempts, status: attempt?.status ?? null,
      latencyMs: attempt?.latencyMs ?? 0, url: webhook.url,
      expiresAt: new Date(now.getTime() + this.deps.settings.logRetentionMs).toISOString(),
    };
    const error = attempt ? attempt.error : 'expired: older than the maximum age before it could be sent';
    if (error !== undefined) entry.error = error;
    if (decision?.kind === 'retry') entry.nextAttemptAt = decision.at.toISOString();
    return put(DELIVERY_LOG, scope, entry);
  }

  /**
   * The writes of a request that became a dead letter. A dead letter outlives the shared user its row
   * may point at: it keeps its user inline. A bundle's part becomes a row of its own, and the bundle
   * goes on with its next part.
   */
  private async deadOps(scope: Scope, request: QueuedRequest, now: Date, reason: OutboxRow['deadReason'], extra: Partial<OutboxRow>): Promise<WriteOp[]> {
    const { nextAttemptAt: _next, ...rest } = await this.deps.bodies.inline(scope, request.row);
    let dead: OutboxRow = { ...rest, ...extra, state: 'dead', updatedAt: now.toISOString(), deadAt: now.toISOString(), deadReason: reason };
    // A dead receiver's dead letters are kept 30 days: past the kept size only the event ids stay, and
    // a redelivery rebuilds the payload from the stored events.
    if (Buffer.byteLength(payloadText(dead)) > this.deps.settings.deadPayloadMaxBytes) {
      const { payloadJson: _json, payload: _payload, ...small } = dead;
      dead = { ...small, payloadDropped: true };
    }
    if (!request.bundle) return [put(OUTBOX, scope, dead)];
    return [put(OUTBOX, scope, { ...dead, _id: newObjectId(now) }), this.doneOp(scope, request, now)];
  }

  /** The write of a request finished (delivered or given up): its row goes, or its bundle moves past it. */
  private doneOp(scope: Scope, request: QueuedRequest, now: Date): WriteOp {
    const { bundle } = request;
    if (!bundle) return remove(OUTBOX, scope, request.row._id);
    if (endsRow(request)) return remove(OUTBOX, scope, bundle.row._id);
    const { lastAttemptAt: _at, lastStatus: _status, lastError: _error, ...rest } = bundle.row;
    const iso = now.toISOString();
    return put(OUTBOX, scope, { ...rest, sent: bundle.index + 1, attempts: 0, nextAttemptAt: iso, updatedAt: iso });
  }
}
