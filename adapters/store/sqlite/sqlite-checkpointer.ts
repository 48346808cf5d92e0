// WAL checkpoints beside the writer, not on it. A checkpoint copies the pages committed to the WAL back
// into the database file; on the writer thread it held up every commit behind it, so the writer had to
// checkpoint often and small (every 4,000 pages), and a page changed again between two checkpoints was
// copied each time. In bench/track, checkpoints were 38 % of the writer thread's CPU.
//
// Here a thread of its own, with its own connection, runs a PASSIVE checkpoint once a second, while the
// writer goes on committing: a page written many times within that second is copied once (of 4,000
// frames, 55 % were distinct pages; of 32,000, 40 %). A PASSIVE checkpoint copies only what was
// committed when it began, and SQLite starts the WAL over only when all of it was copied, so afterwards
// the writer is asked to copy the rest (`checkpoint`): the few pages committed while this one ran. The
// next commit then starts the WAL from its beginning, so it holds about a second of writes.
//
// SQLite reuses the WAL file rather than shrinking it, and under load it holds about a second of writes
// (~180 MiB in bench/track). Cutting it back each time the log starts over (journal_size_limit) made
// the writer grow the file again every second: its CPU per update rose by a quarter. So the file is
// cut only when the writes have paused: the first round that finds nothing new asks the writer to
// copy everything and truncate it (`truncate`).
//
// The thread costs about 16 MiB of RSS (an isolate and a connection), so a store starts it only once
// its WAL has grown past `startAtWalBytes`: a store that writes little keeps checkpointing on the
// writer as before.
import { Worker } from 'node:worker_threads';

/** What a round reports: frames in the WAL, and of those, frames now copied into the database file. */
interface CheckpointResult {
  log: number;
  checkpointed: number;
}

/** The thread's body, sent as source text: self-contained, like the writer's. */
function checkpointerThread(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as { sqlitePath: string; file: string; synchronous: string; intervalMs: number };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const SqliteDatabase = require(data.sqlitePath) as typeof import('better-sqlite3');
  const db = new SqliteDatabase(data.file);
  // This connection never commits: no automatic checkpoint of its own, and no cache worth keeping.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`synchronous = ${data.synchronous}`);
  db.pragma('cache_size = 16');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const round = (): void => {
    let result: CheckpointResult | undefined;
    try {
      // Pages committed during a pass are copied by the next one, fewer each time, so that the writer's
      // catch-up (which holds its commits) finds little left.
      for (let pass = 0; pass < 3; pass++) {
        const row = (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>)[0];
        const copied = row.checkpointed - (result?.checkpointed ?? 0);
        result = { log: row.log, checkpointed: row.checkpointed };
        if (row.busy || copied < 256) break;
      }
    } catch {
      // Busy (another checkpoint runs) or the file is going away: the next round tries again.
    }
    if (result) parentPort!.postMessage(result);
    timer = setTimeout(round, data.intervalMs);
  };
  timer = setTimeout(round, data.intervalMs);
  parentPort!.on('message', (msg: 'close') => {
    if (msg !== 'close') return;
    clearTimeout(timer);
    db.close();
    parentPort!.close();
  });
}

export class SqliteCheckpointer {
  private readonly worker: Worker;
  private closing: Promise<void> | undefined;
  private exited = false;
  private last = '';

  /** Whether anything was committed since the WAL was last truncated. */
  private written = true;

  /**
   * `ask` is called with 'checkpoint' after every round that copied something new (the writer then
   * copies the rest) and with 'truncate' on the first round after those that found nothing new.
   * `died` is called once if the thread fails or ends without being closed.
   */
  constructor(opts: { file: string; synchronous: string; intervalMs: number }, ask: (what: 'checkpoint' | 'truncate') => void, died: (err: Error) => void) {
    this.worker = new Worker(`(${checkpointerThread.toString()})();`, {
      eval: true,
      workerData: { sqlitePath: require.resolve('better-sqlite3'), ...opts },
    });
    // Never what keeps a process alive: the store's close() stops it.
    this.worker.unref();
    this.worker.on('message', (result: CheckpointResult) => {
      // An idle WAL reports the same figures round after round: nothing was copied, nothing to catch up.
      const key = `${result.log}/${result.checkpointed}`;
      if (result.log === 0 || key === this.last) {
        if (this.written) ask('truncate');
        this.written = false;
        return;
      }
      this.last = key;
      this.written = true;
      ask('checkpoint');
    });
    // Until the writer starts another one (sqlite-writer.ts), its backstop checkpoints.
    let failure: Error | undefined;
    this.worker.on('error', (err) => {
      failure = err;
    });
    this.worker.once('exit', (code) => {
      this.exited = true;
      if (!this.closing) died(failure ?? new Error(`exited with code ${code}`));
    });
  }

  close(): Promise<void> {
    this.closing ??= this.exited ? Promise.resolve() : new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      // Held until it has closed its connection: awaiting an unreferenced thread would let the process end.
      this.worker.ref();
      this.worker.postMessage('close');
    });
    return this.closing;
  }
}
