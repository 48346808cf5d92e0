// Applying prepared rows to a SQLite connection: the statements behind every put and delete. Used on
// the writer thread (sqlite-writer.ts) and, for in-memory stores that no second thread can open, in
// the store's own thread.
//
// `createRowWriter` is also sent to the writer thread as source text (Function.prototype.toString), so
// it must stay self-contained: no imports, no helpers from outside its body, plain ES2022.
import type Database from 'better-sqlite3';

/** A put as the writer applies it: the table's columns, the document already serialised. */
export type PutRow = [
  table: string, projectId: string, live: 0 | 1, id: string, createdAt: string, updatedAt: string,
  k0: string | null, k1: string | null, k2: string | null, k3: string | null,
  lng: number | null, lat: number | null, dueAt: string | null, json: string,
  /** 1 when the table keeps a revision column (a versioned collection). */
  versioned: 0 | 1,
  /** The revision the row must have (0: must not exist), or null for no check. Versioned tables only. */
  expectRev: number | null,
  /** A volatile collection's coarse columns (coarse-index.ts): the hour and the point's cells; else null. */
  coarse: [hour: string | null, latCell: number | null, lngCell: number | null] | null,
];

export type DeleteRow = [table: string, projectId: string, live: 0 | 1, id: string];

/**
 * A change-log row (change-log.ts): what other processes on the file are told about this write. `ids`
 * is a JSON array, or null for "anything in the scope".
 */
export type NoteRow = [atMs: number, node: string, collection: string, projectId: string | null, live: 0 | 1 | null, ids: string | null];

export type RowOp = { put: PutRow } | { del: DeleteRow } | { note: NoteRow };

/** A failed batch, as it crosses the thread boundary. */
export interface RowFailure {
  code: string | undefined;
  message: string;
  /** The table whose statement failed. */
  table: string;
}

export interface RowWriter {
  /** Applies the batches in one transaction; throws (rolling back all of them) on the first failure. */
  applyGroup(batches: RowOp[][]): void;
  /** Applies one batch in its own transaction; a failure rolls back that batch only. */
  applyOne(batch: RowOp[]): void;
}

