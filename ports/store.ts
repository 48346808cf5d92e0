// The Store port. The gateway keeps its resources (users, geofences, beacons, events, trips, outbox rows…)
// as JSON documents in named collections; each collection declares which fields are indexed so that
// lookups, filters and cursors stay fast in every adapter. Adapters know nothing of the domain beyond
// these declarations, which is why they never import the gateway.
import type { Doc, DocBase } from '../core/model/document';

/** The documents' common fields, and the untyped document adapters see (core/model/document.ts). */
export type { Doc, DocBase };

export type Scalar = string | number | boolean;

/** A project's environment: every document belongs to exactly one. */
export interface Scope {
  projectId: string;
  live: boolean;
}

export interface CollectionSpec {
  /** Top-level string fields with their own index (equality lookups and filters). */
  keys: readonly string[];
  /**
   * Keys kept in their column without an index of their own: they narrow a `sorted` combination that
   * starts with another key (the outbox's state after its webhook), or filter what another index reads.
   * Equality on one of them alone reads the whole scope. An index costs an entry per row written and
   * deleted, so a key nobody looks up alone should not have one.
   */
  unindexed?: readonly string[];
  /** A field holding a GeoJSON Point (`coordinates: [lng, lat]`), indexed for bounding-box queries. */
  point?: string;
  /** A datetime field indexed across all scopes, for background jobs (expiry, delivery). */
  due?: string;
  /**
   * Keys unique within a scope (adapters enforce them and raise UniqueViolation). `whenAbsent` narrows
   * the rule to documents without that other key: devices are unique among users who have no userId.
   */
  unique?: ReadonlyArray<{ key: string; whenAbsent?: string }>;
  /**
   * Key combinations read in createdAt order (a queue head, a type's newest events): each gets a composite
   * index carrying that order, so `list()` with exactly these keys (one value each), sorted by createdAt,
   * reads its page from the index instead of sorting every match.
   */
  sorted?: ReadonlyArray<readonly string[]>;
  /**
   * The sorts the collection is listed in with no key to narrow it (`GET /v1/users` by updatedAt): each
   * gets a date index. Default: both. A date index on a field every write changes costs an index entry
   * per write, so declare only what is read.
   */
  orders?: ReadonlyArray<'createdAt' | 'updatedAt'>;
  /** Writes are announced to the other processes sharing the store, which keep copies in memory. */
  broadcast?: boolean;
  /**
   * The store keeps a revision per document: every put raises it, reads return it as `_rev` (a field the
   * API never shows: it starts with "_"), and a put may require the revision it was computed from
   * (`expectRev`). A process can then keep a document in memory and still never write over a change it
   * did not see (the track path's cache of users, #14).
   */
  versioned?: boolean;
  /**
   * updatedAt and the point change on (nearly) every write: a user's track update moves both. The
   * adapters then index them coarsely (coarse-index.ts): the updatedAt order by its hour, the point by
   * its cell of 0.01°, so that a write staying within its hour and cell changes no index at all. Lists
   * by updatedAt then sort the rows of each hour they read, and within() reads the rows of the cells its
   * box touches; the answers stay the same.
   */
  volatile?: boolean;
}

/**
 * A typed handle on a collection: its name, its declaration, and (for the compiler only) the type of its
 * documents. Store reads through a handle return that type, and `put()` takes only that type, so the
 * shape of a collection's documents is written once, where the handle is declared.
 */
export interface Collection<T extends DocBase> {
  readonly name: string;
  readonly spec: CollectionSpec;
  /** Never set: carries T. */
  readonly _doc?: T;
}

export function collection<T extends DocBase>(name: string, spec: CollectionSpec): Collection<T> {
  return { name, spec };
}

/**
 * The exclusive upper bound of the strings starting with `prefix`, in the byte order both stores compare
 * their key columns in (SQLite's BINARY, PostgreSQL's "C"): `prefix` followed by the highest code point,
 * which no stored key continues past.
 */
export function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

/** The field that carries a versioned document's revision on reads; never stored inside the document. */
export const REVISION_FIELD = '_rev';

/** The document as a versioned collection stores it: without `_rev` (a copy only when it has one). */
export function withoutRevision(doc: Doc): Doc {
  if (!(REVISION_FIELD in doc)) return doc;
  const { [REVISION_FIELD]: _rev, ...stored } = doc;
  return stored;
}

/**
 * A change made by another process sharing the store (another gateway node, the CLI). `collection` is a
 * collection declared with `broadcast`, 'projects' for a project's keys or settings, or '*' when the
 * feed was interrupted and anything may have changed. Without `ids`, anything in the scope may have.
 */
export interface RemoteChange {
  collection: string;
  scope?: Scope;
  projectId?: string;
  ids?: string[];
}

