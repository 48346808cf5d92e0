// The SQLite store's writes, committed on a thread of their own. better-sqlite3 is synchronous: on the
// event loop, every commit blocked HTTP for its B-tree work, its WAL fsync (synchronous=FULL) and now and
// then a checkpoint copying megabytes back into the database (bench/track: 40 % of the gateway's CPU
// and half its wall time were inside commits). Here the main thread prepares rows (key columns, JSON)
// and posts them; the writer thread owns a second connection to the file, applies them and answers.
//
// Group commit comes for free: while one transaction runs, new writes queue, and the next transaction
// takes all of them (at most MAX_GROUP_OPS operations), so a busy server commits large groups and an idle
// one commits at once. Each write stays all-or-nothing: a failed group is retried batch by batch.
// Checkpoints run on this thread at first (the main connection's automatic checkpoints are off); once
// the WAL has grown past `checkpointer.startAtWalBytes` a checkpointer thread takes them over
// (sqlite-checkpointer.ts) and this thread only copies what it left, when asked, with its automatic
// checkpoint kept as a backstop.
import { Worker } from 'node:worker_threads';
import { createRowWriter, type RowFailure, type RowOp } from './row-writer';
import { SqliteCheckpointer } from './sqlite-checkpointer';

/** A group closes at this many operations, so one transaction's pages stay a bounded amount of WAL. */
const MAX_GROUP_OPS = 4_000;
/**
 * A checkpointer thread that died is started again after this long, doubled after each death that
 * follows without a round copying anything between (a thread that cannot even open the file), up to
 * RESTART_MAX_MS. Meanwhile the writer's backstop checkpoints.
 */
const RESTART_MS = 1_000;
const RESTART_MAX_MS = 60_000;

export interface WriterOptions {
  file: string;
  synchronous: 'NORMAL' | 'FULL';
  cacheMb: number;
  /** This thread's automatic checkpoint, until a checkpointer thread takes over. */
  walAutocheckpointPages: number;
  /** Omitted: this thread keeps checkpointing. */
  checkpointer?: {
    /** The checkpointer starts once the WAL file is this large. */
    startAtWalBytes: number;
    intervalMs: number;
    /** This thread's automatic checkpoint once the checkpointer runs: only if it falls far behind. */
    backstopPages: number;
  };
}

interface GroupMessage {
  seq: number;
  batches: RowOp[][];
}

/**
 * To the writer thread besides groups: `checkpoint`, copy what the checkpointer left; `truncate`, the
 * writes have stopped: copy everything and cut the WAL file to nothing; `close`.
 */
type ControlMessage = 'checkpoint' | 'truncate' | 'close';

interface GroupReply {
  seq: number;
  /** One entry per batch: null when it committed. */
  failures: Array<RowFailure | null>;
  /** Once: the WAL reached the checkpointer's start size; this thread keeps only its backstop from then on. */
  walGrown?: true;
}

interface Pending {
  batch: RowOp[];
  resolve: () => void;
  reject: (failure: RowFailure) => void;
}

/**
 * The writer thread's body, sent as source text: self-contained (see row-writer.ts), `makeWriter` is
 * createRowWriter passed in by the source's own text rather than through this module's import.
 */
