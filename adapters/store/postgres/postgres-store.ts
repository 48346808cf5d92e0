// Store adapter on PostgreSQL, for many gateway nodes sharing one database. Same tables, orderings and
// filter semantics as the SQLite store; documents are jsonb. within() uses a PostGIS GiST index when the
// extension is available and a lat/lng btree otherwise (`spatial` says which). withLock() serialises across
// processes with session advisory locks, all held on one dedicated connection and taken by polling
// (advisory-session.ts), so that sections waiting for or holding locks never take a pool connection.
// Writes of broadcast collections and project changes carry a pg_notify in their transaction; other
// nodes hear them through one listening connection (change-channel.ts, onRemoteChange).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { AdvisorySession } from './advisory-session';
import { KeyedMutex } from '../keyed-mutex';
import { lngIntervals } from '../lng-intervals';
import type {
  BBox, CollectionSpec, Doc, DueDoc, ListQuery, ListResult, ProjectRepository, RemoteChange, Scalar, Scope, Store, WriteOp,
} from '../port';
import { advisoryKey } from './advisory-key';
import { describeDatabaseUrl, errorText } from './connection';
import { indexedFields } from '../indexed-fields';
import { filterSql, KEY_COLUMNS, SqlParams } from './doc-filters';
import { checkSchemaName, quoteIdent } from './identifiers';
import { migrate, MIGRATE_LOCK, type MigrationOutcome, type SpatialMode } from './migrate';
import { UniqueViolation, uniqueIndexParts } from '../unique-violation';
import { sortedIndexes, sortedMatch } from '../sorted-index';
import { PostgresProjects } from './postgres-projects';
import { inTransaction } from './transaction';
import { CHANGE_CHANNEL, ChangeChannel, noticePayload } from './change-channel';

// A batch is parsed whole before the caller sees it: 5,000 geofences (about 20 MB of strings and
// objects) outlived V8's young generation, and loading 100k left ~190 MB more RSS than 1,000 do.
const SCAN_BATCH = 1000;

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  connectionString: string;
  /** Schema holding Waymark's tables, created if missing. Default "waymark". */
  schema?: string;
  /** 'auto' (default) uses PostGIS when available; 'btree' forces the lat/lng index. */
  spatial?: 'auto' | 'btree';
  /** Connections for queries and writes. Default 10. */
  poolSize?: number;
  /** Ignored: withLock() holds every advisory lock on one dedicated connection. Kept for old callers. */
  lockPoolSize?: number;
  /** How long withLock() waits for a lock held elsewhere before failing with LockWaitTimeout. Default 30 s. */
  lockTimeoutMs?: number;
  /** Errors of idle pooled connections (server restart, network); the pool replaces them. */
  onError?: (err: Error) => void;
}

interface DocRow {
  doc: Doc;
}

/** One row of the docs table, in column order. */
type DocColumns = [string, string, boolean, string, string, string, ...Array<string | null>, number | null, number | null, string | null, string];

const DOC_COLUMNS = 'collection, project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc';
const DOC_COLUMN_TYPES = ['text', 'text', 'boolean', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'text', 'jsonb'];
const ON_CONFLICT = `ON CONFLICT (collection, project_id, live, id) DO UPDATE SET
  created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, k0 = EXCLUDED.k0, k1 = EXCLUDED.k1,
  k2 = EXCLUDED.k2, k3 = EXCLUDED.k3, lng = EXCLUDED.lng, lat = EXCLUDED.lat, due_at = EXCLUDED.due_at, doc = EXCLUDED.doc`;

