// Store adapter on PostgreSQL, for many gateway nodes sharing one database. Same tables (one per
// collection, collection-schema.ts), orderings and filter semantics as the SQLite store; documents are
// jsonb. within() uses a PostGIS GiST index when the extension is available and a lat/lng btree otherwise
// (`spatial` says which). withLock() serialises across processes with session advisory locks, all held on
// one dedicated connection and taken by polling (advisory-session.ts), so that sections waiting for or
// holding locks never take a pool connection.
// Writes of broadcast collections and project changes carry a pg_notify in their transaction; other
// nodes hear them through one listening connection (change-channel.ts, onRemoteChange).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { AdvisorySession } from './advisory-session';
import { KeyedMutex } from '../keyed-mutex';
import { lngIntervals } from '../lng-intervals';
import { gridLayout, mergeGroups, type GridGroup } from '../grid-cells';
import { cellOf, cellRows, hourOf } from '../coarse-index';
import type {
  BBox, Collection, CollectionSpec, Doc, DocBase, DueDoc, GridCount, ListQuery, ListResult, ProjectRepository, RemoteChange, Scalar, Scope, Store, WriteOp,
} from '../../../ports/store';
import { prefixEnd, REVISION_FIELD, withoutRevision } from '../../../ports/store';
import { advisoryKey } from './advisory-key';
import { describeDatabaseUrl, errorText } from './connection';
import { indexedFields } from '../indexed-fields';
import { filterSql, KEY_COLUMNS, SqlParams } from './doc-filters';
import { checkSchemaName, quoteIdent } from './identifiers';
import { migrate, MIGRATE_LOCK, type MigrationOutcome, type SpatialMode } from './migrate';
import { UniqueViolation } from '../unique-violation';
import { RevisionConflict } from '../revision-conflict';
import { REVISION_CONFLICT_SQLSTATE } from './migrations';
import { PostgresProjects } from './postgres-projects';
import { inTransaction } from './transaction';
import { CHANGE_CHANNEL, ChangeChannel, noticePayload } from './change-channel';
import { prepareCollection } from './collection-schema';
import { broadcastTargets } from '../broadcast-targets';
import { planStatements, type PlannedOp, type WriteStatement } from './write-plan';

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

/** A row of a collection whose documents are T (the handle it was read through says so). */
interface DocRow<T extends DocBase> {
  doc: T & { [REVISION_FIELD]?: number };
  /** Versioned collections only (bigint: a string from the driver). */
  rev?: string;
}

/** A row's document; a versioned collection's revision rides along as `_rev`. */
function docOf<T extends DocBase>(row: DocRow<T>): T {
  if (row.rev !== undefined) row.doc[REVISION_FIELD] = Number(row.rev);
  return row.doc;
}

/** What a read selects besides its own columns: the document, and the revision when there is one. */
function docColumns(spec: CollectionSpec): string {
  return spec.versioned ? 'doc, rev' : 'doc';
}

/** A defined collection: its declaration and its schema-qualified table. */
interface Defined {
  spec: CollectionSpec;
  table: string;
}

