// The delivery worker: drains each webhook's outbox rows in order, one request in flight per endpoint,
// endpoints in parallel. A row is deleted once a receiver acknowledged it (2xx) and only then, so a
// crash at any point leaves it pending and it is sent again: delivery is at least once, and receivers
// deduplicate on the event `_id`.
//
// Per-endpoint order is strict: a row is not sent before every older row of its endpoint was
// delivered or became a dead letter. A failing head row therefore holds its endpoint's queue until it
// succeeds, dies (maximum attempts) or expires (maximum age).
//
// This file schedules drains (wakes, the periodic sweep, slots per project: delivery-slots.ts) and pages
// through an endpoint's queue. The lease protocol between nodes is delivery-leases.ts, what an outcome
// writes delivery-outcomes.ts, how outcomes are grouped delivery-outcome-buffer.ts, the request's
// headers delivery-headers.ts, the HTTP attempt delivery-http.ts, clean-up delivery-retention.ts. An
// endpoint's buffered outcomes outlive its drains (delivery-endpoint-writes.ts). Requests are signed and
// sent by the sender (delivery-sender.ts: a thread of its own by default), a page's due requests at a
// time, in order; this file reads each outcome as it comes and records it.
import type { Scope, Store } from '../../../../ports/store';
import { scopeKey } from '../../../../adapters/store/scope-key';
import { deliveryIdOf, endsRow, requestsOf, type QueuedRequest } from '../outbox-bundle';
import { PayloadBodies } from '../shared-user';
import type { WebhookDirectory } from '../webhook-directory';
import type { OutboxRow, WebhookDoc } from '../webhook-docs';
import type { WebhookMetrics } from '../webhook-metrics';
import type { AddressPolicy } from '../../../../core/webhooks/address-safety';
import type { RetryPolicy } from '../../../../core/webhooks/retry-policy';
import type { Logger } from '../../../../ports/logger';
import { signingTokens } from './delivery-headers';
import { deliverySender, type DeliverySender } from './delivery-sender';
import type { SendRequest } from './delivery-send-run';
import { EndpointLeases } from './delivery-leases';
import { EndpointWrites } from './delivery-endpoint-writes';
import { DeliveryOutcomes, type Turn } from './delivery-outcomes';
import { QueuePurge } from './delivery-queue-purge';
import { DeliveryRetention } from './delivery-retention';
import { DrainSlots } from './delivery-slots';
import { OUTBOX, WEBHOOKS } from '../../../api/collections';

