// How processes sharing one SQLite file hear each other's changes (the CLI importing geofences beside a
// running gateway): SQLite has no NOTIFY, so writers add rows to the `change_log` table in the
// transaction of the change (a row exists if and only if the change committed), and each process that
// listens polls the table for rows newer than the last it read, made by someone else.
//
// Why a table and not `PRAGMA data_version`: data_version changes on any commit by another connection,
// and the gateway's own writes come from its writer thread's connection, so it changes on every track
// update and still says nothing about what changed. The log says which collection, environment and
// documents, so a listener reads only those. A poll with nothing new reads one row of sqlite_sequence.
// Writers prune rows older than a minute (row-writer.ts); a reader that fell further behind sees the
// hole in the sequence and reports that anything may have changed.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { broadcastTargets } from '../broadcast-targets';
import type { CollectionSpec, RemoteChange, WriteOp } from '../../../ports/store';
import type { NoteRow } from './row-writer';

/** More ids than this in one write announce the whole environment instead (as an import does). */
export const MAX_IDS_PER_NOTE = 1000;
/** A reader further behind than this many rows starts over instead of reading them. */
const MAX_BEHIND = 20_000;

/** One writer's name in the log, so that its own rows are not reported back to it. */
export function newNodeId(): string {
  return randomBytes(8).toString('hex');
}

/** The change-log rows of a write: one per broadcast collection and environment it touches. */
export function changeNotes(ops: readonly WriteOp[], specOf: (collection: string) => CollectionSpec | undefined, node: string, atMs: number): NoteRow[] {
  return broadcastTargets(ops, specOf).map((t) => [
    atMs, node, t.collection, t.scope.projectId, t.scope.live ? 1 : 0, t.ids.length <= MAX_IDS_PER_NOTE ? JSON.stringify(t.ids) : null,
  ]);
}

/** Adds the row announcing a change of a project's keys or settings, in the caller's transaction. */
export function noteProjectChange(db: Database.Database, node: string, projectId: string): void {
  db.prepare("INSERT INTO change_log (at, node, collection, project_id, live, ids) VALUES (?, ?, 'projects', ?, NULL, NULL)").run(Date.now(), node, projectId);
}

interface LogRow {
  seq: number;
  node: string;
  collection: string;
  project_id: string | null;
  live: number | null;
  ids: string | null;
}

/** Polls the log for other processes' rows and hands them on as RemoteChanges, merged per poll. */
export class ChangeLogReader {
  private lastSeq: number;
  private readonly timer: NodeJS.Timeout;
  private readonly newest: Database.Statement<[], { seq: number }>;
  private readonly first: Database.Statement<[number], { seq: number }>;
  private readonly others: Database.Statement<[number, number, string], LogRow>;

  constructor(
    db: Database.Database,
    private readonly node: string,
    private readonly deliver: (change: RemoteChange) => void,
    intervalMs: number,
    private readonly onError: (err: Error) => void,
  ) {
    // sqlite_sequence keeps the last seq handed out even when every row has been pruned.
    this.newest = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'");
    this.first = db.prepare('SELECT seq FROM change_log WHERE seq > ? ORDER BY seq LIMIT 1');
    // This process's own rows (a gateway's trips, written on most track updates of a user on a trip)
    // are skipped by SQLite, never read into JavaScript.
    this.others = db.prepare('SELECT seq, node, collection, project_id, live, ids FROM change_log WHERE seq > ? AND seq <= ? AND node <> ? ORDER BY seq');
    // What happened before this process listened is in what it will load anyway.
    this.lastSeq = this.newestSeq();
    this.timer = setInterval(() => this.poll(), intervalMs);
    // A CLI command that listens must still exit when its work is done.
    this.timer.unref();
  }

  private newestSeq(): number {
    return this.newest.get()?.seq ?? 0;
  }

  /** Reads what is new; public for tests that must not wait for the timer. */
  poll(): void {
    try {
      this.read();
    } catch (err) {
      // The next poll tries again from the same row; a busy or locked file is the usual cause.
      this.onError(err as Error);
    }
  }

  private read(): void {
    const newest = this.newestSeq();
    if (newest === this.lastSeq) return;
    // Seqs are consecutive (AUTOINCREMENT, assigned in the writers' transactions): a hole after the last
    // row read means rows this reader never saw were pruned, and anything may have changed. So does a
    // backlog too long to be worth reading row by row.
    if (this.first.get(this.lastSeq)?.seq !== this.lastSeq + 1 || newest - this.lastSeq > MAX_BEHIND) {
      this.lastSeq = newest;
      this.deliver({ collection: '*' });
      return;
    }
    const merged = new Map<string, RemoteChange>();
    for (const row of this.others.iterate(this.lastSeq, newest, this.node)) merge(merged, row);
    this.lastSeq = newest;
    for (const change of merged.values()) this.deliver(change);
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** Folds a row into the changes of this poll: one per collection and environment (or project). */
function merge(merged: Map<string, RemoteChange>, row: LogRow): void {
  const key = `${row.collection}\u0000${row.project_id ?? ''}\u0000${row.live ?? ''}`;
  const seen = merged.get(key);
  // Already "anything in the scope": this row's ids add nothing (and are not even parsed).
  if (seen && !seen.ids) return;
  const ids = row.ids === null ? undefined : (JSON.parse(row.ids) as string[]);
  if (seen) {
    if (!ids || seen.ids!.length + ids.length > MAX_IDS_PER_NOTE) delete seen.ids;
    else seen.ids!.push(...ids);
    return;
  }
  const change: RemoteChange = { collection: row.collection };
  if (row.project_id !== null) change.projectId = row.project_id;
  if (row.project_id !== null && row.live !== null) change.scope = { projectId: row.project_id, live: row.live === 1 };
  if (ids) change.ids = ids;
  merged.set(key, change);
}