export interface DateRange {
  field: 'createdAt' | 'updatedAt';
  /** Exclusive bounds, ISO strings. */
  before?: string;
  after?: string;
}

export interface ListQuery {
  limit: number;
  sortBy: 'createdAt' | 'updatedAt';
  /** Newest first unless 'asc'. */
  order?: 'asc' | 'desc';
  ranges?: DateRange[];
  /** Equality on top-level fields; an array means "any of". Indexed keys are fast, others are scanned. */
  equals?: Record<string, Scalar | Scalar[]>;
  /** Equality on `metadata.<key>`, type-aware (true ≠ "true"). */
  metadata?: Record<string, Scalar>;
  /**
   * Documents left out by `_id`, as if absent: a caller that holds newer states of some in memory (the
   * webhook delivery worker's rows whose outcomes are not committed yet) need not have them read.
   */
  exceptIds?: readonly string[];
  /**
   * Only the documents with these `_id`s, read through the primary key (the rest of the query narrows and
   * orders them): a list over a set of ids another index gave, costing one lookup per id however large
   * the collection. The caller bounds how many it gives.
   */
  ids?: readonly string[];
}

export interface ListResult<T extends DocBase> {
  docs: T[];
  hasMore: boolean;
}

/**
 * A box in degrees, edges included. Longitudes past ±180 wrap, so a box built as centre ± degrees near the
 * antimeridian covers both sides of it. A box with minLng > maxLng or minLat > maxLat is empty.
 */
export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** One cell of countGrid(): its column (from the west) and row (from the south), 0-based. */
export interface GridCount {
  column: number;
  row: number;
  count: number;
  /** Mean longitude and latitude of the points counted. */
  lng: number;
  lat: number;
}

export type WriteOp =
  | {
    op: 'put'; collection: string; scope: Scope; doc: Doc;
    /**
     * Versioned collections only: the revision the document must have now, 0 for "must not exist". When
     * it differs (another write came first, or the document was deleted), the whole write applies nothing
     * and fails with RevisionConflict. Revisions start at 1 and a put adds 1, so after success the
     * document's revision is expectRev + 1.
     */
    expectRev?: number;
    /**
     * The document's JSON text, when the caller has made it already (the track path serialises a user
     * once for its answer and its row): written instead of serialising `doc` again. It must parse to
     * `doc` without its revision field; key order may differ.
     */
    json?: string;
  }
  | { op: 'delete'; collection: string; scope: Scope; id: string };

export interface DueDoc<T extends DocBase> {
  scope: Scope;
  doc: T;
}

/** What a put may add: the revision it expects, the document's JSON already made (see WriteOp). */
export interface PutOptions {
  expectRev?: number;
  json?: string;
}

/** A put of a document into its collection, checked against the collection's document type. */
export function put<T extends DocBase>(collection: Collection<T>, scope: Scope, doc: T, options: PutOptions = {}): WriteOp {
  const op: WriteOp = { op: 'put', collection: collection.name, scope, doc };
  if (options.expectRev !== undefined) op.expectRev = options.expectRev;
  if (options.json !== undefined) op.json = options.json;
  return op;
}

/**
 * The document `op` puts into `collection`, typed by the handle, or undefined when `op` is no put into it:
 * how a commit listener reads the rows it cares about (a write op carries its collection by name).
 */
export function putInto<T extends DocBase>(collection: Collection<T>, op: WriteOp): T | undefined {
  return op.op === 'put' && op.collection === collection.name ? (op.doc as T) : undefined;
}

export function remove(collection: Collection<DocBase>, scope: Scope, id: string): WriteOp {
  return { op: 'delete', collection: collection.name, scope, id };
}

export type KeyKind = 'publishable' | 'secret';

export interface ProjectRecord {
  _id: string;
  name: string;
  createdAt: string;
  /** Behaviour switches; the gateway owns their meaning and defaults. */
  settings: Record<string, unknown>;
}

export interface ApiKeyRecord {
  /** sha256 of the key, hex: the only form in which secret keys are kept. */
  hash: string;
  projectId: string;
  live: boolean;
  kind: KeyKind;
  /** The whole key for publishable keys (they ship inside apps); a recognisable prefix for secret ones. */
  display: string;
  createdAt: string;
}

export interface ProjectRepository {
  create(project: ProjectRecord, keys: ApiKeyRecord[]): Promise<void>;
  list(): Promise<ProjectRecord[]>;
  get(id: string): Promise<ProjectRecord | undefined>;
  keys(projectId: string): Promise<ApiKeyRecord[]>;
  keyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Atomically replaces all keys of a project. */
  replaceKeys(projectId: string, keys: ApiKeyRecord[]): Promise<void>;
  updateSettings(projectId: string, settings: Record<string, unknown>): Promise<void>;
}