/** Named (server-side prepared) statements per connection at most; further texts run unnamed. */
const MAX_NAMED_STATEMENTS = 500;

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
  private readonly defined = new Map<string, Defined>();
  /** Statement text → its prepared-statement name (short: PostgreSQL cuts names at 63 bytes). */
  private readonly statementNames = new Map<string, string>();
  private readonly commitListeners: Array<(ops: readonly WriteOp[]) => void> = [];
  private readonly remoteListeners: Array<(change: RemoteChange) => void> = [];
  /** This process in change notices, so that it ignores its own. */
  private readonly node = randomBytes(8).toString('hex');
  private changes?: ChangeChannel;
  private readonly locks = new KeyedMutex();
  private readonly quotedSchema: string;
  private readonly postgis?: string;

  private constructor(
    private readonly pool: Pool,
    private readonly lockSession: AdvisorySession,
    schema: string,
    migration: MigrationOutcome,
    private readonly opts: PostgresStoreOptions,
  ) {
    this.schema = schema;
    const s = quoteIdent(schema);
    this.quotedSchema = s;
    this.spatial = migration.spatial;
    this.spatialReason = migration.spatialReason;
    this.postgis = migration.postgisSchema === undefined ? undefined : quoteIdent(migration.postgisSchema);
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

  /**
   * Creates the collection's table and indexes and moves in its documents from the shared `docs` table of
   * earlier versions (collection-schema.ts), under the migration lock: nodes starting together on one
   * database take turns, and the later ones find the work done.
   */
  async define(handle: Collection<DocBase>): Promise<void> {
    const { name: collection, spec } = handle;
    if (spec.keys.length > KEY_COLUMNS.length) throw new Error(`collection ${collection}: at most ${KEY_COLUMNS.length} keys`);
    const client = await this.pool.connect();
    let released = false;
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
      try {
        const prepared = await prepareCollection(client, collection, spec, {
          schema: this.quotedSchema, schemaName: this.schema, postgis: this.spatial === 'postgis' ? this.postgis : undefined,
        });
        for (const name of prepared.uniqueIndexes) this.uniqueIndexes.set(name, collection);
        this.warnings.push(...prepared.warnings);
        this.defined.set(collection, { spec, table: prepared.table });
      } finally {
        try {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]);
        } catch (err) {
          // The session is broken: destroying it is what frees the lock.
          client.release(err as Error);
          released = true;
        }
      }
    } finally {
      if (!released) client.release();
    }
  }

  private collection(collection: string): Defined {
    const defined = this.defined.get(collection);
    if (!defined) throw new Error(`collection ${collection} is not defined`);
    return defined;
  }

  /** A prepared-statement name for a statement text, reused on every connection of the pool. */
  private named(text: string): string | undefined {
    let name = this.statementNames.get(text);
    if (name === undefined && this.statementNames.size < MAX_NAMED_STATEMENTS) this.statementNames.set(text, (name = `wm${this.statementNames.size}`));
    return name;
  }

  private planned(op: WriteOp): PlannedOp {
    const { spec, table } = this.collection(op.collection);
    if (op.op === 'delete') return { table, del: [op.scope.projectId, op.scope.live, op.id] };
    const { keys, lng, lat, due } = indexedFields(spec, op.doc);
    const { doc } = op;
    if (op.expectRev !== undefined && !spec.versioned) throw new Error(`collection ${op.collection} is not versioned: a put cannot expect a revision`);
    // The revision lives in its column: a copy inside the JSON would be stale after the next put.
    const json = op.json ?? JSON.stringify(spec.versioned ? withoutRevision(doc) : doc);
    return {
      table, versioned: spec.versioned === true, expectRev: op.expectRev,
      put: [op.scope.projectId, op.scope.live, doc._id, doc.createdAt, doc.updatedAt, keys[0], keys[1], keys[2], keys[3], lng, lat, due, json],
    };
  }

  async get<T extends DocBase>(ref: Collection<T>, scope: Scope, id: string): Promise<T | undefined> {
    const collection = ref.name;
    const { spec, table } = this.collection(collection);
    const text = `SELECT ${docColumns(spec)} FROM ${table} WHERE project_id = $1 AND live = $2 AND id = $3`;
    const r = await this.pool.query<DocRow<T>>({ name: this.named(text), text, values: [scope.projectId, scope.live, id] });
    return r.rows[0] ? docOf(r.rows[0]) : undefined;
  }

  async findOne<T extends DocBase>(ref: Collection<T>, scope: Scope, match: Record<string, Scalar>): Promise<T | undefined> {
    const { docs } = await this.list(ref, scope, { limit: 1, sortBy: 'updatedAt', equals: match });
    return docs[0];
  }

  async findRef(ref: Collection<DocBase>, scope: Scope, match: Record<string, Scalar>): Promise<{ id: string; rev: number | undefined } | undefined> {
    const collection = ref.name;
    const columns = this.collection(collection).spec.versioned ? 'id, rev' : 'id';
    const { text, values } = this.listSql(collection, scope, { limit: 1, sortBy: 'updatedAt', equals: match }, columns);
    const row = (await this.pool.query<{ id: string; rev?: string | number }>(text, values)).rows[0];
    return row && { id: row.id, rev: row.rev === undefined ? undefined : Number(row.rev) };
  }

  /** The SELECT behind list() (and findRef(), which selects other columns), shared with explainList(). */
  private listSql(collection: string, scope: Scope, query: ListQuery, columns?: string): { text: string; values: unknown[] } {
    const { spec, table } = this.collection(collection);
    const p = new SqlParams();
    const where = [`project_id = ${p.add(scope.projectId)}`, `live = ${p.add(scope.live)}`];
    for (const range of query.ranges ?? []) {
      const column = range.field === 'createdAt' ? 'created_at' : 'updated_at';
      // A volatile collection's updatedAt is indexed by its hour: the hour's bound lets the index narrow.
      const hour = range.field === 'updatedAt' && spec.volatile;
      if (range.before !== undefined) {
        where.push(`${column} < ${p.add(range.before)}`);
        if (hour) where.push(`updated_hour <= ${p.add(hourOf(range.before))}`);
      }
      if (range.after !== undefined) {
        where.push(`${column} > ${p.add(range.after)}`);
        if (hour) where.push(`updated_hour >= ${p.add(hourOf(range.after))}`);
      }
    }
    filterSql(spec, query, where, p);
    if (query.exceptIds !== undefined && query.exceptIds.length > 0) where.push(`id <> ALL(${p.add([...query.exceptIds])}::text[])`);
    if (query.ids !== undefined) where.push(`id = ANY(${p.add([...query.ids])}::text[])`);
    const sortColumn = query.sortBy === 'createdAt' ? 'created_at' : 'updated_at';
    const order = query.order === 'asc' ? 'ASC' : 'DESC';
    // The hour first: the same order (the hour is a prefix of updated_at), which the hour index gives,
    // so only each hour's rows are sorted (an incremental sort, stopping at the hour that fills the page).
    // A set of ids is read through the primary key and sorted: ordered by the hour, the page could walk the
    // hour index over the whole collection looking for them.
    const sort = sortColumn === 'updated_at' && spec.volatile && query.ids === undefined ? `updated_hour ${order}, updated_at ${order}, id ${order}` : `${sortColumn} ${order}, id ${order}`;
    const limit = p.add(query.limit + 1);
    return { text: `SELECT ${columns ?? docColumns(spec)} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${sort} LIMIT ${limit}`, values: p.values };
  }

  async list<T extends DocBase>(ref: Collection<T>, scope: Scope, query: ListQuery): Promise<ListResult<T>> {
    const collection = ref.name;
    const { text, values } = this.listSql(collection, scope, query);
    const r = await this.pool.query<DocRow<T>>(text, values);
    const hasMore = r.rows.length > query.limit;
    return { docs: r.rows.slice(0, query.limit).map(docOf), hasMore };
  }

  async count(ref: Collection<DocBase>, scope: Scope, query: ListQuery): Promise<number> {
    const collection = ref.name;
    const { text, values } = this.listSql(collection, scope, query, 'id');
    const r = await this.pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM (${text}) AS page`, values);
    return Math.min(Number(r.rows[0].n), Math.max(0, Math.floor(query.limit)));
  }

  async keyPrefix<T extends DocBase>(ref: Collection<T>, scope: Scope, key: string, prefix: string, limit: number): Promise<T[]> {
    const { spec, table } = this.collection(ref.name);
    const index = spec.keys.indexOf(key);
    if (index < 0 || spec.unindexed?.includes(key)) throw new Error(`keyPrefix(${ref.name}, ${key}): not an indexed key`);
    const column = KEY_COLUMNS[index];
    const p = new SqlParams();
    // The key columns are COLLATE "C": the range is the prefix's, byte for byte, and the index serves it.
    const text = `SELECT ${docColumns(spec)} FROM ${table} WHERE project_id = ${p.add(scope.projectId)} AND live = ${p.add(scope.live)}
      AND ${column} >= ${p.add(prefix)}::text AND ${column} < ${p.add(prefixEnd(prefix))}::text ORDER BY ${column}, id LIMIT ${p.add(Math.max(0, Math.floor(limit)))}`;
    const r = await this.pool.query<DocRow<T>>(text, p.values);
    return r.rows.map(docOf);
  }

  async distinctKeys(ref: Collection<DocBase>, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>, limit: number): Promise<string[]> {
    const { text, values } = this.distinctKeysSql(ref.name, scope, key, equals, limit);
    const r = await this.pool.query<{ v: string }>(text, values);
    return r.rows.map((row) => row.v);
  }

  /** The SELECT behind distinctKeys(), shared with explainDistinctKeys(). */
  private distinctKeysSql(collection: string, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>, limit: number): { text: string; values: unknown[] } {
    const { spec, table } = this.collection(collection);
    const index = spec.keys.indexOf(key);
    if (index < 0 || spec.unindexed?.includes(key)) throw new Error(`distinctKeys(${collection}, ${key}): not an indexed key`);
    const column = KEY_COLUMNS[index];
    const p = new SqlParams();
    const where = [`project_id = ${p.add(scope.projectId)}`, `live = ${p.add(scope.live)}`, `${column} IS NOT NULL`];
    filterSql(spec, { equals }, where, p);
    // The key columns are COLLATE "C": byte order, as SQLite's BINARY.
    return { text: `SELECT DISTINCT ${column} AS v FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${column} LIMIT ${p.add(Math.max(0, Math.floor(limit)))}`, values: p.values };
  }

  /** PostgreSQL's plan for a distinctKeys() query (EXPLAIN, text). */
  async explainDistinctKeys(collection: string, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>): Promise<string> {
    const { text, values } = this.distinctKeysSql(collection, scope, key, equals, 10);
    const r = await this.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  /** PostgreSQL's plan for a list() query (EXPLAIN, text): for tests of a query's shape and for operators. */
  async explainList(collection: string, scope: Scope, query: ListQuery): Promise<string> {
    const { text, values } = this.listSql(collection, scope, query);
    const r = await this.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  /** The SELECT behind within(), shared with explainWithin(). */
  private withinSql(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'>): { text: string; values: unknown[] } {
    const { spec, table } = this.collection(collection);
    const p = new SqlParams();
    const where = this.withinWhere(spec, scope, box, query, p);
    return { text: `SELECT ${docColumns(spec)} FROM ${table} WHERE ${where} LIMIT ${p.add(limit)}`, values: p.values };
  }

  async countGrid(ref: Collection<DocBase>, scope: Scope, box: BBox, columns: number, rows: number): Promise<GridCount[]> {
    const collection = ref.name;
    const layout = gridLayout(box, columns, rows);
    if (!layout) return [];
    const { spec, table } = this.collection(collection);
    const p = new SqlParams();
    const west = p.add(layout.west);
    const x = `(CASE WHEN lng < ${west}::float8 THEN lng + 360 ELSE lng END)`;
    const select = `SELECT floor((${x} - ${west}::float8) / ${p.add(layout.width)}::float8) AS gx, floor((lat - ${p.add(layout.south)}::float8) / ${p.add(layout.height)}::float8) AS gy,
      COUNT(*) AS n, SUM(${x}) AS sx, SUM(lat) AS sy`;
    // The WHERE of within(): the same index narrows, the exact columns decide; no document is read out.
    const where = this.withinWhere(spec, scope, box, {}, p);
    const r = await this.pool.query<GridGroup>(`${select} FROM ${table} WHERE ${where} GROUP BY gx, gy`, p.values);
    return mergeGroups(layout, r.rows);
  }

  /** The conditions of within() and countGrid(), their parameters added to `p`. */
  private withinWhere(spec: CollectionSpec, scope: Scope, box: BBox, query: Pick<ListQuery, 'metadata' | 'equals'>, p: SqlParams): string {
    const where = [`project_id = ${p.add(scope.projectId)}`, `live = ${p.add(scope.live)}`];
    const [minLat, maxLat] = [p.add(box.minLat), p.add(box.maxLat)];
    // One longitude span, or two for a box across the antimeridian.
    const intervals = lngIntervals(box);
    const spans = intervals.map(([west, east]) => [p.add(west), p.add(east)]);
    if (spec.volatile && intervals.length > 0) {
      // The cells the box touches, through their btree (coarse-index.ts): listed rows of cells, or one
      // range of them, and a range of longitude cells per span. The exact test below decides.
      const rows = cellRows(box.minLat, box.maxLat);
      const latCells = rows ? `lat_cell = ANY(${p.add(rows)}::float8[])` : `lat_cell BETWEEN ${p.add(cellOf(box.minLat))}::float8 AND ${p.add(cellOf(box.maxLat))}::float8`;
      const cells = intervals.map(([west, east]) => `lng_cell BETWEEN ${p.add(cellOf(west))}::float8 AND ${p.add(cellOf(east))}::float8`);
      where.push(`(${cells.map((lngCells) => `(${latCells} AND ${lngCells})`).join(' OR ')})`);
    } else if (this.spatial === 'postgis' && this.postgis && spec.point !== undefined) {
      // Only a collection with a point, and not volatile, has the geom column (collection-schema.ts).
      const g = this.postgis;
      // The index compares single-precision boxes rounded outwards; the exact lat/lng test below keeps
      // the answer identical to the btree's (and SQLite's), boundaries included.
      const envelopes = spans.map(([west, east]) => `geom OPERATOR(${g}.&&) ${g}.ST_MakeEnvelope(${west}::float8, ${minLat}::float8, ${east}::float8, ${maxLat}::float8, 4326)`);
      if (envelopes.length) where.push(`(${envelopes.join(' OR ')})`);
    }
    const lngTest = spans.map(([west, east]) => `lng BETWEEN ${west}::float8 AND ${east}::float8`).join(' OR ');
    where.push(`lat BETWEEN ${minLat}::float8 AND ${maxLat}::float8`, lngTest ? `(${lngTest})` : 'FALSE');
    filterSql(spec, query, where, p);
    return where.join(' AND ');
  }

  async within<T extends DocBase>(ref: Collection<T>, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): Promise<T[]> {
    const collection = ref.name;
    const { text, values } = this.withinSql(collection, scope, box, limit, query);
    const r = await this.pool.query<DocRow<T>>(text, values);
    return r.rows.map(docOf);
  }

  /** PostgreSQL's plan for a within() query (EXPLAIN, text): for tests and operators. */
  async explainWithin(collection: string, scope: Scope, box: BBox, limit: number, query: Pick<ListQuery, 'metadata' | 'equals'> = {}): Promise<string> {
    const { text, values } = this.withinSql(collection, scope, box, limit, query);
    const r = await this.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  async scan<T extends DocBase>(ref: Collection<T>, scope: Scope, onBatch: (docs: T[]) => void): Promise<void> {
    const collection = ref.name;
    const { spec, table } = this.collection(collection);
    const text = `SELECT id, ${docColumns(spec)} FROM ${table} WHERE project_id = $1 AND live = $2 AND id > $3 ORDER BY id LIMIT $4`;
    let after = '';
    for (;;) {
      const r = await this.pool.query<DocRow<T> & { id: string }>({
        name: this.named(text), text, values: [scope.projectId, scope.live, after, SCAN_BATCH],
      });
      if (r.rows.length === 0) return;
      onBatch(r.rows.map(docOf));
      after = r.rows[r.rows.length - 1].id;
    }
  }

  async due<T extends DocBase>(ref: Collection<T>, at: string, limit: number): Promise<Array<DueDoc<T>>> {
    const collection = ref.name;
    const { spec, table } = this.collection(collection);
    const r = await this.pool.query<DocRow<T> & { project_id: string; live: boolean }>(
      `SELECT project_id, live, ${docColumns(spec)} FROM ${table}
       WHERE due_at IS NOT NULL AND due_at <= $1 ORDER BY due_at, project_id, live, id LIMIT $2`,
      [at, limit],
    );
    return r.rows.map((row) => ({ scope: { projectId: row.project_id, live: row.live }, doc: docOf(row) }));
  }

  async write(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    // Rows are computed first so that an undefined collection fails before any connection is taken.
    const statements = planStatements(ops.map((op) => this.planned(op)), `${this.quotedSchema}.revision_conflict`);
    // A single statement is atomic on its own; BEGIN/COMMIT would only add two round trips.
    const notices = this.noticesFor(ops);
    try {
      if (statements.length === 1 && notices.length === 0) await this.run(this.pool, statements[0]);
      else {
        await inTransaction(this.pool, async (client) => {
          for (const statement of statements) await this.run(client, statement);
          // Inside the transaction: PostgreSQL sends them at COMMIT, and only if it commits.
          for (const payload of notices) await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
        });
      }
    } catch (err) {
      const { code, constraint } = err as { code?: string; constraint?: string };
      const collection = constraint === undefined ? undefined : this.uniqueIndexes.get(constraint);
      if (code === '23505' && collection !== undefined) throw new UniqueViolation(collection, errorText(err));
      if (code === REVISION_CONFLICT_SQLSTATE) throw new RevisionConflict(ops.find((op) => op.op === 'put' && op.expectRev !== undefined)?.collection ?? '', errorText(err));
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
    return broadcastTargets(ops, (collection) => this.defined.get(collection)?.spec).map((t) => noticePayload(this.schema, this.node, t.collection, t));
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

  private async run(db: Pool | PoolClient, statement: WriteStatement): Promise<void> {
    await db.query({ name: this.named(statement.text), text: statement.text, values: statement.values });
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
        // Not awaited: the unlock is queued ahead of any later request for this key (advisory-session.ts),
        // so the answer need not wait for its round trip.
        void this.lockSession.release(lockId);
      }
    });
  }

  async scopes(ref: Collection<DocBase>): Promise<Scope[]> {
    const collection = ref.name;
    const r = await this.pool.query<{ project_id: string; live: boolean }>(
      `SELECT DISTINCT project_id, live FROM ${this.collection(collection).table} ORDER BY project_id, live`,
    );
    return r.rows.map((row) => ({ projectId: row.project_id, live: row.live }));
  }

  async close(): Promise<void> {
    await this.changes?.close();
    await Promise.all([this.pool.end(), this.lockSession.close()]);
  }
}
