// Store adapter on one SQLite file (better-sqlite3, WAL). The embedded default: one server process owns
// the file, so per-key locks are in-process; other processes (the CLI) may write beside it, and their
// changes reach it through the change log (change-log.ts). Each collection has its own table (collection-table.ts). Reads
// run on this thread's connection (better-sqlite3 is synchronous; the async port methods resolve with
// its results); writes are committed by a writer thread on a second connection (sqlite-writer.ts).
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { KeyedMutex } from '../keyed-mutex';
import { lngIntervals } from '../lng-intervals';
import { gridLayout, mergeGroups, type GridGroup } from '../grid-cells';
import type {
  ApiKeyRecord, BBox, Collection, CollectionSpec, Doc, DocBase, DueDoc, ListQuery, ListResult, ProjectRecord,
  ProjectRepository, RemoteChange, Scalar, Scope, Store, WriteOp, GridCount,
} from '../../../ports/store';
import { ChangeLogReader, changeNotes, newNodeId, noteProjectChange } from './change-log';
import { prefixEnd, REVISION_FIELD, withoutRevision } from '../../../ports/store';
import { MIGRATIONS } from './migrations';
import { indexedFields } from '../indexed-fields';
import { UniqueViolation } from '../unique-violation';
import { REVISION_CONFLICT_CODE, RevisionConflict } from '../revision-conflict';
import { sortedMatch } from '../sorted-index';
import { collectionTable, createIndexSql, isOwnIndex, tableName, type TableIndex } from '../collection-table';
import { cellOf, cellRows, COARSE_COLUMNS, COARSE_SQL, hourOf } from '../coarse-index';
import { assertWritableDirectory } from './writable-directory';
import { createRowWriter, type PutRow, type RowFailure, type RowOp, type RowWriter } from './row-writer';
import { SqliteWriter } from './sqlite-writer';

const KEY_COLUMNS = ['k0', 'k1', 'k2', 'k3'] as const;
// A batch is parsed whole before the caller sees it: 5,000 geofences (about 20 MB of strings and
// objects) outlived V8's young generation, and loading 100k left ~190 MB more RSS than 1,000 do.
const SCAN_BATCH = 1000;
/**
 * The page cache during a scan, KiB. A scan reads a whole collection once (an index load: 100k geofences
 * are ~230 MiB of pages), so its pages are of no later use, yet with the connection's cache they stayed
 * in it: 64 MiB of RSS after every start.
 */
const SCAN_CACHE_KIB = 2048;
const COLUMNS = 'project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc';
const WAL_AUTOCHECKPOINT_PAGES = 4_000;
/**
 * The checkpointer thread (sqlite-checkpointer.ts) starts once the WAL reaches 8 MiB, half of what the
 * writer lets it grow to (4,000 pages) before checkpointing itself; then it runs every second. Should it
 * fall behind, the writer checkpoints at 65,536 pages (256 MiB) of WAL.
 */
const CHECKPOINTER = { startAtWalBytes: 8 * 1024 * 1024, intervalMs: 1000, backstopPages: 65_536 };

interface DocRow {
  doc: string;
  /** Versioned collections only. */
  rev?: number;
}

/** A row as a document; a versioned collection's revision rides along as `_rev`. */
function docOf<T extends DocBase>(row: DocRow): T {
  // The collection's handle says what its documents are: the row holds what was put through it.
  const doc: T & { [REVISION_FIELD]?: number } = JSON.parse(row.doc);
  if (row.rev !== undefined) doc[REVISION_FIELD] = row.rev;
  return doc;
}

/** What a read selects besides its own columns: the document, and the revision when there is one. */
function docColumns(spec: CollectionSpec): string {
  return spec.versioned ? 'doc, rev' : 'doc';
}

export interface SqliteStoreOptions {
  /** Path of the database file; ':memory:' for throwaway stores. */
  file: string;
  /** FULL (default) survives an OS crash or power loss too; NORMAL a process crash only, and writes faster. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Page cache, MiB (default 64). */
  cacheMb?: number;
  /** Memory map, MiB (default 0: off). */
  mmapMb?: number;
  /** Commit on a writer thread (default true; ':memory:' always commits in this thread). */
  writerThread?: boolean;
  /** When the checkpointer thread starts and how often it runs (tests); false: the writer checkpoints. */
  checkpointer?: false | { startAtWalBytes: number; intervalMs: number };
  /** Failures in the background (a checkpointer thread that died and is started again, a failed poll). */
  onError?: (err: Error) => void;
  /** How often listeners of onRemoteChange() look for other processes' changes, ms (default 200). */
  changePollMs?: number;
}