export interface Store {
  readonly kind: string;
  readonly projects: ProjectRepository;
  /** Problems found while defining collections that did not stop start-up (e.g. a unique index that
   * existing duplicates prevent); the gateway logs them. */
  readonly warnings: string[];
  /** Declares a collection; idempotent, called at start-up before use. */
  define(collection: Collection<DocBase>): Promise<void>;
  get<T extends DocBase>(collection: Collection<T>, scope: Scope, id: string): Promise<T | undefined>;
  /** The newest document whose indexed `key` equals `value` (and `also` fields, if given). */
  findOne<T extends DocBase>(collection: Collection<T>, scope: Scope, match: Record<string, Scalar>): Promise<T | undefined>;
  /**
   * The `_id` and revision (versioned collections; else undefined) of the document findOne() would
   * return, without reading the document: for a caller holding a copy, to learn whether it still is
   * that document (track's kept users, #14).
   */
  findRef(collection: Collection<DocBase>, scope: Scope, match: Record<string, Scalar>): Promise<{ id: string; rev: number | undefined } | undefined>;
  list<T extends DocBase>(collection: Collection<T>, scope: Scope, query: ListQuery): Promise<ListResult<T>>;
  /**
   * How many documents list() would find for `query`, counting to `query.limit` at most, without reading
   * them: through the same index, so a count over a declared sorted combination costs its index entries.
   */
  count(collection: Collection<DocBase>, scope: Scope, query: ListQuery): Promise<number>;
  /**
   * Documents whose `key`, one of the collection's indexed keys, starts with `prefix` as stored (byte for
   * byte: case counts), in that key's order then `_id`'s, at most `limit`: one range of the key's index
   * however many documents the collection holds (the users list's search by an id's start).
   */
  keyPrefix<T extends DocBase>(collection: Collection<T>, scope: Scope, key: string, prefix: string, limit: number): Promise<T[]>;
  /**
   * The distinct values of the indexed `key` among the documents matching `equals` (documents without the
   * key left out), in byte order, at most `limit`: read from the indexes and key columns, never the
   * documents (the users inside a geofence from its presence rows, the users of active trips).
   */
  distinctKeys(collection: Collection<DocBase>, scope: Scope, key: string, equals: Record<string, Scalar | Scalar[]>, limit: number): Promise<string[]>;
  /** Documents whose point lies in the box, at most `limit`. */
  within<T extends DocBase>(collection: Collection<T>, scope: Scope, box: BBox, limit: number, query?: Pick<ListQuery, 'metadata' | 'equals'>): Promise<T[]>;
  /**
   * How many documents' points lie in each cell of a `columns` × `rows` grid laid over the box (edges
   * included, the last column and row closed), with their mean position; cells holding none are left out.
   * Counted by the store from its point columns, without reading the documents: a crowded map view costs
   * an aggregate, not every document in it. A box across the antimeridian is laid out from its west edge.
   */
  countGrid(collection: Collection<DocBase>, scope: Scope, box: BBox, columns: number, rows: number): Promise<GridCount[]>;
  /** Every document of a scope, in batches; for loading in-memory indexes. */
  scan<T extends DocBase>(collection: Collection<T>, scope: Scope, onBatch: (docs: T[]) => void): Promise<void>;
  /** Documents, across all scopes, whose `due` field is at or before `at`, oldest first. */
  due<T extends DocBase>(collection: Collection<T>, at: string, limit: number): Promise<Array<DueDoc<T>>>;
  /** Applies all operations atomically: all or nothing. */
  write(ops: WriteOp[]): Promise<void>;
  /** Runs `fn` while holding an exclusive lock on `key` (per-user serialisation of track updates). */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** All scopes that have any document in the collection (for index warm-up). */
  scopes(collection: Collection<DocBase>): Promise<Scope[]>;
  /**
   * Calls `listener` after every commit with that commit's operations, in this process (the delivery
   * worker wakes on committed outbox rows). Listeners must be quick and must not throw.
   */
  onCommit(listener: (ops: readonly WriteOp[]) => void): void;
  /**
   * Calls `listener` for changes other processes made (see RemoteChange), within about a second:
   * PostgreSQL through LISTEN/NOTIFY, SQLite by polling its change log (the CLI writing beside a server).
   */
  onRemoteChange(listener: (change: RemoteChange) => void): void;
  close(): Promise<void>;
}

/**
 * withLock() gave up waiting for a lock held elsewhere (another node, a long import). The caller may retry;
 * the gateway answers 503 with Retry-After rather than 500.
 */
export class LockWaitTimeout extends Error {
  constructor(
    readonly key: string,
    readonly waitedMs: number,
  ) {
    super(`withLock(${JSON.stringify(key)}): lock timeout after ${waitedMs} ms: another section holds it`);
    this.name = 'LockWaitTimeout';
  }
}