export function createRowWriter(db: Database.Database): RowWriter {
  interface TableStatements {
    insert: Database.Statement; rewrite: Database.Statement; upsert: Database.Statement; del: Database.Statement;
    /** Volatile tables: the rewrite of a row that changed hour or cell (its coarse columns too). */
    move?: Database.Statement;
    /** Versioned tables: the rewrite(s) and the full update, each only at the expected revision. */
    rewriteAt?: Database.Statement; moveAt?: Database.Statement; updateAt?: Database.Statement;
  }
  const statements = new Map<string, TableStatements>();
  const baseCols = ['project_id', 'live', 'id', 'created_at', 'updated_at', 'k0', 'k1', 'k2', 'k3', 'lng', 'lat', 'due_at', 'doc'];
  // COARSE_COLUMNS in coarse-index.ts; written out because this function travels as source.
  const coarseCols = ['updated_hour', 'lat_cell', 'lng_cell'];
  const forTable = (table: string, versioned: boolean, coarse: boolean): TableStatements => {
    // Keyed by all three: a delete does not say what its table keeps, and must not decide it for puts.
    const key = `${table}${versioned ? ' versioned' : ''}${coarse ? ' coarse' : ''}`;
    let s = statements.get(key);
    if (!s) {
      // A put is an insert (events, presence rows) or a rewrite of a row whose keys rarely change (a
      // user's track update moves its location and doc, not its ids). An upsert that sets every column
      // makes SQLite rewrite every index of the row; so a put first tries a plain insert, then an update
      // of only the columns that usually change, guarded by the others being equal, then the full upsert.
      // A volatile table indexes the hour and cells instead of updated_at and lat/lng: the rewrite's
      // guard holds them too, so a rewrite within an hour and a cell sets no indexed column at all
      // (SQLite updates an index whenever the SET names one of its columns, even to the same value).
      // A versioned table's inserts take the column's default revision (1) and every update adds 1.
      const cols = coarse ? [...baseCols, ...coarseCols] : baseCols;
      const values = cols.map(() => '?').join(', ');
      const bump = versioned ? ', rev = rev + 1' : '';
      const keyGuard = ['project_id = ?', 'live = ?', 'id = ?', 'created_at = ?', ...['k0', 'k1', 'k2', 'k3', 'due_at'].map((c) => `${c} IS ?`)];
      const coarseGuard = coarse ? coarseCols.map((c) => `${c} IS ?`) : [];
      const rewriteSql = `UPDATE ${table} SET updated_at = ?, lng = ?, lat = ?, doc = ?${bump} WHERE ${[...keyGuard, ...coarseGuard].join(' AND ')}`;
      // A volatile row entering another hour or cell: its coarse indexes change, the others still not.
      const moveSql = `UPDATE ${table} SET updated_at = ?, lng = ?, lat = ?, doc = ?, ${coarseCols.map((c) => `${c} = ?`).join(', ')}${bump} WHERE ${keyGuard.join(' AND ')}`;
      const setAll = cols.filter((c) => c !== 'project_id' && c !== 'live' && c !== 'id');
      s = {
        insert: db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${values}) ON CONFLICT (project_id, live, id) DO NOTHING`),
        rewrite: db.prepare(rewriteSql),
        upsert: db.prepare(
          `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${values})
           ON CONFLICT (project_id, live, id) DO UPDATE SET ${setAll.map((c) => `${c} = excluded.${c}`).join(', ')}${bump}`,
        ),
        del: db.prepare(`DELETE FROM ${table} WHERE project_id = ? AND live = ? AND id = ?`),
      };
      if (coarse) s.move = db.prepare(moveSql);
      if (versioned) {
        s.rewriteAt = db.prepare(`${rewriteSql} AND rev = ?`);
        if (coarse) s.moveAt = db.prepare(`${moveSql} AND rev = ?`);
        s.updateAt = db.prepare(
          `UPDATE ${table} SET ${setAll.map((c) => `${c} = ?`).join(', ')}, rev = rev + 1
           WHERE project_id = ? AND live = ? AND id = ? AND rev = ?`,
        );
      }
      statements.set(key, s);
    }
    return s;
  };
  /** The failure of a put whose expected revision is not the row's (see RevisionConflict). */
  const conflict = (id: string, expectRev: number): Error => {
    const err = new Error(expectRev === 0 ? `${id} exists already` : `${id} is no longer at revision ${expectRev}`) as Error & { code?: string };
    // REVISION_CONFLICT_CODE in revision-conflict.ts; written out because this function travels as source.
    err.code = 'WAYMARK_REVISION_CONFLICT';
    return err;
  };
  // The change log (change-log.ts) keeps a minute of rows, pruned every 10 s by whoever writes notes.
  // Readers poll several times a second; one that falls further behind notices the hole and starts over.
  const changeLogKeepMs = 60_000;
  const changeLogPruneMs = 10_000;
  let noteStatement: Database.Statement | undefined;
  let pruneStatement: Database.Statement | undefined;
  let prunedMs = 0;
  const note = (row: NoteRow): void => {
    noteStatement ??= db.prepare('INSERT INTO change_log (at, node, collection, project_id, live, ids) VALUES (?, ?, ?, ?, ?, ?)');
    noteStatement.run(...row);
    const now = Date.now();
    if (now - prunedMs < changeLogPruneMs) return;
    prunedMs = now;
    pruneStatement ??= db.prepare('DELETE FROM change_log WHERE at < ?');
    pruneStatement.run(now - changeLogKeepMs);
  };
  const apply = (batch: RowOp[]): void => {
    for (const op of batch) {
      if ('note' in op) {
        note(op.note);
        continue;
      }
      const table = 'put' in op ? op.put[0] : op.del[0];
      try {
        if ('del' in op) {
          // A delete touches no revision: the row is gone, and a later put expecting any revision fails.
          forTable(table, false, false).del.run(op.del[1], op.del[2], op.del[3]);
          continue;
        }
        const [, projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json, versioned, expectRev, coarse] = op.put;
        const s = forTable(table, versioned === 1, coarse !== null);
        const extra = coarse ?? [];
        // Every column in table order; the rewrite's new values; its guard (the columns that must be equal).
        const row = [projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json, ...extra];
        const changed = [updatedAt, lng, lat, json];
        const keyGuard = [projectId, live, id, createdAt, k0, k1, k2, k3, dueAt];
        if (expectRev === 0) {
          if (s.insert.run(...row).changes === 0) throw conflict(id, expectRev);
          continue;
        }
        if (expectRev !== null) {
          if (s.rewriteAt!.run(...changed, ...keyGuard, ...extra, expectRev).changes > 0) continue;
          if (s.moveAt && s.moveAt.run(...changed, ...extra, ...keyGuard, expectRev).changes > 0) continue;
          if (s.updateAt!.run(...row.slice(3), projectId, live, id, expectRev).changes > 0) continue;
          throw conflict(id, expectRev);
        }
        if (s.insert.run(...row).changes > 0) continue;
        if (s.rewrite.run(...changed, ...keyGuard, ...extra).changes > 0) continue;
        if (s.move && s.move.run(...changed, ...extra, ...keyGuard).changes > 0) continue;
        s.upsert.run(...row);
      } catch (err) {
        (err as { table?: string }).table = table;
        throw err;
      }
    }
  };
  // The batches of a group run without a savepoint each: a savepoint copies every page it touches to
  // a statement journal first. A failure rolls the whole group back and the caller retries batch by batch.
  const group = db.transaction((batches: RowOp[][]) => {
    for (const batch of batches) apply(batch);
  });
  const one = db.transaction((batch: RowOp[]) => apply(batch));
  return { applyGroup: (batches) => group(batches), applyOne: (batch) => one(batch) };
}
