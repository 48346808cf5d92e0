// Cross-process locks for withLock(): session advisory locks, all held on ONE dedicated connection per
// store. A waiter never pins a connection: it asks pg_try_advisory_lock and, when another node holds the
// lock, sleeps and asks again until its deadline. So locked sections, nested or not, cannot exhaust any
// pool, and the query pool stays free for the work done under the locks.
//
// The in-process KeyedMutex in front guarantees this session asks for a given key only once at a time,
// which matters because session advisory locks are re-entrant within one session.
import pg from 'pg';
import { LockWaitTimeout } from '../port';
import { errorText } from './connection';

const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

export interface AdvisorySessionOptions {
  connectionString: string;
  /** How long acquire() keeps retrying a lock held elsewhere. */
  timeoutMs: number;
  onError: (err: Error) => void;
}

export class AdvisorySession {
  private client?: Promise<pg.Client>;
  private closed = false;
  /** One query at a time on the session: pg's own queueing of concurrent queries is deprecated. */
  private turn: Promise<unknown> = Promise.resolve();

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

  /** Frees the lock; a lost session has freed it already, so failures are only reported. */
  async release(lockId: string): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await this.serial(async () => (await client).query('SELECT pg_advisory_unlock($1)', [lockId]));
    } catch (err) {
      this.drop(err as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) await client.then((c) => c.end(), () => undefined);
  }

  private async tryLock(key: string, lockId: string): Promise<boolean> {
    if (this.closed) throw new Error(`withLock(${JSON.stringify(key)}): the store is closed`);
    try {
      const r = await this.serial(async () => (await this.connection()).query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [lockId]));
      return r.rows[0]?.ok === true;
    } catch (err) {
      this.drop(err as Error);
      throw new Error(`withLock(${JSON.stringify(key)}): could not take the advisory lock: ${errorText(err)}`);
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn);
    this.turn = run.catch(() => undefined);
    return run;
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