export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly projects: ProjectRepository;
  /** Which index answers within(). */
  readonly spatial: SpatialMode;
  /** Why PostGIS is not in use, when it is not. */
  readonly spatialReason?: string;
  readonly schema: string;
  readonly warnings: string[] = [];
  /** Unique index name → its collection, to name the collection in a UniqueViolation. */
  private readonly uniqueIndexes = new Map<string, string>();
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly commitListeners: Array<(ops: readonly WriteOp[]) => void> = [];
  private readonly remoteListeners: Array<(change: RemoteChange) => void> = [];
  /** This process in change notices, so that it ignores its own. */
  private readonly node = randomBytes(8).toString('hex');
  private changes?: ChangeChannel;
  private readonly locks = new KeyedMutex();
  private readonly docs: string;
  private readonly postgis?: string;
  private readonly sql: { get: string; put: string; putMany: string; delete: string };

  private constructor(
    private readonly pool: Pool,
    private readonly lockSession: AdvisorySession,
    schema: string,
    migration: MigrationOutcome,
    private readonly opts: PostgresStoreOptions,
  ) {
    this.schema = schema;
    const s = quoteIdent(schema);
    this.docs = `${s}.docs`;
    this.spatial = migration.spatial;
    this.spatialReason = migration.spatialReason;
    this.postgis = migration.postgisSchema === undefined ? undefined : quoteIdent(migration.postgisSchema);
    const placeholders = DOC_COLUMN_TYPES.map((_, i) => `$${i + 1}`).join(', ');
    const arrays = DOC_COLUMN_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    this.sql = {
      get: `SELECT doc FROM ${this.docs} WHERE collection = $1 AND project_id = $2 AND live = $3 AND id = $4`,
      put: `INSERT INTO ${this.docs} (${DOC_COLUMNS}) VALUES (${placeholders}) ${ON_CONFLICT}`,
      putMany: `INSERT INTO ${this.docs} (${DOC_COLUMNS}) SELECT * FROM unnest(${arrays}) ${ON_CONFLICT}`,
      delete: `DELETE FROM ${this.docs} WHERE collection = $1 AND project_id = $2 AND live = $3 AND id = $4`,
    };
    this.projects = new PostgresProjects(pool, s, (projectId) => noticePayload(schema, this.node, 'projects', { projectId }));
  }

  /** Connects, migrates the schema and returns a ready store; fails with a clear message when it cannot. */
  static async open(opts: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = checkSchemaName(opts.schema ?? 'waymark');
    const where = describeDatabaseUrl(opts.connectionString);
    const onError = opts.onError ?? (() => undefined);
    const pool = new pg.Pool({
      connectionString: opts.connectionString, max: opts.poolSize ?? 10, connectionTimeoutMillis: 10_000,
      application_name: 'waymark',
    });
    const lockSession = new AdvisorySession({ connectionString: opts.connectionString, timeoutMs: opts.lockTimeoutMs ?? 30_000, onError });
    pool.on('error', onError);
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      await pool.end();
      throw new Error(`PostgreSQL at ${where} is unreachable: ${errorText(err)}`);
    }
    try {
      const migration = await migrate(client, { schema, spatial: opts.spatial ?? 'auto' });
      client.release();
      return new PostgresStore(pool, lockSession, schema, migration, opts);
    } catch (err) {
      client.release(err as Error);
      await pool.end();
      throw new Error(`PostgreSQL at ${where}: cannot prepare schema ${schema}: ${errorText(err)}`);
    }
  }

  async define(collection: string, spec: CollectionSpec): Promise<void> {
    if (spec.keys.length > KEY_COLUMNS.length) throw new Error(`collection ${collection}: at most ${KEY_COLUMNS.length} keys`);
    this.specs.set(collection, spec);
    const sorted = sortedIndexes(collection, spec);
    if (!spec.unique?.length && sorted.length === 0) return;
    const client = await this.pool.connect();
    try {
      // Nodes starting together would race on CREATE INDEX IF NOT EXISTS; the migration lock orders them.
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
      for (const { name, columns } of sorted) {
        await client.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${this.docs} (project_id, live, ${columns.join(', ')}, created_at, id) WHERE collection = '${collection}'`);
      }
      for (const rule of spec.unique ?? []) {
        const { name, column, where } = uniqueIndexParts(collection, spec.keys, rule);
        this.uniqueIndexes.set(name, collection);
        try {
          await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${this.docs} (project_id, live, ${column}) WHERE ${where}`);
        } catch (err) {
          // Duplicates written before the rule existed: keep serving and say so (logged at start-up).
          this.warnings.push(`${collection}.${rule.key} is not enforced unique: existing duplicates (${errorText(err)})`);
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`collection ${collection} is not defined`);
    return spec;
  }

  private columns(collection: string, scope: Scope, doc: Doc): DocColumns {
    const { keys, lng, lat, due } = indexedFields(this.spec(collection), doc);
    return [collection, scope.projectId, scope.live, doc._id, doc.createdAt, doc.updatedAt, ...keys, lng, lat, due, JSON.stringify(doc)];
  }

  async get(collection: string, scope: Scope, id: string): Promise<Doc | undefined> {
    const r = await this.pool.query<DocRow>({ name: `${this.schema}:get`, text: this.sql.get, values: [collection, scope.projectId, scope.live, id] });
    return r.rows[0]?.doc;
  }

  async findOne(collection: string, scope: Scope, match: Record<string, Scalar>): Promise<Doc | undefined> {
    const { docs } = await this.list(collection, scope, { limit: 1, sortBy: 'updatedAt', equals: match });
    return docs[0];
  }

  /** The SELECT behind list(), shared with explainList(). */
  private listSql(collection: string, scope: Scope, query: ListQuery): { text: string; values: unknown[] } {
    const spec = this.spec(collection);
    const p = new SqlParams();
    // A sorted index is partial (WHERE collection = '…'): naming the collection as a literal lets every
    // plan, generic ones included, use it. Collection names are our own identifiers.
    const collectionTest = sortedMatch(spec, query) ? `collection = '${collection}'` : `collection = ${p.add(collection)}`;
    const where = [collectionTest, `project_id = ${p.add(scope.projectId)}`, `live = ${p.add(scope.live)}`];
    for (const range of query.ranges ?? []) {
      const column = range.field === 'createdAt' ? 'created_at' : 'updated_at';
      if (range.before !== undefined) where.push(`${column} < ${p.add(range.before)}`);
      if (range.after !== undefined) where.push(`${column} > ${p.add(range.after)}`);
    }
    filterSql(spec, query, where, p);
    const sortColumn = query.sortBy === 'createdAt' ? 'created_at' : 'updated_at';
    const order = query.order === 'asc' ? 'ASC' : 'DESC';
    const limit = p.add(query.limit + 1);
    return { text: `SELECT doc FROM ${this.docs} WHERE ${where.join(' AND ')} ORDER BY ${sortColumn} ${order}, id ${order} LIMIT ${limit}`, values: p.values };
  }

  async list(collection: string, scope: Scope, query: ListQuery): Promise<ListResult> {
    const { text, values } = this.listSql(collection, scope, query);
    const r = await this.pool.query<DocRow>(text, values);
    const hasMore = r.rows.length > query.limit;
    return { docs: r.rows.slice(0, query.limit).map((row) => row.doc), hasMore };
  }

  /** PostgreSQL's plan for a list() query (EXPLAIN, text): for tests of a query's shape and for operators. */
  async explainList(collection: string, scope: Scope, query: ListQuery): Promise<string> {
    const { text, values } = this.listSql(collection, scope, query);
    const r = await this.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  async within(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): Promise<Doc[]> {
    const spec = this.spec(collection);
    const p = new SqlParams();
    const where = [`collection = ${p.add(collection)}`, `project_id = ${p.add(scope.projectId)}`, `live = ${p.add(scope.live)}`];
    const [minLat, maxLat] = [p.add(box.minLat), p.add(box.maxLat)];
    // One longitude span, or two for a box across the antimeridian.
    const spans = lngIntervals(box).map(([west, east]) => [p.add(west), p.add(east)]);
    if (this.spatial === 'postgis' && this.postgis) {
      const g = this.postgis;
      // The index compares single-precision boxes rounded outwards; the exact lat/lng test below keeps
      // the answer identical to the btree's (and SQLite's), boundaries included.
      const envelopes = spans.map(([west, east]) => `geom OPERATOR(${g}.&&) ${g}.ST_MakeEnvelope(${west}::float8, ${minLat}::float8, ${east}::float8, ${maxLat}::float8, 4326)`);
      if (envelopes.length) where.push(`(${envelopes.join(' OR ')})`);
    }
    const lngTest = spans.map(([west, east]) => `lng BETWEEN ${west}::float8 AND ${east}::float8`).join(' OR ');
    where.push(`lat BETWEEN ${minLat}::float8 AND ${maxLat}::float8`, lngTest ? `(${lngTest})` : 'FALSE');
    filterSql(spec, query, where, p);
    const r = await this.pool.query<DocRow>(`SELECT doc FROM ${this.docs} WHERE ${where.join(' AND ')} LIMIT ${p.add(limit)}`, p.values);
    return r.rows.map((row) => row.doc);
  }

  async scan(collection: string, scope: Scope, onBatch: (docs: Doc[]) => void): Promise<void> {
    const text = `SELECT id, doc FROM ${this.docs} WHERE collection = $1 AND project_id = $2 AND live = $3 AND id > $4 ORDER BY id LIMIT $5`;
    let after = '';
    for (;;) {
      const r = await this.pool.query<{ id: string; doc: Doc }>({
        name: `${this.schema}:scan`, text, values: [collection, scope.projectId, scope.live, after, SCAN_BATCH],
      });
      if (r.rows.length === 0) return;
      onBatch(r.rows.map((row) => row.doc));
      after = r.rows[r.rows.length - 1].id;
    }
  }

  async due(collection: string, at: string, limit: number): Promise<DueDoc[]> {
    const r = await this.pool.query<{ project_id: string; live: boolean; doc: Doc }>(
      `SELECT project_id, live, doc FROM ${this.docs}
       WHERE collection = $1 AND due_at IS NOT NULL AND due_at <= $2 ORDER BY due_at, project_id, live, id LIMIT $3`,
      [collection, at, limit],
    );
    return r.rows.map((row) => ({ scope: { projectId: row.project_id, live: row.live }, doc: row.doc }));
  }

  async write(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    // Rows are computed first so that an undefined collection fails before any connection is taken.
    const steps = planWrite(ops, (op) => this.columns(op.collection, op.scope, op.doc));
    // A single statement is atomic on its own; BEGIN/COMMIT would only add two round trips.
    const notices = this.noticesFor(ops);
    try {
      if (steps.length === 1 && notices.length === 0) await this.runStep(this.pool, steps[0]);
      else {
        await inTransaction(this.pool, async (client) => {
          for (const step of steps) await this.runStep(client, step);
          // Inside the transaction: PostgreSQL sends them at COMMIT, and only if it commits.
          for (const payload of notices) await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
        });
      }
    } catch (err) {
      const { code, constraint } = err as { code?: string; constraint?: string };
      const collection = constraint === undefined ? undefined : this.uniqueIndexes.get(constraint);
      if (code === '23505' && collection !== undefined) throw new UniqueViolation(collection, errorText(err));
      throw err;
    }
    // After COMMIT returned, never before: a listener that reads what was written must find it.
    for (const listener of this.commitListeners) {
      try {
        listener(ops);
      } catch {
        // A listener's failure must not turn a committed write into a reported failure.
      }
    }
  }

  onCommit(listener: (ops: readonly WriteOp[]) => void): void {
    this.commitListeners.push(listener);
  }

  /** One notice per scope of each broadcast collection the ops touch. */
  private noticesFor(ops: WriteOp[]): string[] {
    let byTarget: Map<string, { collection: string; scope: Scope; ids: string[] }> | undefined;
    for (const op of ops) {
      if (!this.specs.get(op.collection)?.broadcast) continue;
      byTarget ??= new Map();
      const key = `${op.collection}\u0000${op.scope.projectId}\u0000${op.scope.live}`;
      let target = byTarget.get(key);
      if (!target) byTarget.set(key, (target = { collection: op.collection, scope: op.scope, ids: [] }));
      target.ids.push(op.op === 'put' ? op.doc._id : op.id);
    }
    return [...(byTarget?.values() ?? [])].map((t) => noticePayload(this.schema, this.node, t.collection, t));
  }

  onRemoteChange(listener: (change: RemoteChange) => void): void {
    this.remoteListeners.push(listener);
    // The listening connection opens with the first listener: CLI commands and tests that never listen
    // do not hold one.
    this.changes ??= new ChangeChannel(this.opts.connectionString, this.schema, this.node, (change) => {
      for (const l of this.remoteListeners) {
        try {
          l(change);
        } catch (err) {
          this.opts.onError?.(err as Error);
        }
      }
    }, (err) => this.opts.onError?.(err));
  }

  /** Resolves once this store listens for other nodes' changes (tests, start-up). */
  async listening(): Promise<void> {
    await this.changes?.ready;
  }

  private async runStep(db: Pool | PoolClient, step: WriteStep): Promise<void> {
    if (step.kind === 'delete') {
      await db.query({ name: `${this.schema}:delete`, text: this.sql.delete, values: step.key });
    } else if (step.rows.length === 1) {
      await db.query({ name: `${this.schema}:put`, text: this.sql.put, values: step.rows[0] });
    } else {
      // One statement for the run: column arrays unnested into rows.
      const columns = DOC_COLUMN_TYPES.map((_, i) => step.rows.map((row) => row[i]));
      await db.query({ name: `${this.schema}:putMany`, text: this.sql.putMany, values: columns });
    }
  }

  withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    // The in-process mutex first: waiters of this process queue in memory, and the shared lock session
    // asks the server for each key at most once at a time.
    return this.locks.run(key, async () => {
      const lockId = advisoryKey(`waymark:lock:${this.schema}\u0000${key}`);
      await this.lockSession.acquire(key, lockId);
      try {
        return await fn();
      } finally {
        await this.lockSession.release(lockId);
      }
    });
  }

  async scopes(collection: string): Promise<Scope[]> {
    const r = await this.pool.query<{ project_id: string; live: boolean }>(
      `SELECT DISTINCT project_id, live FROM ${this.docs} WHERE collection = $1 ORDER BY project_id, live`,
      [collection],
    );
    return r.rows.map((row) => ({ projectId: row.project_id, live: row.live }));
  }

  async close(): Promise<void> {
    await this.changes?.close();
    await Promise.all([this.pool.end(), this.lockSession.close()]);
  }
}

type WriteStep =
  | { kind: 'delete'; key: [string, string, boolean, string] }
  | { kind: 'put'; rows: DocColumns[] };

/**
 * Ops in order, with consecutive puts merged into one multi-row upsert. A run is cut where a row repeats
 * an earlier one's primary key, since one INSERT … ON CONFLICT may not touch the same row twice.
 */
function planWrite(ops: WriteOp[], columnsOf: (op: Extract<WriteOp, { op: 'put' }>) => DocColumns): WriteStep[] {
  const steps: WriteStep[] = [];
  let run: DocColumns[] = [];
  let seen = new Set<string>();
  const flush = (): void => {
    if (run.length > 0) steps.push({ kind: 'put', rows: run });
    run = [];
    seen = new Set();
  };
  for (const op of ops) {
    if (op.op === 'delete') {
      flush();
      steps.push({ kind: 'delete', key: [op.collection, op.scope.projectId, op.scope.live, op.id] });
      continue;
    }
    const row = columnsOf(op);
    const pk = JSON.stringify([op.collection, op.scope.projectId, op.scope.live, op.doc._id]);
    if (seen.has(pk)) flush();
    seen.add(pk);
    run.push(row);
  }
  flush();
  return steps;
}
