// The delivery worker: drains each webhook's outbox rows in order, one request in flight per endpoint,
// endpoints in parallel. A row is deleted once a receiver acknowledged it (2xx) and only then, so a
// crash at any point leaves it pending and it is sent again: delivery is at least once, and receivers
// deduplicate on the event `_id`.
//
// Per-endpoint order is strict: a row is not sent before every older row of its endpoint was
// delivered or became a dead letter. A failing head row therefore holds its endpoint's queue until it
// succeeds, dies (maximum attempts) or expires (maximum age).
//
// Many nodes: before draining an endpoint a worker takes its lease (a Store document written under
// the Store's lock) and renews it with every outcome it writes; the lease lapses on its own when the
// node stops delivering, and is handed back on shutdown. A node that dies mid-drain holds the endpoint
// until the lease runs out (timeout + LEASE_MARGIN_MS); then any node takes over and resends the row
// that was in flight.
import { randomBytes } from 'node:crypto';
import type { Doc, Scope, Store, WriteOp } from '../../adapters/store/port';
import { scopeKey } from '../../adapters/store/scope-key';
import type { WebhookDirectory } from '../api/webhooks/webhook-directory';
import { payloadText, type DeliveryLogEntry, type DeliveryOutcome, type EndpointLease, type OutboxRow, type WebhookDoc } from '../api/webhooks/webhook-docs';
import type { WebhookMetrics } from '../api/webhooks/webhook-metrics';
import { PayloadBodies, SHARED_USERS } from '../api/webhooks/shared-user';
import { deliveryIdOf, endsRow, requestsOf, type QueuedRequest } from '../api/webhooks/outbox-bundle';
import { WEBHOOK_TOMBSTONES, type WebhookTombstone } from '../api/webhooks/webhook-tombstones';
import type { Logger } from '../http/logger';
import { newObjectId } from '../engine/object-id';
import type { AddressPolicy } from '../engine/webhooks/address-safety';
import { decideAfterAttempt, isExpired, type Decision, type RetryPolicy } from '../engine/webhooks/retry-policy';
import { radarSignature, waymarkSignatureHeader } from '../engine/webhooks/signature';
import { deliveryClient, sendDelivery, type DeliveryAttempt, type DeliveryClient } from './delivery-http';
import { deleteQueuePaced, QueuePurge } from './delivery-queue-purge';
import { RandomHex } from './random-hex';

export interface DeliverySettings {
  timeoutMs: number;
  retry: RetryPolicy;
  concurrency: number;
  policy: AddressPolicy;
  logRetentionMs: number;
  deadRetentionMs: number;
  /** How long a deleted webhook's tombstone is kept at least (webhook-tombstones.ts). */
  tombstoneGraceMs: number;
  /** Dead letters with a larger payload keep only their event ids. */
  deadPayloadMaxBytes: number;
}

export interface DeliveryWorkerDeps {
  store: Store;
  directory: WebhookDirectory;
  metrics: WebhookMetrics;
  logger: Logger;
  settings: DeliverySettings;
  clock?: () => Date;
  random?: () => number;
}

/** Rows read per page of an endpoint's queue. */
const PAGE = 50;
/** Room beyond the request deadline for the writes around it before a lease is considered abandoned. */
const LEASE_MARGIN_MS = 5000;
/** How long a node trusts its memory that an endpoint's head row is not due (another node may redeliver). */
const BLOCK_RECHECK_MS = 30_000;
const PURGE_BATCH = 1000;
/** How long a webhook being deleted keeps its endpoint from every worker (retire()): far beyond a removal's sweep. */
const RETIRE_PARK_MS = 10 * 60_000;
/**
 * Outcomes of delivered rows are written in groups: one transaction per delivery would cost more than
 * the delivery itself. A crash loses at most this many acknowledged requests' outcomes (more when the
 * last row is a bundle, whose end the count waits for, up to FLUSH_MS), and those requests are sent
 * again, which at-least-once delivery allows. Failures are written at once.
 */
