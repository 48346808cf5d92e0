// Store adapter on one SQLite file (better-sqlite3, WAL). The embedded default: one process owns the
// file, so per-key locks are in-process. better-sqlite3 is synchronous; the async port methods simply
// resolve with its results, and write() runs one real transaction.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { KeyedMutex } from '../keyed-mutex';
import { lngIntervals } from '../lng-intervals';
import type {
  ApiKeyRecord, BBox, CollectionSpec, Doc, DueDoc, ListQuery, ListResult, ProjectRecord,
  ProjectRepository, Scalar, Scope, Store, WriteOp,
} from '../port';
import { MIGRATIONS } from './migrations';
import { indexedFields } from '../indexed-fields';
import { UniqueViolation, uniqueIndexParts } from '../unique-violation';
import { sortedIndexes, sortedMatch } from '../sorted-index';

const KEY_COLUMNS = ['k0', 'k1', 'k2', 'k3'] as const;
// A batch is parsed whole before the caller sees it: 5,000 geofences (about 20 MB of strings and
// objects) outlived V8's young generation, and loading 100k left ~190 MB more RSS than 1,000 do.
const SCAN_BATCH = 1000;
const WAL_AUTOCHECKPOINT_PAGES = 4_000;

interface DocRow {
  doc: string;
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
}

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
  private readonly putStmt: Database.Statement;
  private readonly insertStmt: Database.Statement;
  private readonly rewriteStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly getStmt: Database.Statement;
  private readonly writeMany: (ops: WriteOp[]) => void;
  private readonly writeGroup: (batches: WriteOp[][]) => void;
  private readonly commitListeners: Array<(ops: readonly WriteOp[]) => void> = [];
  private pending: Array<{ ops: WriteOp[]; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;

  constructor(opts: SqliteStoreOptions) {
    if (opts.file !== ':memory:') fs.mkdirSync(path.dirname(opts.file), { recursive: true });
    this.db = new Database(opts.file);
    this.db.pragma('journal_mode = WAL');
    // FULL (default) fsyncs the WAL at every commit, so an acknowledged write survives an OS crash or a
    // power loss, which is what the docs promise. NORMAL (WAYMARK_SQLITE_SYNC=NORMAL) survives a process
    // crash only: the last commits before a power loss can be lost. docs/architecture.md has the measured cost.
    this.db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
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
    // Every track update dirties a user row, event rows and a dozen index pages; with the default
    // checkpoint every 1,000 WAL pages a checkpoint (and its fsync) ran every few group commits and
    // copied the same hot pages again each time. 4,000 pages (~16 MiB of WAL) lets them coalesce; at
    // 10,000 throughput was no better and each (synchronous) checkpoint stalled requests long enough to
    // raise the track p99 by half.
    this.db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    this.migrate();
    // A put is an insert (events, presence rows) or a rewrite of a row whose keys rarely change (a user's
    // track update moves its location and doc, not its ids). An upsert that sets every column makes
    // SQLite rewrite every index of the row; so a put first tries a plain insert, then an update of only
    // the columns that usually change, guarded by the others being equal, and only then the full upsert.
    this.insertStmt = this.db.prepare(
      `INSERT INTO docs (collection, project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (collection, project_id, live, id) DO NOTHING`,
    );
    this.rewriteStmt = this.db.prepare(
      `UPDATE docs SET updated_at = ?, lng = ?, lat = ?, doc = ?
       WHERE collection = ? AND project_id = ? AND live = ? AND id = ?
         AND created_at = ? AND k0 IS ? AND k1 IS ? AND k2 IS ? AND k3 IS ? AND due_at IS ?`,
    );
    this.putStmt = this.db.prepare(
      `INSERT INTO docs (collection, project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (collection, project_id, live, id) DO UPDATE SET
         created_at = excluded.created_at, updated_at = excluded.updated_at, k0 = excluded.k0, k1 = excluded.k1,
         k2 = excluded.k2, k3 = excluded.k3, lng = excluded.lng, lat = excluded.lat, due_at = excluded.due_at,
         doc = excluded.doc`,
    );
    this.deleteStmt = this.db.prepare('DELETE FROM docs WHERE collection = ? AND project_id = ? AND live = ? AND id = ?');
    this.getStmt = this.db.prepare('SELECT doc FROM docs WHERE collection = ? AND project_id = ? AND live = ? AND id = ?');
    this.writeMany = this.db.transaction((ops: WriteOp[]) => this.applyNow(ops));
    // The batches of a group run without a savepoint each: a savepoint copies every page it touches to
    // a statement journal first. A failure rolls the whole group back and flush() retries batch by batch.
    this.writeGroup = this.db.transaction((batches: WriteOp[][]) => {
      for (const ops of batches) this.applyNow(ops);
    });
    this.projects = new SqliteProjects(this.db);
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

  async define(collection: string, spec: CollectionSpec): Promise<void> {
    if (spec.keys.length > KEY_COLUMNS.length) throw new Error(`collection ${collection}: at most ${KEY_COLUMNS.length} keys`);
    this.specs.set(collection, spec);
    for (const rule of spec.unique ?? []) {
      const { name, column, where } = uniqueIndexParts(collection, spec.keys, rule);
      try {
        this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON docs (project_id, live, ${column}) WHERE ${where}`);
      } catch (err) {
        // Duplicates written before the rule existed: keep serving (the gateway's locks still prevent new
        // ones) and say so; `warnings` reaches the log at start-up.
        this.warnings.push(`${collection}.${rule.key} is not enforced unique: existing duplicates (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    for (const { name, columns } of sortedIndexes(collection, spec)) {
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON docs (project_id, live, ${columns.join(', ')}, created_at, id) WHERE collection = ${sqlString(collection)}`);
    }
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

  private applyNow(ops: WriteOp[]): void {
    for (const op of ops) {
      if (op.op === 'put') {
        try {
          this.putNow(op.collection, op.scope, op.doc);
        } catch (err) {
          // The primary key is handled by the upsert, so a unique failure is a declared unique key.
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UniqueViolation(op.collection, (err as Error).message);
          throw err;
        }
      } else this.deleteStmt.run(op.collection, op.scope.projectId, op.scope.live ? 1 : 0, op.id);
    }
  }

  private putNow(collection: string, scope: Scope, doc: Doc): void {
    const { keys, lng, lat, due: dueAt } = indexedFields(this.spec(collection), doc);
    const live = scope.live ? 1 : 0;
    const json = JSON.stringify(doc);
    const inserted = this.insertStmt.run(
      collection, scope.projectId, live, doc._id, doc.createdAt, doc.updatedAt,
      keys[0], keys[1], keys[2], keys[3], lng, lat, dueAt, json,
    );
    if (inserted.changes > 0) return;
    const rewritten = this.rewriteStmt.run(
      doc.updatedAt, lng, lat, json, collection, scope.projectId, live, doc._id,
      doc.createdAt, keys[0], keys[1], keys[2], keys[3], dueAt,
    );
    if (rewritten.changes > 0) return;
    this.putStmt.run(
      collection, scope.projectId, live, doc._id, doc.createdAt, doc.updatedAt,
      keys[0], keys[1], keys[2], keys[3], lng, lat, dueAt, json,
    );
  }

  async get(collection: string, scope: Scope, id: string): Promise<Doc | undefined> {
    const row = this.getStmt.get(collection, scope.projectId, scope.live ? 1 : 0, id) as DocRow | undefined;
    return row ? (JSON.parse(row.doc) as Doc) : undefined;
  }

  async findOne(collection: string, scope: Scope, match: Record<string, Scalar>): Promise<Doc | undefined> {
    const { docs } = await this.list(collection, scope, { limit: 1, sortBy: 'updatedAt', equals: match });
    return docs[0];
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

  /** The SELECT behind list(), shared with explainList(). */
  private listSql(collection: string, scope: Scope, query: ListQuery): { sql: string; args: unknown[] } {
    const spec = this.spec(collection);
    const inOrder = sortedMatch(spec, query);
    // A sorted index is partial (WHERE collection = '…'): SQLite only uses it when the query names the
    // collection as a literal, not a bound parameter. Collection names are our own identifiers.
    const where = [inOrder ? `collection = ${sqlString(collection)}` : 'collection = ?', 'project_id = ?', 'live = ?'];
    const args: unknown[] = inOrder ? [scope.projectId, scope.live ? 1 : 0] : [collection, scope.projectId, scope.live ? 1 : 0];
    for (const range of query.ranges ?? []) {
      const column = range.field === 'createdAt' ? 'created_at' : 'updated_at';
      if (range.before !== undefined) {
        where.push(`${column} < ?`);
        args.push(range.before);
      }
      if (range.after !== undefined) {
        where.push(`${column} > ?`);
        args.push(range.after);
      }
    }
    this.filterSql(spec, query, where, args);
    const sortColumn = query.sortBy === 'createdAt' ? 'created_at' : 'updated_at';
    const order = query.order === 'asc' ? 'ASC' : 'DESC';
    // Without statistics the planner likes walking the date index newest-first and filtering as it goes,
    // which reads the whole collection when the filter is a selective key (a userId, an externalId).
    // With an indexed key in the filter, `+column` keeps the date index out of the running so the key's
    // index is used and only its rows are sorted (measured: 9 µs instead of 500 µs per lookup among
    // 20,000 documents). A declared sorted index needs neither: it holds the keys and the order. The limit
    // is written into the SQL for the same reason: `LIMIT ?` hides it.
    const byKey = Object.keys(query.equals ?? {}).some((field) => spec.keys.includes(field));
    const sortExpr = byKey && !inOrder ? `+${sortColumn}` : sortColumn;
    const limit = Math.max(0, Math.floor(query.limit)) + 1;
    return { sql: `SELECT doc FROM docs WHERE ${where.join(' AND ')} ORDER BY ${sortExpr} ${order}, id ${order} LIMIT ${limit}`, args };
  }

  async list(collection: string, scope: Scope, query: ListQuery): Promise<ListResult> {
    const { sql, args } = this.listSql(collection, scope, query);
    const rows = this.statement(sql).all(...args) as DocRow[];
    const hasMore = rows.length > query.limit;
    return { docs: rows.slice(0, query.limit).map((r) => JSON.parse(r.doc) as Doc), hasMore };
  }

  /** SQLite's plan for a list() query, one step a line: for tests of a query's shape and for operators. */
  explainList(collection: string, scope: Scope, query: ListQuery): string {
    const { sql, args } = this.listSql(collection, scope, query);
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join('\n');
  }

  async within(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): Promise<Doc[]> {
    const spec = this.spec(collection);
    const lngs = lngIntervals(box);
    const where = ['collection = ?', 'project_id = ?', 'live = ?', 'lat BETWEEN ? AND ?', lngs.length ? `(${lngs.map(() => 'lng BETWEEN ? AND ?').join(' OR ')})` : '0'];
    const args: unknown[] = [collection, scope.projectId, scope.live ? 1 : 0, box.minLat, box.maxLat, ...lngs.flat()];
    this.filterSql(spec, query, where, args);
    const rows = this.statement(`SELECT doc FROM docs WHERE ${where.join(' AND ')} LIMIT ${Math.max(0, Math.floor(limit))}`).all(...args) as DocRow[];
    return rows.map((r) => JSON.parse(r.doc) as Doc);
  }

  async scan(collection: string, scope: Scope, onBatch: (docs: Doc[]) => void): Promise<void> {
    const stmt = this.db.prepare(
      `SELECT id, doc FROM docs WHERE collection = ? AND project_id = ? AND live = ? AND id > ? ORDER BY id LIMIT ${SCAN_BATCH}`,
    );
    let after = '';
    for (;;) {
      const rows = stmt.all(collection, scope.projectId, scope.live ? 1 : 0, after) as Array<{ id: string; doc: string }>;
      if (rows.length === 0) return;
      onBatch(rows.map((r) => JSON.parse(r.doc) as Doc));
      after = rows[rows.length - 1].id;
    }
  }

  async due(collection: string, at: string, limit: number): Promise<DueDoc[]> {
    const rows = this.db
      .prepare(`SELECT project_id, live, doc FROM docs WHERE collection = ? AND due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ${Math.max(0, Math.floor(limit))}`)
      .all(collection, at) as Array<{ project_id: string; live: number; doc: string }>;
    return rows.map((r) => ({ scope: { projectId: r.project_id, live: r.live === 1 }, doc: JSON.parse(r.doc) as Doc }));
  }

  /**
   * Group commit: writes issued in the same turn of the event loop (concurrent track updates of
   * different users) share one transaction, so one WAL append and sync serves them all. Each caller is
   * answered only after the commit that holds its operations. If the shared transaction fails, every
   * batch is retried alone so one bad batch cannot fail the others.
   */
  write(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ ops, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const group = this.pending;
    this.pending = [];
    try {
      this.writeGroup(group.map((g) => g.ops));
      for (const g of group) this.committed(g.ops);
      for (const g of group) g.resolve();
      return;
    } catch (err) {
      if (group.length === 1) {
        group[0].reject(err);
        return;
      }
    }
    for (const g of group) {
      try {
        this.writeMany(g.ops);
        this.committed(g.ops);
        g.resolve();
      } catch (err) {
        g.reject(err);
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
   * A SQLite file is served by one process. Other processes writing it (the CLI beside a running server)
   * are not announced: the server sees their key and settings changes when its caches expire (30 s).
   */
  onRemoteChange(): void {
    // Nothing to listen to.
  }

  withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(key, fn);
  }

  async scopes(collection: string): Promise<Scope[]> {
    const rows = this.db.prepare('SELECT DISTINCT project_id, live FROM docs WHERE collection = ?').all(collection) as Array<{ project_id: string; live: number }>;
    return rows.map((r) => ({ projectId: r.project_id, live: r.live === 1 }));
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    this.db.close();
  }
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** json_extract yields 1/0 for JSON booleans. */
function sqlValue(v: Scalar): string | number {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

class SqliteProjects implements ProjectRepository {
  constructor(private readonly db: Database.Database) {}

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
    })();
  }

  async updateSettings(projectId: string, settings: Record<string, unknown>): Promise<void> {
    this.db.prepare('UPDATE projects SET settings = ? WHERE id = ?').run(JSON.stringify(settings), projectId);
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