function writerThread(makeWriter: typeof createRowWriter): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as { sqlitePath: string; options: WriterOptions };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const SqliteDatabase = require(data.sqlitePath) as typeof import('better-sqlite3');
  const db = new SqliteDatabase(data.options.file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${data.options.synchronous}`);
  // Waits for other connections' locks: the checkpointer's, a CLI writing beside the server.
  const busyTimeoutMs = 5000;
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma(`cache_size = -${data.options.cacheMb * 1024}`);
  db.pragma(`wal_autocheckpoint = ${data.options.walAutocheckpointPages}`);
  const writer = makeWriter(db);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const { checkpointer } = data.options;
  let watchWal = checkpointer !== undefined;
  const walGrown = (): boolean => {
    try {
      return fs.statSync(`${data.options.file}-wal`).size >= checkpointer!.startAtWalBytes;
    } catch {
      return false;
    }
  };
  const failureOf = (err: unknown) => ({
    code: (err as { code?: string }).code,
    message: err instanceof Error ? err.message : String(err),
    table: String((err as { table?: string }).table ?? ''),
  });
  parentPort!.on('message', (msg: GroupMessage | ControlMessage) => {
    if (msg === 'close') {
      db.close();
      parentPort!.close();
      return;
    }
    if (msg === 'checkpoint') {
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy: the checkpointer's next round, or the backstop, copies it.
      }
      return;
    }
    if (msg === 'truncate') {
      // A TRUNCATE checkpoint waits for readers of older snapshots: with no busy timeout it gives up at
      // once instead of holding the commits queued behind it.
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // A reader was in the way: the file keeps its size until the next pause.
      } finally {
        db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      }
      return;
    }
    let failures: Array<RowFailure | null> = msg.batches.map(() => null);
    try {
      writer.applyGroup(msg.batches);
    } catch (groupErr) {
      failures = msg.batches.length === 1
        ? [failureOf(groupErr)]
        : msg.batches.map((batch) => {
          try {
            writer.applyOne(batch);
            return null;
          } catch (err) {
            return failureOf(err);
          }
        });
    }
    const reply: GroupReply = { seq: msg.seq, failures };
    if (watchWal && walGrown()) {
      watchWal = false;
      db.pragma(`wal_autocheckpoint = ${checkpointer!.backstopPages}`);
      reply.walGrown = true;
    }
    parentPort!.postMessage(reply);
  });
}

export class SqliteWriter {
  private readonly worker: Worker;
  private queue: Pending[] = [];
  private inFlight: Pending[] | undefined;
  private seq = 0;
  private closing: Promise<void> | undefined;
  private crashed: Error | undefined;
  private checkpointer: SqliteCheckpointer | undefined;
  /** Checkpointer deaths since one last copied something: the restart delay's exponent. */
  private checkpointerDeaths = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Called once nothing is queued or in flight, while close() waits for that. */
  private drained: (() => void) | undefined;

  /** `onError` is told when a checkpointer thread dies (it is started again). */
  constructor(
    private readonly options: WriterOptions,
    private readonly committed: (batch: RowOp[]) => void,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    const source = `(${writerThread.toString()})(${createRowWriter.toString()});`;
    this.worker = new Worker(source, { eval: true, workerData: { sqlitePath: require.resolve('better-sqlite3'), options } });
    // Held only while a group is out: a store nobody closed must not keep the process alive, and one
    // with a write in flight must (a CLI command ending on a write).
    this.worker.unref();
    this.worker.on('message', (reply: GroupReply) => this.settle(reply));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`SQLite writer thread exited (${code})`));
    });
  }

  /** Resolves once the batch is committed; rejects with the failure that rolled it back. */
  submit(batch: RowOp[]): Promise<void> {
    if (this.crashed) return Promise.reject(this.crashed);
    if (this.closing) return Promise.reject(new Error('SQLite store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      if (!this.inFlight) this.post();
    });
  }

  private post(): void {
    if (this.queue.length === 0) return;
    let ops = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || ops + this.queue[n].batch.length <= MAX_GROUP_OPS)) ops += this.queue[n++].batch.length;
    const group = this.queue.splice(0, n);
    this.inFlight = group;
    this.worker.ref();
    this.worker.postMessage({ seq: ++this.seq, batches: group.map((p) => p.batch) } satisfies GroupMessage);
  }

  private settle(reply: GroupReply): void {
    const group = this.inFlight ?? [];
    this.inFlight = undefined;
    if (reply.walGrown) this.startCheckpointer();
    group.forEach((p, i) => {
      const failure = reply.failures[i];
      if (failure) {
        p.reject(failure);
        return;
      }
      this.committed(p.batch);
      p.resolve();
    });
    if (this.queue.length > 0) this.post();
    else {
      this.worker.unref();
      if (this.drained) this.drained();
    }
  }

  private startCheckpointer(): void {
    const { checkpointer } = this.options;
    if (!checkpointer || this.checkpointer || this.closing) return;
    this.checkpointer = new SqliteCheckpointer(
      { file: this.options.file, synchronous: this.options.synchronous, intervalMs: checkpointer.intervalMs },
      (next) => {
        this.checkpointerDeaths = 0;
        if (!this.closing && !this.crashed) this.worker.postMessage(next satisfies ControlMessage);
      },
      (err) => this.checkpointerDied(err),
    );
  }

  /**
   * Without the thread the WAL grows to the backstop (256 MiB) before anything copies it, and commits
   * stall while the writer does: say so and start another.
   */
  private checkpointerDied(err: Error): void {
    this.checkpointer = undefined;
    if (this.closing || this.crashed) return;
    const delay = Math.min(RESTART_MAX_MS, RESTART_MS * 2 ** this.checkpointerDeaths++);
    this.onError(new Error(`SQLite checkpointer thread stopped (${err.message}); starting another in ${delay / 1000} s`));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.startCheckpointer();
    }, delay);
    this.restartTimer.unref();
  }

  private fail(err: Error): void {
    this.crashed = err;
    const everyone = [...(this.inFlight ?? []), ...this.queue];
    this.inFlight = undefined;
    this.queue = [];
    for (const p of everyone) p.reject({ code: undefined, message: err.message, table: '' });
    if (this.drained) this.drained();
  }

  /** Commits what is queued, then stops the thread and closes its connection. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.restartTimer);
      await this.checkpointer?.close();
      if (this.inFlight || this.queue.length > 0) await new Promise<void>((resolve) => { this.drained = resolve; });
      if (this.crashed) return;
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      this.worker.ref();
      this.worker.postMessage('close');
      await exited;
    })();
    return this.closing;
  }
}