const FLUSH_ROWS = 25;
const FLUSH_MS = 200;
const USER_AGENT = 'Waymark-Webhooks/1';

/** Outcomes waiting to be written, with what to count once they are. */
interface OutcomeBuffer {
  ops: WriteOp[];
  rows: number;
  firstMs: number;
  onWritten: Array<() => void>;
}

/** What one row's turn produced. */
interface Turn {
  ops: WriteOp[];
  /** 'next': the endpoint may go on with its next row; 'stop': it waits. */
  next: 'next' | 'stop';
  /** Delivered rows may wait in the buffer; anything else is written before going on. */
  delivered: boolean;
  onWritten: () => void;
}

interface Drain {
  /** Rows were written for the endpoint while it was draining: look again before stopping. */
  again: boolean;
  done: Promise<void>;
}

export class DeliveryWorker {
  /** This process's identity in leases; a restarted process is a new owner. */
  readonly owner = `node-${randomBytes(6).toString('hex')}`;
  private active = false;
  private stopping = false;
  private readonly drains = new Map<string, Drain>();
  private readonly blockedUntil = new Map<string, number>();
  /** Where in the list of webhooks the next sweep begins. */
  private sweepFrom = 0;
  /** Endpoints whose lease this node may hold: handed back on shutdown. */
  private readonly leased = new Map<string, { scope: Scope; webhookId: string }>();
  private readonly controller = new AbortController();
  private readonly client: DeliveryClient;
  private readonly signingIds = new RandomHex();
  private readonly bodies: PayloadBodies;
  /** Removes deleted webhooks' queues in the background. */
  readonly queuePurge: QueuePurge;
  private readonly clock: () => Date;
  private readonly random: () => number;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.bodies = new PayloadBodies(deps.store);
    this.clock = deps.clock ?? (() => new Date());
    this.random = deps.random ?? Math.random;
    this.client = deliveryClient(deps.settings.policy, deps.settings.timeoutMs);
    this.queuePurge = new QueuePurge({ store: deps.store, logger: deps.logger, purged: deps.metrics.purged });
  }

  private get leaseMs(): number {
    return this.deps.settings.timeoutMs + LEASE_MARGIN_MS;
  }

  /**
   * Marks this process as one that delivers. Only a serving process does: the worker turns active on
   * its first scheduled sweep or its first track update (see webhooks-feature.ts), so CLI commands,
   * which share the feature setup but schedule no jobs and take no updates, never send anything.
   */
  activate(): void {
    this.active = true;
  }

  /** New rows were committed for these webhooks: deliver now rather than at the next poll. */
  wake(scope: Scope, webhookIds: Iterable<string>): void {
    if (!this.active || this.stopping) return;
    const now = this.clock().getTime();
    for (const id of webhookIds) {
      if ((this.blockedUntil.get(scopeKey(scope, id)) ?? 0) > now) continue;
      this.start(scope, id);
    }
  }

  /** Until when (ms since the epoch) this node leaves an endpoint alone, if it does: a retry is due later or another node's lease runs. */
  waitingUntil(scope: Scope, webhookId: string): number | undefined {
    const until = this.blockedUntil.get(scopeKey(scope, webhookId));
    return until !== undefined && until > this.clock().getTime() ? until : undefined;
  }

  /** Forget that an endpoint is waiting (its webhook was edited, rows were redelivered) and look now. */
  unblock(scope: Scope, webhookId: string): void {
    this.blockedUntil.delete(scopeKey(scope, webhookId));
    this.wake(scope, [webhookId]);
  }

  /**
   * The periodic job: start draining every endpoint that has due rows and is not being drained. At the
   * concurrency limit the sweep stops, and the next one goes on from there: drains of endpoints with
   * nothing due fill the limit as they start, so sweeps that always began at the first endpoints would
   * never reach the later ones.
   */
  async sweep(now: Date): Promise<number> {
    if (this.stopping) return 0;
    this.active = true;
    const all = await this.deps.directory.all(now.getTime());
    for (let i = 0; i < all.length; i++) {
      const at = (this.sweepFrom + i) % all.length;
      const { scope, webhook } = all[at];
      if (!webhook.enabled || this.drains.has(scopeKey(scope, webhook._id))) continue;
      if ((this.blockedUntil.get(scopeKey(scope, webhook._id)) ?? 0) > now.getTime()) continue;
      if (this.drains.size >= this.deps.settings.concurrency) {
        this.sweepFrom = at;
        break;
      }
      this.start(scope, webhook._id);
    }
    // Deliveries are counted by the metrics; a count here would log a line every poll.
    return 0;
  }

  /** Resolves once no endpoint is being drained (benchmarks, tests, shutdown). */
  async idle(): Promise<void> {
    while (this.drains.size > 0) await Promise.all([...this.drains.values()].map((d) => d.done));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.controller.abort(new Error('shutdown'));
    await Promise.all([this.idle(), this.queuePurge.stop()]);
    for (const { scope, webhookId } of this.leased.values()) await this.release(scope, webhookId);
    this.leased.clear();
    await this.client.destroy();
  }

  private start(scope: Scope, webhookId: string): void {
    const key = scopeKey(scope, webhookId);
    const running = this.drains.get(key);
    if (running) {
      running.again = true;
      return;
    }
    // At the limit the next sweep picks the endpoint up.
    if (this.drains.size >= this.deps.settings.concurrency) return;
    const drain: Drain = { again: false, done: Promise.resolve() };
    drain.done = this.drain(scope, webhookId, drain)
      .catch((err: unknown) => {
        this.deps.logger.error('webhook drain failed', { webhookId, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => {
        this.drains.delete(key);
        if (drain.again && !this.stopping) this.start(scope, webhookId);
      });
    this.drains.set(key, drain);
  }

  private leaseOp(scope: Scope, webhookId: string, now: Date): WriteOp {
    const iso = now.toISOString();
    const lease: EndpointLease = { _id: webhookId, createdAt: iso, updatedAt: iso, owner: this.owner, until: new Date(now.getTime() + this.leaseMs).toISOString() };
    return { op: 'put', collection: 'webhook_leases', scope, doc: lease };
  }

  private heldByOther(lease: Doc | undefined, now: Date): boolean {
    const l = lease as EndpointLease | undefined;
    return l !== undefined && l.owner !== this.owner && Date.parse(l.until) > now.getTime();
  }

  private lockKey(scope: Scope, webhookId: string): string {
    return `webhook-lease:${scopeKey(scope, webhookId)}`;
  }

  /**
   * Takes (or keeps) the endpoint's lease. A lease of ours with more than half its time left is kept
   * as it is: an endpoint woken for every new event would otherwise cost a write per wake.
   */
  private claim(scope: Scope, webhookId: string): Promise<'kept' | 'taken' | undefined> {
    return this.deps.store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = this.clock();
      const lease = (await this.deps.store.get('webhook_leases', scope, webhookId)) as EndpointLease | undefined;
      if (this.heldByOther(lease, now)) {
        // Another node (perhaps a dead one) holds the endpoint: wakes until its lease ends would each
        // cost a read and a lock for nothing, on every commit (#10.3). The sweep looks again then.
        this.blockedUntil.set(scopeKey(scope, webhookId), Math.min(Date.parse(lease!.until), now.getTime() + BLOCK_RECHECK_MS));
        return undefined;
      }
      this.leased.set(scopeKey(scope, webhookId), { scope, webhookId });
      if (lease?.owner === this.owner && Date.parse(lease.until) - now.getTime() > this.leaseMs / 2) return 'kept';
      await this.deps.store.write([this.leaseOp(scope, webhookId, now)]);
      return 'taken';
    });
  }

  private release(scope: Scope, webhookId: string): Promise<void> {
    return this.deps.store.withLock(this.lockKey(scope, webhookId), async () => {
      const lease = (await this.deps.store.get('webhook_leases', scope, webhookId)) as EndpointLease | undefined;
      if (lease?.owner === this.owner) await this.deps.store.write([{ op: 'delete', collection: 'webhook_leases', scope, id: webhookId }]);
    });
  }

  /**
   * Writes an outcome with a renewed lease. When another owner holds the endpoint now (this node
   * stalled past its lease, or the webhook was deleted) nothing is written and the drain stops: the
   * new owner sends the row again, which at-least-once delivery allows.
   */
  private commit(scope: Scope, webhookId: string, ops: WriteOp[]): Promise<boolean> {
    return this.deps.store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = this.clock();
      if (this.heldByOther(await this.deps.store.get('webhook_leases', scope, webhookId), now)) return false;
      await this.deps.store.write([...ops, this.leaseOp(scope, webhookId, now)]);
      return true;
    });
  }

  /**
   * A webhook is being deleted: park its lease with an owner no worker has, so no drain claims it or
   * writes an outcome (which could bring a deleted row back) while its rows are removed. For
   * RETIRE_PARK_MS only: a node that dies between this and the delete leaves the webhook in place, and
   * it must not stay silent long (the park was 7 days). A removal that outlasts the park may see a
   * row delivered or a bundle's progress written back; the tombstone's sweep takes such rows.
   */
  retire(scope: Scope, webhookId: string): Promise<void> {
    this.blockedUntil.delete(scopeKey(scope, webhookId));
    return this.deps.store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = this.clock();
      const iso = now.toISOString();
      const lease: EndpointLease = { _id: webhookId, createdAt: iso, updatedAt: iso, owner: 'deleted', until: new Date(now.getTime() + RETIRE_PARK_MS).toISOString() };
      await this.deps.store.write([{ op: 'put', collection: 'webhook_leases', scope, doc: lease }]);
    });
  }

  private pendingPage(scope: Scope, webhookId: string, limit: number): Promise<OutboxRow[]> {
    return this.deps.store
      .list('outbox', scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit })
      .then((r) => r.docs as OutboxRow[]);
  }

  /** Writes buffered outcomes (with a renewed lease); false when the endpoint was lost to another owner. */
  private async flush(scope: Scope, webhookId: string, buffer: OutcomeBuffer): Promise<boolean> {
    if (buffer.ops.length === 0) return true;
    const { onWritten } = buffer;
    const ops = lastPerDocument(buffer.ops);
    buffer.ops = [];
    buffer.rows = 0;
    buffer.onWritten = [];
    if (!(await this.commit(scope, webhookId, ops))) return false;
    for (const count of onWritten) count();
    return true;
  }

  private async drain(scope: Scope, webhookId: string, drain: Drain): Promise<void> {
    // A read before the lease: waking an endpoint with nothing due must not cost two writes.
    drain.again = false;
    const head = this.stopping ? [] : await this.pendingPage(scope, webhookId, PAGE);
    if (head.length === 0) return;
    const claimed = await this.claim(scope, webhookId);
    if (!claimed) return;
    // A lease of ours that was still running when the page was read kept other nodes away since: the
    // page is the queue as it is, and the first turn goes without reading it again. A lease taken now
    // may follow another node's, which may have delivered some of those rows meanwhile.
    let unread: OutboxRow[] | undefined = claimed === 'kept' ? head : undefined;
    const key = scopeKey(scope, webhookId);
    const buffer: OutcomeBuffer = { ops: [], rows: 0, firstMs: 0, onWritten: [] };
    let owned = true;
    try {
      for (;;) {
        if (this.stopping) return;
        // The next page must not show rows whose delivery is only in the buffer.
        if (!(owned = await this.flush(scope, webhookId, buffer))) return;
        const webhook = (await this.deps.store.get('webhooks', scope, webhookId)) as WebhookDoc | undefined;
        if (!webhook || !webhook.enabled) return;
        let docs = unread;
        unread = undefined;
        if (docs === undefined) {
          drain.again = false;
          docs = await this.pendingPage(scope, webhookId, PAGE);
        }
        if (docs.length === 0) {
          if (drain.again) continue;
          return;
        }
        for (const row of docs) {
          if (this.stopping) return;
          const dueMs = Date.parse(row.nextAttemptAt ?? row.createdAt);
          const nowMs = this.clock().getTime();
          if (dueMs > nowMs) {
            this.blockedUntil.set(key, Math.min(dueMs, nowMs + BLOCK_RECHECK_MS));
            return;
          }
          for (const request of requestsOf(row)) {
            if (this.stopping) return;
            const now = this.clock();
            const turn = await this.deliverRow(scope, webhook, request, now);
            if (!turn) return;
            if (buffer.rows === 0) buffer.firstMs = now.getTime();
            buffer.ops.push(...turn.ops);
            buffer.rows++;
            buffer.onWritten.push(turn.onWritten);
            // Within a bundle the row count waits for its end: flushed there, a finished bundle is one
            // delete, where a flush between its parts rewrites the whole row to record its progress.
            if (!turn.delivered || (endsRow(request) && buffer.rows >= FLUSH_ROWS) || this.clock().getTime() - buffer.firstMs >= FLUSH_MS) {
              if (!(owned = await this.flush(scope, webhookId, buffer))) return;
            }
            if (turn.next === 'stop') return;
          }
        }
        // A short page was the whole queue, and rows committed since would have woken the endpoint
        // (`again`): reading another page would only find it empty. Rows other nodes write are the sweep's.
        if (docs.length < PAGE && !drain.again) return;
      }
    } finally {
      if (owned) await this.flush(scope, webhookId, buffer);
      // The lease is kept when the queue runs dry (it lapses on its own): the next wake, usually within
      // moments, then needs no write. Other nodes' rows are delivered by this node's next sweep
      // meanwhile. stop() hands leases back so that another node takes over at once.
    }
  }

  private requestHeaders(webhook: WebhookDoc, request: QueuedRequest, body: string, now: Date): Record<string, string> {
    const { row } = request;
    const signingId = this.signingIds.next(12);
    const timestamp = Math.floor(now.getTime() / 1000);
    const tokens = [webhook.token];
    if (webhook._previousToken && webhook._previousTokenUntil && Date.parse(webhook._previousTokenUntil) > now.getTime()) tokens.push(webhook._previousToken);
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-radar-signing-id': signingId,
      'x-radar-signature': radarSignature(webhook.token, signingId),
      'x-waymark-timestamp': String(timestamp),
      'x-waymark-signature': waymarkSignatureHeader(tokens, timestamp, body),
      'x-waymark-delivery-id': deliveryIdOf(request),
      'x-waymark-attempt': String(row.attempts + 1),
      'x-waymark-event-ids': row.eventIds.join(','),
    };
  }

  private logEntry(webhook: WebhookDoc, request: QueuedRequest, outcome: DeliveryOutcome, attempt: DeliveryAttempt | undefined, decision: Decision | undefined, now: Date): DeliveryLogEntry {
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
    return entry;
  }

  /**
   * The writes of a request that became a dead letter. A dead letter outlives the shared user its row
   * may point at: it keeps its user inline. A bundle's part becomes a row of its own, and the bundle
   * goes on with its next part.
   */
  private async deadOps(scope: Scope, request: QueuedRequest, now: Date, reason: OutboxRow['deadReason'], extra: Partial<OutboxRow>): Promise<WriteOp[]> {
    const { nextAttemptAt: _next, ...rest } = await this.bodies.inline(scope, request.row);
    let dead: OutboxRow = { ...rest, ...extra, state: 'dead', updatedAt: now.toISOString(), deadAt: now.toISOString(), deadReason: reason };
    // A dead receiver's dead letters are kept 30 days: past the kept size only the event ids stay, and
    // a redelivery rebuilds the payload from the stored events.
    if (Buffer.byteLength(payloadText(dead)) > this.deps.settings.deadPayloadMaxBytes) {
      const { payloadJson: _json, payload: _payload, ...small } = dead;
      dead = { ...small, payloadDropped: true };
    }
    if (!request.bundle) return [{ op: 'put', collection: 'outbox', scope, doc: dead }];
    return [{ op: 'put', collection: 'outbox', scope, doc: { ...dead, _id: newObjectId(now) } }, this.doneOp(scope, request, now)];
  }

  /** The write of a request finished (delivered or given up): its row goes, or its bundle moves past it. */
  private doneOp(scope: Scope, request: QueuedRequest, now: Date): WriteOp {
    const { bundle } = request;
    if (!bundle) return { op: 'delete', collection: 'outbox', scope, id: request.row._id };
    if (endsRow(request)) return { op: 'delete', collection: 'outbox', scope, id: bundle.row._id };
    const { lastAttemptAt: _at, lastStatus: _status, lastError: _error, ...rest } = bundle.row;
    const iso = now.toISOString();
    return { op: 'put', collection: 'outbox', scope, doc: { ...rest, sent: bundle.index + 1, attempts: 0, nextAttemptAt: iso, updatedAt: iso } };
  }

  /**
   * One row's turn: send it (unless it expired) and say what to write. Undefined when the attempt was
   * cut short by shutdown: nothing is known about the receiver, so nothing is recorded, and the row is
   * sent again by whoever drains the endpoint next.
   */
  private async deliverRow(scope: Scope, webhook: WebhookDoc, request: QueuedRequest, now: Date): Promise<Turn | undefined> {
    const { metrics, settings } = this.deps;
    const { row } = request;
    const log = (entry: DeliveryLogEntry): WriteOp => ({ op: 'put', collection: 'webhook_deliveries', scope, doc: entry });

    if (isExpired(new Date(row.enqueuedAt), now, settings.retry)) {
      return {
        ops: [...(await this.deadOps(scope, request, now, 'max-age', {})), log(this.logEntry(webhook, request, 'expired', undefined, undefined, now))],
        next: 'next', delivered: false, onWritten: () => metrics.dead.inc({ reason: 'max-age' }),
      };
    }

    const body = await this.bodies.body(scope, row);
    const attempt = await sendDelivery(
      { url: webhook.url, body, headers: this.requestHeaders(webhook, request, body, now) },
      { timeoutMs: settings.timeoutMs, policy: settings.policy, client: this.client, signal: this.controller.signal },
    );
    if (attempt.aborted) return undefined;

    const after = this.clock();
    const attempts = row.attempts + 1;
    const decision = decideAfterAttempt({
      attempts, enqueuedAt: new Date(row.enqueuedAt), now: after, policy: settings.retry, random: this.random(),
      outcome: attempt.ok ? { ok: true } : { ok: false, retryAfterMs: attempt.retryAfterMs },
    });
    metrics.requests.inc({ result: attempt.ok ? 'delivered' : 'failed' });
    metrics.latency.observe(attempt.latencyMs / 1000);

    const seen: Partial<OutboxRow> = { attempts, lastAttemptAt: now.toISOString(), lastStatus: attempt.status ?? null, lastError: attempt.error };
    if (decision.kind === 'delivered') {
      return {
        ops: [this.doneOp(scope, request, after), log(this.logEntry(webhook, request, 'delivered', attempt, decision, after))],
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
      this.blockedUntil.set(scopeKey(scope, webhook._id), Math.min(decision.at.getTime(), after.getTime() + BLOCK_RECHECK_MS));
      return {
        ops: [{ op: 'put', collection: 'outbox', scope, doc: retry }, log(this.logEntry(webhook, request, 'retry', attempt, decision, after))],
        next: 'stop', delivered: false, onWritten: () => metrics.retries.inc(),
      };
    }
    return {
      ops: [...(await this.deadOps(scope, request, after, decision.reason, seen)), log(this.logEntry(webhook, request, 'dead', attempt, decision, after))],
      next: 'next', delivered: false,
      onWritten: () => {
        metrics.dead.inc({ reason: decision.reason });
        this.deps.logger.warn('webhook dead letter', { webhookId: webhook._id, outboxId: row._id, reason: decision.reason, error: attempt.error });
      },
    };
  }

  /**
   * Periodic clean-up: delivery-log entries past retention, shared payload users past theirs, dead
   * letters past theirs, and rows of deleted webhooks.
   */
  async purge(now: Date): Promise<number> {
    const { store, settings } = this.deps;
    let removed = 0;
    for (const collection of ['webhook_deliveries', SHARED_USERS]) {
      const expired = await store.due(collection, now.toISOString(), PURGE_BATCH);
      if (expired.length > 0) {
        await store.write(expired.map(({ scope, doc }) => ({ op: 'delete' as const, collection, scope, id: doc._id })));
        removed += expired.length;
      }
    }
    const cutoff = new Date(now.getTime() - settings.deadRetentionMs).toISOString();
    // Webhook by webhook: the outbox's one index starts with the webhook (collections.ts), and a deleted
    // webhook's dead letters went with it.
    for (const { scope, webhook } of await this.deps.directory.all(now.getTime())) {
      const { docs } = await store.list('outbox', scope, {
        limit: PURGE_BATCH, sortBy: 'createdAt', order: 'asc', equals: { webhookId: webhook._id, state: 'dead' }, ranges: [{ field: 'updatedAt', before: cutoff }],
      });
      if (docs.length === 0) continue;
      await store.write(docs.map((d) => ({ op: 'delete' as const, collection: 'outbox', scope, id: d._id })));
      removed += docs.length;
    }
    return removed + (await this.purgeDeletedQueues(now));
  }

  /**
   * Outbox rows committed for a webhook after its delete swept its queue (webhook-tombstones.ts): every
   * tombstone's queue is swept, and the tombstone, with the lease retire() parked, goes once the grace
   * period is over and its sweep found nothing.
   */
  private async purgeDeletedQueues(now: Date): Promise<number> {
    const { store, settings } = this.deps;
    let removed = 0;
    for (const { scope, doc } of await store.due(WEBHOOK_TOMBSTONES, now.toISOString(), PURGE_BATCH)) {
      const { _id: webhookId, deletedAt } = doc as WebhookTombstone;
      const deleted = await deleteQueuePaced(store, scope, webhookId, () => this.stopping);
      removed += deleted;
      if (deleted === 0 && now.getTime() - Date.parse(deletedAt) >= settings.tombstoneGraceMs) {
        await store.write([
          { op: 'delete', collection: WEBHOOK_TOMBSTONES, scope, id: webhookId },
          { op: 'delete', collection: 'webhook_leases', scope, id: webhookId },
        ]);
      }
    }
    return removed;
  }
}

/**
 * Buffered outcomes with only the last write of each document, in the order of those last writes: a
 * bundle moves past each part it delivers, and only where it stands at the flush needs writing.
 */
function lastPerDocument(ops: readonly WriteOp[]): WriteOp[] {
  const documentOf = (op: WriteOp): string => `${op.collection} ${op.op === 'delete' ? op.id : op.doc._id}`;
  const last = new Map<string, number>();
  ops.forEach((op, i) => last.set(documentOf(op), i));
  return ops.filter((op, i) => last.get(documentOf(op)) === i);
}