export interface DeliverySettings {
  timeoutMs: number;
  retry: RetryPolicy;
  /** Endpoints of one project drained at the same time on this node. */
  concurrency: number;
  policy: AddressPolicy;
  logRetentionMs: number;
  deadRetentionMs: number;
  /** How long a deleted webhook's tombstone is kept at least (webhook-tombstones.ts). */
  tombstoneGraceMs: number;
  /** Dead letters with a larger payload keep only their event ids. */
  deadPayloadMaxBytes: number;
  /** Sign and send on a thread of its own (delivery-sender.ts); false: on the event loop. */
  sendThread?: boolean;
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
/**
 * Requests handed to the sender at a time. The sender goes on with the next request while this thread
 * records the last one, so it may be up to a batch ahead of what is recorded: after a crash, a batch
 * plus a group of buffered outcomes (delivery-outcome-buffer.ts) may be sent again.
 */
const BATCH = 25;
/**
 * Room beyond an attempt's own bounds (its connection, then its deadline on the wire) for the writes
 * around it, before a lease is considered abandoned.
 */
const LEASE_MARGIN_MS = 5000;
/**
 * How long a drain goes on with the webhook as it read it (ms). An edit through this node is seen at the
 * drain's next page (the directory counts them); one made elsewhere (another node, the CLI) within this.
 */
const WEBHOOK_RECHECK_MS = 1000;
/** How long a node trusts its memory that an endpoint's head row is not due (another node may redeliver). */
const BLOCK_RECHECK_MS = 30_000;
/** Drains one sweep starts at most; the next sweep goes on from there. */
const SWEEP_STARTS = 64;
/**
 * How long a woken endpoint waits before its drain reads the queue (ms), and how long a drain that found
 * a short page waits before it looks again for rows committed meanwhile. Under steady track load every
 * commit wakes the endpoint: woken at once, a drain found one or two rows, and what a drain costs the
 * event loop besides sending (the page read, the lease, the messages to and from the sender thread)
 * was paid per delivery, nearly as much as the sending itself (issue 31 item 6). Gathered for this
 * long, one page holds the rows of many commits. It adds at most this much to a delivery's lag.
 */
export const GATHER_MS = 20;

interface Drain {
  /** Rows were written for the endpoint while it was draining: look again before stopping. */
  again: boolean;
  done: Promise<void>;
}

export class DeliveryWorker {
  private active = false;
  private stopping = false;
  private readonly drains = new Map<string, Drain>();
  /** Each endpoint's outcome writes, kept between its drains until they are written. */
  private readonly writes = new Map<string, EndpointWrites>();
  private readonly blockedUntil = new Map<string, number>();
  /** Endpoints woken and not draining, started together once GATHER_MS has passed. */
  private readonly woken = new Map<string, { scope: Scope; webhookId: string }>();
  /** The pending start of the woken endpoints, if any; resolved once they started (idle() waits for it). */
  private gathering: { timer: NodeJS.Timeout; started: Promise<void>; resolve: () => void } | undefined;
  /** Where in the list of webhooks the next sweep begins. */
  private sweepFrom = 0;
  private readonly sender: DeliverySender;
  private readonly bodies: PayloadBodies;
  private readonly leases: EndpointLeases;
  private readonly outcomes: DeliveryOutcomes;
  private readonly retention: DeliveryRetention;
  private readonly slots: DrainSlots;
  /** Removes deleted webhooks' queues in the background. */
  readonly queuePurge: QueuePurge;
  private readonly clock: () => Date;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    const { store, settings } = deps;
    this.bodies = new PayloadBodies(store);
    this.clock = deps.clock ?? (() => new Date());
    this.sender = deliverySender({
      policy: settings.policy, timeoutMs: settings.timeoutMs, thread: settings.sendThread ?? true, logger: deps.logger, now: () => this.clock().getTime(),
    });
    this.slots = new DrainSlots(settings.concurrency);
    this.leases = new EndpointLeases({
      store, clock: this.clock,
      // An attempt may take its connect bound and then its deadline on the wire (delivery-http.ts).
      leaseMs: 2 * settings.timeoutMs + LEASE_MARGIN_MS,
      // Another node (perhaps a dead one) holds the endpoint: wakes until its lease ends would each cost
      // a read and a lock for nothing, on every commit (#10.3). The sweep looks again then.
      heldElsewhere: (scope, webhookId, untilMs) => this.blockedUntil.set(scopeKey(scope, webhookId), Math.min(untilMs, this.clock().getTime() + BLOCK_RECHECK_MS)),
    });
    this.outcomes = new DeliveryOutcomes({
      bodies: this.bodies, metrics: deps.metrics, logger: deps.logger, random: deps.random ?? Math.random,
      settings: { retry: settings.retry, logRetentionMs: settings.logRetentionMs, deadPayloadMaxBytes: settings.deadPayloadMaxBytes },
    });
    this.retention = new DeliveryRetention({
      store, directory: deps.directory, deadRetentionMs: settings.deadRetentionMs, tombstoneGraceMs: settings.tombstoneGraceMs, stopping: () => this.stopping,
    });
    this.queuePurge = new QueuePurge({ store, logger: deps.logger, purged: deps.metrics.purged });
  }

  /** This process's identity in leases. */
  get owner(): string {
    return this.leases.owner;
  }

  /**
   * Marks this process as one that delivers. Only a serving process does: the worker turns active on
   * its first scheduled sweep or its first track update (see webhooks-feature.ts), so CLI commands,
   * which share the feature setup but schedule no jobs and take no updates, never send anything.
   */
  activate(): void {
    this.active = true;
  }

