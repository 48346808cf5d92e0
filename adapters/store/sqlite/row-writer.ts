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
];

export type DeleteRow = [table: string, projectId: string, live: 0 | 1, id: string];

export type RowOp = { put: PutRow } | { del: DeleteRow };

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
    /** Versioned tables: the rewrite and the full update, each only at the expected revision. */
    rewriteAt?: Database.Statement; updateAt?: Database.Statement;
  }
  const statements = new Map<string, TableStatements>();
  const cols = 'project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc';
  const forTable = (table: string, versioned: boolean): TableStatements => {
    // Keyed by both: a delete does not say whether its table is versioned, and must not decide it for puts.
    const key = versioned ? `${table} versioned` : table;
    let s = statements.get(key);
    if (!s) {
      // A put is an insert (events, presence rows) or a rewrite of a row whose keys rarely change (a
      // user's track update moves its location and doc, not its ids). An upsert that sets every column
      // makes SQLite rewrite every index of the row; so a put first tries a plain insert, then an update
      // of only the columns that usually change, guarded by the others being equal, then the full upsert.
      // A versioned table's inserts take the column's default revision (1) and every update adds 1.
      const bump = versioned ? ', rev = rev + 1' : '';
      const rewriteSql = `UPDATE ${table} SET updated_at = ?, lng = ?, lat = ?, doc = ?${bump}
           WHERE project_id = ? AND live = ? AND id = ? AND created_at = ? AND k0 IS ? AND k1 IS ? AND k2 IS ? AND k3 IS ? AND due_at IS ?`;
      s = {
        insert: db.prepare(`INSERT INTO ${table} (${cols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, live, id) DO NOTHING`),
        rewrite: db.prepare(rewriteSql),
        upsert: db.prepare(
          `INSERT INTO ${table} (${cols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (project_id, live, id) DO UPDATE SET
             created_at = excluded.created_at, updated_at = excluded.updated_at, k0 = excluded.k0, k1 = excluded.k1,
             k2 = excluded.k2, k3 = excluded.k3, lng = excluded.lng, lat = excluded.lat, due_at = excluded.due_at, doc = excluded.doc${bump}`,
        ),
        del: db.prepare(`DELETE FROM ${table} WHERE project_id = ? AND live = ? AND id = ?`),
      };
      if (versioned) {
        s.rewriteAt = db.prepare(`${rewriteSql} AND rev = ?`);
        s.updateAt = db.prepare(
          `UPDATE ${table} SET created_at = ?, updated_at = ?, k0 = ?, k1 = ?, k2 = ?, k3 = ?, lng = ?, lat = ?, due_at = ?, doc = ?, rev = rev + 1
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
  const apply = (batch: RowOp[]): void => {
    for (const op of batch) {
      const table = 'put' in op ? op.put[0] : op.del[0];
      try {
        if ('del' in op) {
          // A delete touches no revision: the row is gone, and a later put expecting any revision fails.
          forTable(table, false).del.run(op.del[1], op.del[2], op.del[3]);
          continue;
        }
        const [, projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json, versioned, expectRev] = op.put;
        const s = forTable(table, versioned === 1);
        if (expectRev === 0) {
          if (s.insert.run(projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json).changes === 0) throw conflict(id, expectRev);
          continue;
        }
        if (expectRev !== null) {
          if (s.rewriteAt!.run(updatedAt, lng, lat, json, projectId, live, id, createdAt, k0, k1, k2, k3, dueAt, expectRev).changes > 0) continue;
          if (s.updateAt!.run(createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json, projectId, live, id, expectRev).changes > 0) continue;
          throw conflict(id, expectRev);
        }
        if (s.insert.run(projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json).changes > 0) continue;
        if (s.rewrite.run(updatedAt, lng, lat, json, projectId, live, id, createdAt, k0, k1, k2, k3, dueAt).changes > 0) continue;
        s.upsert.run(projectId, live, id, createdAt, updatedAt, k0, k1, k2, k3, lng, lat, dueAt, json);
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