const CHANGE_POLL_MS = 200;

/** WAYMARK_SQLITE_SYNC read: FULL unless NORMAL is asked for; anything else is a configuration mistake. */
export function sqliteSynchronous(raw: string | undefined): 'FULL' | 'NORMAL' {
  const value = (raw ?? '').trim().toUpperCase();
  if (value === '' || value === 'FULL') return 'FULL';
  if (value === 'NORMAL') return 'NORMAL';
  throw new Error(`WAYMARK_SQLITE_SYNC must be FULL or NORMAL, got "${raw}"`);
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly projects: ProjectRepository;
  readonly warnings: string[] = [];
  private readonly db: Database.Database;
  private readonly specs = new Map<string, CollectionSpec>();
  /** Statements by SQL text: list/within build their SQL from the query's shape, which repeats. */
  private readonly statements = new Map<string, Database.Statement>();
  private readonly locks = new KeyedMutex();
  /** Commits on the writer thread; absent for ':memory:' (which only this connection can see) or when asked. */
  private readonly writer: SqliteWriter | undefined;
  /** The in-thread writer of ':memory:' stores, group-committed per turn of the event loop. */
  private readonly rows: RowWriter | undefined;
  private readonly commitListeners: Array<(ops: readonly WriteOp[]) => void> = [];
  private pending: Array<{ batch: RowOp[]; ops: WriteOp[]; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;
  /** The operations behind each batch the writer thread commits, for the commit listeners. */
  private readonly opsOfBatch = new WeakMap<RowOp[], WriteOp[]>();
  /** This store's name in the change log. */
  private readonly node = newNodeId();
  private readonly remoteListeners: Array<(change: RemoteChange) => void> = [];
  private changes: ChangeLogReader | undefined;

  constructor(private readonly opts: SqliteStoreOptions) {
    if (opts.file !== ':memory:') assertWritableDirectory(path.dirname(opts.file));
    this.db = new Database(opts.file);
    this.db.pragma('journal_mode = WAL');
    // FULL (default) fsyncs the WAL at every commit, so an acknowledged write survives an OS crash or a
    // power loss, which is what the docs promise. NORMAL (WAYMARK_SQLITE_SYNC=NORMAL) survives a process
    // crash only: the last commits before a power loss can be lost. docs/architecture.md has the measured cost.
    const synchronous = opts.synchronous ?? 'FULL';
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // Documents are a few KiB each; SQLite's default 2 MiB page cache makes every lookup go to the OS.
    const cacheMb = opts.cacheMb !== undefined && Number.isSafeInteger(opts.cacheMb) && opts.cacheMb > 0 ? opts.cacheMb : 64;
    this.db.pragma(`cache_size = -${cacheMb * 1024}`);
    // Reads through a memory map skip a copy, but every page read stays in the process's RSS (file-backed,
    // reclaimable): loading 100k geofences mapped ~300 MiB of documents and the peak RSS of bench/track went
    // from 550 to 1,236 MiB with 256 MiB mapped, for no measurable gain in CPU per track. Off by default;
    // WAYMARK_SQLITE_MMAP_MB turns it on.
    this.db.pragma(`mmap_size = ${(opts.mmapMb ?? 0) * 1048576}`);
    this.migrate();
    if (opts.file === ':memory:' || opts.writerThread === false) {
      this.db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      this.rows = createRowWriter(this.db);
    } else {
      // Checkpoints belong to the writer thread: this connection's project and key writes are rare and
      // must not copy the WAL back on the event loop.
      this.db.pragma('wal_autocheckpoint = 0');
      this.writer = new SqliteWriter(
        {
          file: opts.file, synchronous, cacheMb, walAutocheckpointPages: WAL_AUTOCHECKPOINT_PAGES,
          checkpointer: opts.checkpointer === false ? undefined : { ...CHECKPOINTER, ...opts.checkpointer },
        },
        (batch) => this.committed(this.opsOfBatch.get(batch) ?? []),
        opts.onError,
      );
    }
    this.projects = new SqliteProjects(this.db, this.node);
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const applied = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      })();
    }
  }

  /**
   * Creates the collection's table and indexes (collection-table.ts) and moves in its documents from the
   * shared `docs` table of earlier versions, in one transaction: an interrupted upgrade leaves them where
   * they were and the next start moves them. Indexes of the table that the declaration no longer asks for
   * are dropped.
   */
  async define(handle: Collection<DocBase>): Promise<void> {
    const { name: collection, spec } = handle;
    const { table, indexes } = collectionTable(collection, spec);
    this.specs.set(collection, spec);
    this.db.transaction(() => {
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (
           project_id TEXT NOT NULL, live INTEGER NOT NULL, id TEXT NOT NULL,
           created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
           k0 TEXT, k1 TEXT, k2 TEXT, k3 TEXT, lng REAL, lat REAL, due_at TEXT, doc TEXT NOT NULL,
           ${spec.volatile ? 'updated_hour TEXT, lat_cell INTEGER, lng_cell INTEGER,' : ''}
           PRIMARY KEY (project_id, live, id))`,
      );
      const columns = new Set((this.db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>).map((c) => c.name));
      // A collection that became versioned gets its revision column here; existing rows start at 1.
      if (spec.versioned && !columns.has('rev')) this.db.exec(`ALTER TABLE ${table} ADD COLUMN rev INTEGER NOT NULL DEFAULT 1`);
      if (spec.volatile) {
        for (const column of COARSE_COLUMNS) {
          if (!columns.has(column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${column === 'updated_hour' ? 'TEXT' : 'INTEGER'}`);
        }
      }
      const legacy = this.db.prepare('SELECT 1 FROM docs WHERE collection = ? LIMIT 1').get(collection);
      if (legacy) {
        this.db.prepare(
          `INSERT INTO ${table} (${COLUMNS}) SELECT ${COLUMNS} FROM docs WHERE collection = ? ON CONFLICT (project_id, live, id) DO NOTHING`,
        ).run(collection);
        this.db.prepare('DELETE FROM docs WHERE collection = ?').run(collection);
      }
      // Rows moved in from `docs` have no coarse values yet.
      if (spec.volatile) this.fillCoarse(table, indexes, legacy !== undefined);
    })();
    for (const index of indexes) {
      try {
        this.db.exec(createIndexSql(table, index));
      } catch (err) {
        if (!index.unique) throw err;
        // Duplicates written before the rule existed: keep serving (the gateway's locks still prevent new
        // ones) and say so; `warnings` reaches the log at start-up.
        this.warnings.push(`${collection}.${index.field} is not enforced unique: existing duplicates (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    // Indexes an earlier declaration asked for and this one does not: each would still cost an entry per
    // write. Only ours (named after the table); a constraint's automatic index has no SQL and stays.
    const wanted = new Set(indexes.map((i) => i.name));
    const present = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as Array<{ name: string }>;
    for (const { name } of present) {
      if (isOwnIndex(table, name) && !wanted.has(name)) this.db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
    }
  }

  /**
   * A volatile table's coarse columns are right only while their indexes exist and nothing else wrote
   * the table: writes keep them while the collection is declared volatile, and define() drops their
   * indexes when it no longer is. An exact index beside them (updated_at, point) means that a version
   * that does not keep them (an older one, or this one with another declaration) ran since. In either
   * case every row's values are computed here and the indexes built, in the caller's transaction.
   */
  private fillCoarse(table: string, indexes: TableIndex[], force: boolean): void {
    const coarse = indexes.filter((i) => i.columns.some((c) => (COARSE_COLUMNS as readonly string[]).includes(c)));
    const present = new Set((this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").all(table) as Array<{ name: string }>).map((r) => r.name));
    const exact = [`${table}_updated_at`, `${table}_point`];
    if (!force && coarse.every((i) => present.has(i.name)) && !exact.some((name) => present.has(name))) return;
    this.db.exec(`UPDATE ${table} SET ${COARSE_COLUMNS.map((c) => `${c} = ${COARSE_SQL[c]}`).join(', ')}`);
    for (const index of coarse) this.db.exec(createIndexSql(table, index));
  }

  private statement(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.statements.size < 500) this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`collection ${collection} is not defined`);
    return spec;
  }

  /**
   * The rows of a write, prepared on this thread: an undefined collection fails here, alone. Writes of
   * broadcast collections end with their change-log rows, committed with them.
   */
  private rowsOf(ops: WriteOp[]): RowOp[] {
    const rows = this.docRowsOf(ops);
    for (const note of changeNotes(ops, (collection) => this.specs.get(collection), this.node, Date.now())) rows.push({ note });
    return rows;
  }

  private docRowsOf(ops: WriteOp[]): RowOp[] {
    return ops.map((op): RowOp => {
      const table = tableName(op.collection);
      const spec = this.spec(op.collection);
      const live = op.scope.live ? 1 : 0;
      if (op.op === 'delete') return { del: [table, op.scope.projectId, live, op.id] };
      const { keys, lng, lat, due } = indexedFields(spec, op.doc);
      const { doc } = op;
      if (op.expectRev !== undefined && !spec.versioned) throw new Error(`collection ${op.collection} is not versioned: a put cannot expect a revision`);
      // The revision lives in its column: a copy inside the JSON would be stale after the next put.
      const json = op.json ?? JSON.stringify(spec.versioned ? withoutRevision(doc) : doc);
      const coarse: PutRow[16] = spec.volatile
        ? [typeof doc.updatedAt === 'string' ? hourOf(doc.updatedAt) : null, lat === null ? null : cellOf(lat), lng === null ? null : cellOf(lng)]
        : null;
      return {
        put: [
          table, op.scope.projectId, live, doc._id, doc.createdAt, doc.updatedAt, keys[0], keys[1], keys[2], keys[3], lng, lat, due,
          json, spec.versioned ? 1 : 0, op.expectRev ?? null, coarse,
        ],
      };
    });
  }

  async get<T extends DocBase>(ref: Collection<T>, scope: Scope, id: string): Promise<T | undefined> {
    const collection = ref.name;
    const spec = this.spec(collection);
    const row = this.statement(`SELECT ${docColumns(spec)} FROM ${tableName(collection)} WHERE project_id = ? AND live = ? AND id = ?`).get(scope.projectId, scope.live ? 1 : 0, id) as DocRow | undefined;
    return row ? docOf<T>(row) : undefined;
  }

  async findOne<T extends DocBase>(ref: Collection<T>, scope: Scope, match: Record<string, Scalar>): Promise<T | undefined> {
    const { docs } = await this.list(ref, scope, { limit: 1, sortBy: 'updatedAt', equals: match });
    return docs[0];
  }

  async findRef(ref: Collection<DocBase>, scope: Scope, match: Record<string, Scalar>): Promise<{ id: string; rev: number | undefined } | undefined> {
    const collection = ref.name;
    const columns = this.spec(collection).versioned ? 'id, rev' : 'id';
    const { sql, args } = this.listSql(collection, scope, { limit: 1, sortBy: 'updatedAt', equals: match }, columns);
    const row = this.statement(sql).get(...args) as { id: string; rev?: number } | undefined;
    return row && { id: row.id, rev: row.rev };
  }

  /** WHERE clauses for equality and metadata filters; indexed keys use their column. */
  private filterSql(spec: CollectionSpec, query: Pick<ListQuery, 'equals' | 'metadata'>, where: string[], args: unknown[]): void {
    for (const [field, value] of Object.entries(query.equals ?? {})) {
      const index = spec.keys.indexOf(field);
      const column = index >= 0 ? KEY_COLUMNS[index] : `json_extract(doc, ${sqlString(`$."${field}"`)})`;
      const values = Array.isArray(value) ? value : [value];
      if (values.length === 0) {
        where.push('0');
        continue;
      }
      where.push(values.length === 1 ? `${column} = ?` : `${column} IN (${values.map(() => '?').join(',')})`);
      for (const v of values) args.push(index >= 0 ? String(v) : sqlValue(v));
    }
    // Metadata keys come from clients (metadata[key]=value) and may hold any character, so they travel as
    // parameters matched against json_each's keys rather than spliced into a JSON path.
    for (const [key, value] of Object.entries(query.metadata ?? {})) {
      const entry = "EXISTS (SELECT 1 FROM json_each(doc, '$.metadata') AS m WHERE m.key = ? AND";
      if (typeof value === 'boolean') {
        where.push(`${entry} m.type = ?)`);
        args.push(key, value ? 'true' : 'false');
      } else {
        where.push(`${entry} m.type IN (${typeof value === 'number' ? "'integer','real'" : "'text'"}) AND m.value = ?)`);
        args.push(key, value);
      }
    }
  }

  /** The SELECT behind list() (and findRef(), which selects other columns), shared with explainList(). */
  private listSql(collection: string, scope: Scope, query: ListQuery, columns?: string): { sql: string; args: unknown[] } {
    const spec = this.spec(collection);
    const inOrder = sortedMatch(spec, query);
    const where = ['project_id = ?', 'live = ?'];
    const args: unknown[] = [scope.projectId, scope.live ? 1 : 0];
    // A set of ids is read through the primary key: `+` keeps the date indexes from being chosen for a
    // range instead (walking every row of the range to find the few ids).
    const byIds = query.ids !== undefined;
    for (const range of query.ranges ?? []) {
      const column = `${byIds ? '+' : ''}${range.field === 'createdAt' ? 'created_at' : 'updated_at'}`;
      // A volatile collection's updatedAt is indexed by its hour: the hour's bound lets the index narrow.
      const hour = range.field === 'updatedAt' && spec.volatile && !byIds;
      if (range.before !== undefined) {
        where.push(`${column} < ?`);
        args.push(range.before);
        if (hour) {
          where.push('updated_hour <= ?');
          args.push(hourOf(range.before));
        }
      }
      if (range.after !== undefined) {
        where.push(`${column} > ?`);
        args.push(range.after);
        if (hour) {
          where.push('updated_hour >= ?');
          args.push(hourOf(range.after));
        }
      }
    }
    this.filterSql(spec, query, where, args);
    if (query.exceptIds !== undefined && query.exceptIds.length > 0) {
      // One parameter however many ids: one statement in the cache.
      where.push('id NOT IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(query.exceptIds));
    }
    if (query.ids !== undefined) {
      where.push('id IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(query.ids));
    }
    const sortColumn = query.sortBy === 'createdAt' ? 'created_at' : 'updated_at';
    const order = query.order === 'asc' ? 'ASC' : 'DESC';
    // Without statistics the planner likes walking the date index newest-first and filtering as it goes,
    // which reads the whole collection when the filter is a selective key (a userId, an externalId).
    // With an indexed key in the filter, `+column` keeps the date index out of the running so the key's
    // index is used and only its rows are sorted (measured: 9 µs instead of 500 µs per lookup among
    // 20,000 documents). A declared sorted index needs neither: it holds the keys and the order. The limit
    // is written into the SQL for the same reason: `LIMIT ?` hides it.
    const byKey = Object.keys(query.equals ?? {}).some((field) => spec.keys.includes(field) && !spec.unindexed?.includes(field));
    const limit = Math.max(0, Math.floor(query.limit)) + 1;
    const table = tableName(collection);
    const select = columns ?? docColumns(spec);
    // A set of ids is read through the primary key and sorted: no date index may walk the collection for it.
    if ((byKey && !inOrder) || byIds) {
      return { sql: `SELECT ${select} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY +${sortColumn} ${order}, id ${order} LIMIT ${limit}`, args };
    }
    if (sortColumn === 'updated_at' && spec.volatile) {
      // The hour index gives the hours in order; SQLite sorts each hour's rows it reads ("TEMP B-TREE FOR
      // RIGHT PART OF ORDER BY") and stops at the hour that fills the page. The sort holds rowids only:
      // sorting whole rows would read every document of the hour, not just the page's.
      const page = `SELECT rowid FROM ${table} WHERE ${where.join(' AND ')} ORDER BY updated_hour ${order}, updated_at ${order}, id ${order} LIMIT ${limit}`;
      return { sql: `SELECT ${select} FROM ${table} WHERE rowid IN (${page}) ORDER BY updated_at ${order}, id ${order}`, args };
    }
    return { sql: `SELECT ${select} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${sortColumn} ${order}, id ${order} LIMIT ${limit}`, args };
  }

  async list<T extends DocBase>(ref: Collection<T>, scope: Scope, query: ListQuery): Promise<ListResult<T>> {
    const collection = ref.name;
    const { sql, args } = this.listSql(collection, scope, query);
    const rows = this.statement(sql).all(...args) as DocRow[];
    const hasMore = rows.length > query.limit;
    return { docs: rows.slice(0, query.limit).map((row) => docOf<T>(row)), hasMore };
  }

  async count(ref: Collection<DocBase>, scope: Scope, query: ListQuery): Promise<number> {
    const collection = ref.name;
    const { sql, args } = this.listSql(collection, scope, query, 'id');
    const { n } = this.statement(`SELECT COUNT(*) AS n FROM (${sql})`).get(...args) as { n: number };
    return Math.min(n, Math.max(0, Math.floor(query.limit)));
  }

  async keyPrefix<T extends DocBase>(ref: Collection<T>, scope: Scope, key: string, prefix: string, limit: number): Promise<T[]> {
    const spec = this.spec(ref.name);
    const index = spec.keys.indexOf(key);
    if (index < 0 || spec.unindexed?.includes(key)) throw new Error(`keyPrefix(${ref.name}, ${key}): not an indexed key`);
    const column = KEY_COLUMNS[index];
    const rows = this.statement(`SELECT ${docColumns(spec)} FROM ${tableName(ref.name)} WHERE project_id = ? AND live = ? AND ${column} >= ? AND ${column} < ? ORDER BY ${column}, id LIMIT ${Math.max(0, Math.floor(limit))}`)
      .all(scope.projectId, scope.live ? 1 : 0, prefix, prefixEnd(prefix)) as DocRow[];
    return rows.map((row) => docOf<T>(row));
  }

  async distinctKeys(ref: Collection<DocBase>, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>, limit: number): Promise<string[]> {
    const { sql, args } = this.distinctKeysSql(ref.name, scope, key, equals, limit);
    return (this.statement(sql).all(...args) as Array<{ v: string }>).map((r) => r.v);
  }

  /** The SELECT behind distinctKeys(), shared with explainDistinctKeys(). */
  private distinctKeysSql(collection: string, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>, limit: number): { sql: string; args: unknown[] } {
    const spec = this.spec(collection);
    const index = spec.keys.indexOf(key);
    if (index < 0 || spec.unindexed?.includes(key)) throw new Error(`distinctKeys(${collection}, ${key}): not an indexed key`);
    const column = KEY_COLUMNS[index];
    // Without a filter the key's own index gives its values in order, each run of equal ones skipped, and
    // the read stops at the limit. With one, the filter's index narrows first (the planner, without
    // statistics, would otherwise walk the key's index over the whole table): `+` keeps the key's index
    // out, and only the matching rows are grouped.
    const own = Object.keys(equals).length > 0 ? `+${column}` : column;
    const where = ['project_id = ?', 'live = ?', `${own} IS NOT NULL`];
    const args: unknown[] = [scope.projectId, scope.live ? 1 : 0];
    this.filterSql(spec, { equals }, where, args);
    const group = own;
    return { sql: `SELECT ${column} AS v FROM ${tableName(collection)} WHERE ${where.join(' AND ')} GROUP BY ${group} ORDER BY ${group} LIMIT ${Math.max(0, Math.floor(limit))}`, args };
  }

  /** SQLite's plan for a distinctKeys() query, one step a line (tests, operators). */
  explainDistinctKeys(collection: string, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>): string {
    const { sql, args } = this.distinctKeysSql(collection, scope, key, equals, 10);
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join('\n');
  }

  /** SQLite's plan for a list() query, one step a line: for tests of a query's shape and for operators. */
  explainList(collection: string, scope: Scope, query: ListQuery): string {
    const { sql, args } = this.listSql(collection, scope, query);
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join('\n');
  }

  /** The SELECT behind within(), shared with explainWithin(). */
  private withinSql(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'>): { sql: string; args: unknown[] } {
    const spec = this.spec(collection);
    const { where, args } = this.withinWhere(spec, scope, box, query);
    return { sql: `SELECT ${docColumns(spec)} FROM ${tableName(collection)} WHERE ${where} LIMIT ${Math.max(0, Math.floor(limit))}`, args };
  }

  /** The conditions of within() (and countGrid()): the cells' index narrows, the exact columns decide. */
  private withinWhere(spec: CollectionSpec, scope: Scope, box: BBox, query: Pick<ListQuery, 'metadata' | 'equals'>): { where: string; args: unknown[] } {
    const lngs = lngIntervals(box);
    const where = ['project_id = ?', 'live = ?'];
    const args: unknown[] = [scope.projectId, scope.live ? 1 : 0];
    if (spec.volatile && lngs.length > 0) {
      // The cells the box touches, through their index (one range of longitude cells per listed row of
      // cells, or per longitude interval); the exact comparisons below decide.
      const rows = cellRows(box.minLat, box.maxLat);
      const latCells = rows ? `lat_cell IN (${rows.map(() => '?').join(', ')})` : 'lat_cell BETWEEN ? AND ?';
      where.push(`(${lngs.map(() => `(${latCells} AND lng_cell BETWEEN ? AND ?)`).join(' OR ')})`);
      for (const [west, east] of lngs) args.push(...(rows ?? [cellOf(box.minLat), cellOf(box.maxLat)]), cellOf(west), cellOf(east));
    }
    where.push('lat BETWEEN ? AND ?', lngs.length ? `(${lngs.map(() => 'lng BETWEEN ? AND ?').join(' OR ')})` : '0');
    args.push(box.minLat, box.maxLat, ...lngs.flat());
    this.filterSql(spec, query, where, args);
    return { where: where.join(' AND '), args };
  }

  async countGrid(ref: Collection<DocBase>, scope: Scope, box: BBox, columns: number, rows: number): Promise<GridCount[]> {
    const collection = ref.name;
    const layout = gridLayout(box, columns, rows);
    if (!layout) return [];
    const { where, args } = this.withinWhere(this.spec(collection), scope, box, {});
    const x = `(CASE WHEN lng < ? THEN lng + 360 ELSE lng END)`;
    const sql = `SELECT floor((${x} - ?) / ?) AS gx, floor((lat - ?) / ?) AS gy, COUNT(*) AS n, SUM(${x}) AS sx, SUM(lat) AS sy
      FROM ${tableName(collection)} WHERE ${where} GROUP BY gx, gy`;
    const groups = this.statement(sql).all(layout.west, layout.west, layout.width, layout.south, layout.height, layout.west, ...args) as GridGroup[];
    return mergeGroups(layout, groups);
  }

  async within<T extends DocBase>(ref: Collection<T>, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): Promise<T[]> {
    const collection = ref.name;
    const { sql, args } = this.withinSql(collection, scope, box, limit, query);
    return (this.statement(sql).all(...args) as DocRow[]).map((row) => docOf<T>(row));
  }

  /** SQLite's plan for a within() query, one step a line (tests, operators). */
  explainWithin(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): string {
    const { sql, args } = this.withinSql(collection, scope, box, limit, query);
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join('\n');
  }

  async scan<T extends DocBase>(ref: Collection<T>, scope: Scope, onBatch: (docs: T[]) => void): Promise<void> {
    const collection = ref.name;
    const spec = this.spec(collection);
    const stmt = this.statement(
      `SELECT id, ${docColumns(spec)} FROM ${tableName(collection)} WHERE project_id = ? AND live = ? AND id > ? ORDER BY id LIMIT ${SCAN_BATCH}`,
    );
    let after = '';
    for (;;) {
      const rows = this.withScanCache(() => stmt.all(scope.projectId, scope.live ? 1 : 0, after) as Array<DocRow & { id: string }>);
      if (rows.length === 0) return;
      onBatch(rows.map((row) => docOf<T>(row)));
      after = rows[rows.length - 1].id;
      // The event loop turns between batches: read in one piece, a 100,000-geofence index held it for
      // 2.2–2.8 CPU-s after a start, and every request arriving meanwhile waited (issue 33). Each batch
      // is its own query from the last id read, so no cursor is held open across the turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Runs one read of a scan with the connection's page cache shrunk, restored before anything else reads. */
  private withScanCache<R>(read: () => R): R {
    const cache = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma(`cache_size = -${SCAN_CACHE_KIB}`);
    try {
      return read();
    } finally {
      this.db.pragma(`cache_size = ${cache}`);
    }
  }

  async due<T extends DocBase>(ref: Collection<T>, at: string, limit: number): Promise<Array<DueDoc<T>>> {
    const collection = ref.name;
    const spec = this.spec(collection);
    const rows = this.statement(`SELECT project_id, live, ${docColumns(spec)} FROM ${tableName(collection)} WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ${Math.max(0, Math.floor(limit))}`)
      .all(at) as Array<DocRow & { project_id: string; live: number }>;
    return rows.map((r) => ({ scope: { projectId: r.project_id, live: r.live === 1 }, doc: docOf<T>(r) }));
  }

  /**
   * Applies a write atomically and answers once it is committed. Writes are group-committed: on a
   * file, by the writer thread (sqlite-writer.ts), which takes everything queued while its last
   * transaction ran; in memory, per turn of the event loop. Either way a failed group is retried
   * batch by batch, so one bad write never fails the others.
   */
  write(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    let batch: RowOp[];
    try {
      batch = this.rowsOf(ops);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.writer) {
      this.opsOfBatch.set(batch, ops);
      return this.writer.submit(batch).catch((failure: RowFailure) => {
        throw storeError(failure);
      });
    }
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ batch, ops, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flushInThread());
      }
    });
  }

  private flushInThread(): void {
    this.flushScheduled = false;
    const group = this.pending;
    this.pending = [];
    const rows = this.rows!;
    try {
      rows.applyGroup(group.map((g) => g.batch));
      for (const g of group) this.committed(g.ops);
      for (const g of group) g.resolve();
      return;
    } catch (err) {
      if (group.length === 1) {
        group[0].reject(storeError(err));
        return;
      }
    }
    for (const g of group) {
      try {
        rows.applyOne(g.batch);
        this.committed(g.ops);
        g.resolve();
      } catch (err) {
        g.reject(storeError(err));
      }
    }
  }

  onCommit(listener: (ops: readonly WriteOp[]) => void): void {
    this.commitListeners.push(listener);
  }

  private committed(ops: readonly WriteOp[]): void {
    for (const listener of this.commitListeners) {
      try {
        listener(ops);
      } catch {
        // A listener's failure must not turn a committed write into a reported failure.
      }
    }
  }

  /**
   * Other processes' changes (the CLI's imports, key rotations) from the change log, polled every
   * `changePollMs` once anyone listens. ':memory:' has no other process.
   */
  onRemoteChange(listener: (change: RemoteChange) => void): void {
    this.remoteListeners.push(listener);
    if (this.changes || this.opts.file === ':memory:') return;
    this.changes = new ChangeLogReader(this.db, this.node, (change) => {
      for (const l of this.remoteListeners) {
        try {
          l(change);
        } catch (err) {
          this.opts.onError?.(err as Error);
        }
      }
    }, this.opts.changePollMs ?? CHANGE_POLL_MS, (err) => this.opts.onError?.(err));
  }

  /** Looks for other processes' changes now instead of at the next poll (tests). */
  pollChanges(): void {
    this.changes?.poll();
  }

  withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(key, fn);
  }

  async scopes(ref: Collection<DocBase>): Promise<Scope[]> {
    const collection = ref.name;
    this.spec(collection);
    const rows = this.statement(`SELECT DISTINCT project_id, live FROM ${tableName(collection)}`).all() as Array<{ project_id: string; live: number }>;
    return rows.map((r) => ({ projectId: r.project_id, live: r.live === 1 }));
  }

  async close(): Promise<void> {
    this.changes?.close();
    if (this.pending.length > 0) this.flushInThread();
    await this.writer?.close();
    this.db.close();
  }
}

/** A failed write as callers know it: a declared unique key taken is a UniqueViolation. */
function storeError(failure: unknown): Error {
  const { code, message, table } = failure as Partial<RowFailure>;
  if (code === REVISION_CONFLICT_CODE) return new RevisionConflict(String(table ?? '').replace(/^coll_/, ''), String(message));
  // The primary key is handled by the upsert, so a unique failure is a declared unique key.
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return new UniqueViolation(String(table ?? '').replace(/^coll_/, ''), String(message));
  if (failure instanceof Error) return failure;
  const err = new Error(String(message)) as Error & { code?: string };
  err.code = code;
  return err;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** json_extract yields 1/0 for JSON booleans. */
function sqlValue(v: Scalar): string | number {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

class SqliteProjects implements ProjectRepository {
  constructor(
    private readonly db: Database.Database,
    /** The store's name in the change log: key and settings changes are announced to other processes. */
    private readonly node: string,
  ) {}

  async create(project: ProjectRecord, keys: ApiKeyRecord[]): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO projects (id, name, created_at, settings) VALUES (?, ?, ?, ?)')
        .run(project._id, project.name, project.createdAt, JSON.stringify(project.settings));
      this.insertKeys(keys);
    })();
  }

  private insertKeys(keys: ApiKeyRecord[]): void {
    const stmt = this.db.prepare('INSERT INTO api_keys (hash, project_id, live, kind, display, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const k of keys) stmt.run(k.hash, k.projectId, k.live ? 1 : 0, k.kind, k.display, k.createdAt);
  }

  async list(): Promise<ProjectRecord[]> {
    const rows = this.db.prepare('SELECT * FROM projects ORDER BY created_at, id').all() as ProjectRow[];
    return rows.map(projectFromRow);
  }

  async get(id: string): Promise<ProjectRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined;
    return row ? projectFromRow(row) : undefined;
  }

  async keys(projectId: string): Promise<ApiKeyRecord[]> {
    const rows = this.db.prepare('SELECT * FROM api_keys WHERE project_id = ? ORDER BY kind, live').all(projectId) as KeyRow[];
    return rows.map(keyFromRow);
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
    return row ? keyFromRow(row) : undefined;
  }

  async replaceKeys(projectId: string, keys: ApiKeyRecord[]): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM api_keys WHERE project_id = ?').run(projectId);
      this.insertKeys(keys);
      noteProjectChange(this.db, this.node, projectId);
    })();
  }

  async updateSettings(projectId: string, settings: Record<string, unknown>): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('UPDATE projects SET settings = ? WHERE id = ?').run(JSON.stringify(settings), projectId);
      noteProjectChange(this.db, this.node, projectId);
    })();
  }
}

interface ProjectRow {
  id: string;
  name: string;
  created_at: string;
  settings: string;
}

interface KeyRow {
  hash: string;
  project_id: string;
  live: number;
  kind: 'publishable' | 'secret';
  display: string;
  created_at: string;
}

function projectFromRow(r: ProjectRow): ProjectRecord {
  return { _id: r.id, name: r.name, createdAt: r.created_at, settings: JSON.parse(r.settings) as Record<string, unknown> };
}

function keyFromRow(r: KeyRow): ApiKeyRecord {
  return { hash: r.hash, projectId: r.project_id, live: r.live === 1, kind: r.kind, display: r.display, createdAt: r.created_at };
}