  /**
   * New rows were committed for these webhooks: deliver within GATHER_MS rather than at the next poll.
   * A draining endpoint reads its queue again before it stops.
   */
  wake(scope: Scope, webhookIds: Iterable<string>): void {
    if (!this.active || this.stopping) return;
    const now = this.clock().getTime();
    for (const id of webhookIds) {
      const key = scopeKey(scope, id);
      if ((this.blockedUntil.get(key) ?? 0) > now) continue;
      const running = this.drains.get(key);
      if (running) running.again = true;
      else this.woken.set(key, { scope, webhookId: id });
    }
    if (this.woken.size > 0 && this.gathering === undefined) {
      let resolve!: () => void;
      const started = new Promise<void>((r) => {
        resolve = r;
      });
      const timer = setTimeout(() => {
        this.gathering = undefined;
        const woken = [...this.woken.values()];
        this.woken.clear();
        if (!this.stopping) for (const { scope: s, webhookId } of woken) this.start(s, webhookId);
        resolve();
      }, GATHER_MS);
      this.gathering = { timer, started, resolve };
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
   * The periodic job: start draining endpoints that may have due rows and are not being drained, at most
   * SWEEP_STARTS of them; the next sweep goes on from there, so every endpoint is looked at in turn.
   */
  async sweep(now: Date): Promise<number> {
    if (this.stopping) return 0;
    this.active = true;
    const all = await this.deps.directory.all(now.getTime());
    let started = 0;
    for (let i = 0; i < all.length; i++) {
      const at = (this.sweepFrom + i) % all.length;
      const { scope, webhook } = all[at];
      const key = scopeKey(scope, webhook._id);
      if (!webhook.enabled || this.drains.has(key) || this.slots.isWaiting(scope.projectId, key)) continue;
      if ((this.blockedUntil.get(key) ?? 0) > now.getTime()) continue;
      if (started >= SWEEP_STARTS) {
        this.sweepFrom = at;
        break;
      }
      this.start(scope, webhook._id);
      started++;
    }
    // Deliveries are counted by the metrics; a count here would log a line every poll.
    return 0;
  }

  /** Resolves once no endpoint is being drained and every outcome is written (benchmarks, tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      while (this.drains.size > 0 || this.gathering !== undefined) {
        await this.gathering?.started;
        await Promise.all([...this.drains.values()].map((d) => d.done));
      }
      await Promise.all([...this.writes.values()].map((w) => w.flush().catch((err: unknown) => this.writeFailed(err))));
      if (this.drains.size === 0 && this.gathering === undefined) return;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.slots.clearWaiting();
    if (this.gathering !== undefined) {
      // Nothing more starts; the woken endpoints' rows stay pending for the next process (or node).
      clearTimeout(this.gathering.timer);
      this.gathering.resolve();
      this.woken.clear();
      this.gathering = undefined;
    }
    this.sender.abort();
    await Promise.all([this.idle(), this.queuePurge.stop()]);
    await this.leases.releaseAll();
    await this.sender.close();
  }

  /** A webhook is being deleted: no drain may claim it or write for it any more (delivery-leases.ts). */
  async retire(scope: Scope, webhookId: string): Promise<void> {
    const key = scopeKey(scope, webhookId);
    this.blockedUntil.delete(key);
    await this.leases.retire(scope, webhookId);
    // Outcomes still buffered for it now find the lease parked, and are dropped.
    await this.writes.get(key)?.flush().catch(() => undefined);
    if (this.writes.get(key)?.quiet) this.writes.delete(key);
  }

  /** Periodic clean-up (delivery-retention.ts). */
  purge(now: Date): Promise<number> {
    return this.retention.purge(now);
  }

  private start(scope: Scope, webhookId: string): void {
    const key = scopeKey(scope, webhookId);
    const running = this.drains.get(key);
    if (running) {
      running.again = true;
      return;
    }
    this.slots.request(scope.projectId, key, () => this.run(scope, webhookId, key));
  }

  private run(scope: Scope, webhookId: string, key: string): void {
    if (this.stopping) {
      this.slots.release(scope.projectId);
      return;
    }
    const drain: Drain = { again: false, done: Promise.resolve() };
    drain.done = this.drain(scope, webhookId, drain)
      .catch((err: unknown) => {
        this.deps.logger.error('webhook drain failed', { webhookId, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => {
        this.drains.delete(key);
        this.slots.release(scope.projectId);
        if (drain.again && !this.stopping) this.start(scope, webhookId);
      });
    this.drains.set(key, drain);
  }

  private writeFailed(err: unknown): void {
    this.deps.logger.error('webhook outcome write failed', { error: err instanceof Error ? err.message : String(err) });
  }

  /** The endpoint's outcome writes; a new set after the endpoint was lost to another owner and claimed again. */
  private writesFor(scope: Scope, webhookId: string, key: string): EndpointWrites {
    let writes = this.writes.get(key);
    if (writes === undefined || writes.lost) {
      writes = new EndpointWrites(this.leases, scope, webhookId, (err) => this.writeFailed(err));
      this.writes.set(key, writes);
    }
    return writes;
  }

  private pendingPage(scope: Scope, webhookId: string, limit: number, exceptIds: string[] = []): Promise<OutboxRow[]> {
    return this.deps.store
      .list(OUTBOX, scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit, exceptIds })
      .then((r) => r.docs);
  }

  private async drain(scope: Scope, webhookId: string, drain: Drain): Promise<void> {
    const key = scopeKey(scope, webhookId);
    const existing = this.writes.get(key);
    const read = (limit: number, exceptIds?: string[]): Promise<OutboxRow[]> => this.pendingPage(scope, webhookId, limit, exceptIds);
    // A read before the lease: waking an endpoint with nothing due must not cost two writes. Rows this
    // node delivered whose outcomes are not written yet are not due either.
    drain.again = false;
    const head = this.stopping ? { docs: [], full: false } : existing && !existing.lost ? await existing.view(read, PAGE) : { docs: await read(PAGE), full: false };
    if (head.docs.length === 0) return;
    const claimed = await this.leases.claim(scope, webhookId);
    if (!claimed) return;
    const writes = this.writesFor(scope, webhookId, key);
    // A lease of ours that was still running when the page was read kept other nodes away since: the
    // page is the queue as it is, and the first turn goes without reading it again. A lease taken now
    // may follow another node's, which may have delivered some of those rows meanwhile.
    let unread: { docs: OutboxRow[]; full: boolean } | undefined = claimed === 'kept' && (existing === writes || existing === undefined) ? head : undefined;
    // The webhook as read (once per drain, again after an edit or WEBHOOK_RECHECK_MS).
    let webhook: WebhookDoc | undefined;
    let webhookRead = { atMs: 0, edits: -1 };
    // The last page was the whole queue: rows that came since are gathered a moment before reading again.
    let short = false;
    try {
      for (;;) {
        if (this.stopping || writes.lost) return;
        // The page as this node knows it: rows whose outcomes are only buffered are left out, so the next
        // page does not wait for the buffer's commit (delivery-endpoint-writes.ts).
        let page = unread;
        unread = undefined;
        if (page === undefined) {
          if (short) {
            await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
            if (this.stopping || writes.lost) return;
          }
          drain.again = false;
          page = await writes.view(read, PAGE);
        }
        short = !page.full;
        const readMs = this.clock().getTime();
        if (webhook === undefined || webhookRead.edits !== this.deps.directory.edits || readMs - webhookRead.atMs >= WEBHOOK_RECHECK_MS) {
          webhookRead = { atMs: readMs, edits: this.deps.directory.edits };
          webhook = await this.deps.store.get(WEBHOOKS, scope, webhookId);
        }
        if (!webhook || !webhook.enabled) return;
        const docs = page.docs;
        if (docs.length === 0) {
          if (drain.again) continue;
          return;
        }
        // The page's due requests, in order, up to the first row not due yet (its endpoint waits for it).
        const due: QueuedRequest[] = [];
        let waiting = false;
        const nowMs = this.clock().getTime();
        for (const row of docs) {
          const dueMs = Date.parse(row.nextAttemptAt ?? row.createdAt);
          if (dueMs > nowMs) {
            this.blockedUntil.set(key, Math.min(dueMs, nowMs + BLOCK_RECHECK_MS));
            waiting = true;
            break;
          }
          due.push(...requestsOf(row));
        }
        for (let at = 0; at < due.length; ) {
          if (this.stopping) return;
          const now = this.clock();
          if (this.outcomes.isExpired(due[at].row, now)) {
            // Given up without being sent, in its place in the line.
            const turn = await this.outcomes.expired(scope, webhook, due[at], now);
            if (!(await writes.add(turn, endsRow(due[at]), now.getTime(), this.clock().getTime()))) return;
            at++;
            continue;
          }
          let end = at + 1;
          while (end < due.length && end - at < BATCH && !this.outcomes.isExpired(due[end].row, now)) end++;
          if (!(await this.sendBatch(scope, webhook, due.slice(at, end), writes, key))) return;
          at = end;
        }
        if (waiting) return;
        // Other endpoints of the project wait for a slot: take turns (delivery-slots.ts).
        if (this.slots.mustYield(scope.projectId)) {
          drain.again = true;
          return;
        }
        // A short page was the whole queue, and rows committed since would have woken the endpoint
        // (`again`): reading another page would only find it empty. Rows other nodes write are the sweep's.
        if (!page.full && !drain.again) return;
      }
    } finally {
      // What is buffered is written when its group is due, or by the timer (delivery-endpoint-writes.ts);
      // on shutdown stop() writes it. The lease is kept when the queue runs dry (it lapses on its own):
      // the next wake, usually within moments, then needs no write. Other nodes' rows are delivered by
      // this node's next sweep meanwhile. stop() hands leases back so that another node takes over at once.
      if (this.stopping) await writes.flush().catch((err: unknown) => this.writeFailed(err));
    }
  }

  /**
   * Sends a batch of an endpoint's due requests (in order) and records each outcome as it comes. True when
   * every request was delivered (or given up) and the endpoint may go on; false when it must stop: a
   * retry is due later, the endpoint was lost to another owner, or the attempt was cut short by shutdown
   * (nothing is known about the receiver then, so nothing is recorded, and the request is sent again by
   * whoever drains the endpoint next). Returns only once the sender has ended the run: an endpoint never
   * has two requests in flight.
   */
  private async sendBatch(scope: Scope, webhook: WebhookDoc, batch: QueuedRequest[], writes: EndpointWrites, key: string): Promise<boolean> {
    const requests: SendRequest[] = [];
    for (const request of batch) {
      requests.push({ body: await this.bodies.body(scope, request.row), deliveryId: deliveryIdOf(request), attempt: request.row.attempts + 1, eventIds: request.row.eventIds });
    }
    const run = this.sender.start({ url: webhook.url, tokens: signingTokens(webhook, this.clock()), requests });
    let recorded = 0;
    let goOn = true;
    for (let sent = await run.next(); sent !== undefined; sent = await run.next()) {
      const request = batch[recorded];
      // After a stop the run may still report the request that was in flight: it is not recorded (its
      // endpoint stops here), so it is sent again later, as at least once allows.
      if (!goOn || request === undefined) continue;
      if (sent.attempt.aborted || this.stopping) {
        goOn = false;
        run.stop();
        continue;
      }
      const turn: Turn = await this.outcomes.afterAttempt(scope, webhook, request, sent.attempt, new Date(sent.startedMs), new Date(sent.endedMs));
      recorded++;
      if (turn.retryAtMs !== undefined) this.blockedUntil.set(key, Math.min(turn.retryAtMs, this.clock().getTime() + BLOCK_RECHECK_MS));
      if (!(await writes.add(turn, endsRow(request), sent.startedMs, this.clock().getTime())) || turn.next === 'stop') {
        goOn = false;
        run.stop();
      }
    }
    // A run that ended before its last request (the sender thread was lost) leaves the rest pending.
    return goOn && recorded === batch.length;
  }
}
