// Cross-process locks for withLock(): session advisory locks, all held on ONE dedicated connection per
// store. A waiter never pins a connection: it asks pg_try_advisory_lock and, when another node holds the
// lock, sleeps and asks again until its deadline. So locked sections, nested or not, cannot exhaust any
// pool, and the query pool stays free for the work done under the locks.
//
// The in-process KeyedMutex in front guarantees this session asks for a given key only once at a time,
// which matters because session advisory locks are re-entrant within one session.
//
// Requests are batched: what queues while one round trip is out goes in the next, as one statement that
// takes and frees the locks in queue order (bench/track on PostgreSQL: two round trips per track update,
// one after the other on this one connection, were the queue every update waited in, and their socket
// writes 6 % of the event loop). Order is what keeps re-entrancy harmless: a section's unlock is queued
// before the next local holder of that key can ask for it (KeyedMutex), so it runs first.
import pg from 'pg';
import { LockWaitTimeout } from '../../../ports/store';
import { errorText } from './connection';

const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

export interface AdvisorySessionOptions {
  connectionString: string;
  /** How long acquire() keeps retrying a lock held elsewhere. */
  timeoutMs: number;
  onError: (err: Error) => void;
}

/** Up to this many requests in one round trip (the statement's arrays grow with it). */
const MAX_BATCH = 256;

/** Takes (pg_try_advisory_lock) or frees (pg_advisory_unlock) each lock in order, one row per request. */
const BATCH_SQL = `SELECT t.n, CASE WHEN t.free THEN pg_advisory_unlock(t.id) ELSE pg_try_advisory_lock(t.id) END AS ok
  FROM unnest($1::boolean[], $2::bigint[]) WITH ORDINALITY AS t(free, id, n)`;

interface LockRequest {
  free: boolean;
  lockId: string;
  settle: (ok: boolean) => void;
  fail: (err: Error) => void;
}

export class AdvisorySession {
  private client?: Promise<pg.Client>;
  private closed = false;
  private queue: LockRequest[] = [];
  private sending = false;

  constructor(private readonly opts: AdvisorySessionOptions) {}

  /** Takes the lock, retrying with growing pauses; throws LockWaitTimeout past the deadline. */
  async acquire(key: string, lockId: string): Promise<void> {
    const deadline = Date.now() + this.opts.timeoutMs;
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      if (await this.tryLock(key, lockId)) return;
      const left = deadline - Date.now();
      if (left <= 0) throw new LockWaitTimeout(key, this.opts.timeoutMs);
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }

  /**
   * Frees the lock. The caller need not wait: the request is queued at once, ahead of any later
   * request of this process for the same key. A lost session has freed it already, so failures are
   * only reported.
   */
  release(lockId: string): Promise<void> {
    if (!this.client) return Promise.resolve();
    return new Promise((resolve) => this.enqueue({ free: true, lockId, settle: () => resolve(), fail: () => resolve() }));
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) await client.then((c) => c.end(), () => undefined);
  }

  private tryLock(key: string, lockId: string): Promise<boolean> {
    if (this.closed) return Promise.reject(new Error(`withLock(${JSON.stringify(key)}): the store is closed`));
    return new Promise((settle, reject) => this.enqueue({
      free: false, lockId, settle,
      fail: (err) => reject(new Error(`withLock(${JSON.stringify(key)}): could not take the advisory lock: ${errorText(err)}`, { cause: err })),
    }));
  }

  private enqueue(request: LockRequest): void {
    this.queue.push(request);
    if (!this.sending) void this.send();
  }

  /** Sends the queue in batches, one round trip at a time, until it is empty. */
  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        if (this.closed) {
          // No new session after close(): its locks went with the old one, and taking one fails.
          for (const q of batch) {
            if (q.free) q.settle(true);
            else q.fail(new Error('the store is closed'));
          }
          continue;
        }
        try {
          const client = await this.connection();
          const r = await client.query<{ n: string; ok: boolean }>({
            name: 'waymark-advisory-batch', text: BATCH_SQL, values: [batch.map((q) => q.free), batch.map((q) => q.lockId)],
          });
          const ok = new Array<boolean>(batch.length).fill(false);
          for (const row of r.rows) ok[Number(row.n) - 1] = row.ok === true;
          batch.forEach((q, i) => q.settle(ok[i]));
        } catch (err) {
          this.drop(err as Error);
          for (const q of batch) q.fail(err as Error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private connection(): Promise<pg.Client> {
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.opts.connectionString, application_name: 'waymark-locks', connectionTimeoutMillis: 10_000 });
      // A broken session loses every lock it held; the next acquire opens a new one.
      client.on('error', (err) => this.drop(err));
      this.client = client.connect().then(() => client);
      this.client.catch(() => undefined);
    }
    return this.client;
  }

  private drop(err: Error): void {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    this.opts.onError(err);
    client.then((c) => c.end(), () => undefined).catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
