// Volatile collections (#14; users): updatedAt is indexed by its hour and the point by its 0.01° cell
// (adapters/store/coarse-index.ts), so that a track update staying within both touches no index. On both
// stores: lists by updatedAt page through hours in exactly the order of a sort of every document, within()
// answers exactly the points inside a box (cell edges, the antimeridian), the plans read the coarse
// indexes, a table made before users were volatile is upgraded (and back, and again), revision conflicts
// are still detected. Then what each store gains: on SQLite an update within its hour and cell writes no
// page of any index; on PostgreSQL it is a HOT update.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, type BBox, type CollectionSpec, type Doc, type ListQuery, type Scope, type Store, type WriteOp } from '../../ports/store';
import { lngIntervals } from '../../adapters/store/lng-intervals';
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { RevisionConflict } from '../../adapters/store/revision-conflict';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { COLLECTIONS, USERS as USER_DOCS } from '../../server/api/collections';
import { listPage } from '../../server/api/list-query';
import { announceSkip, envVar } from '../support/requires';
import { DATABASE_URL, dropSchemas, freshSchemaName, withClient } from './store-postgres-support';
import { named } from '../support/named-collection';

const USERS: CollectionSpec = COLLECTIONS.users;
/** The users' declaration as it was before they were volatile: exact updated_at and point indexes. */
const EXACT: CollectionSpec = { ...COLLECTIONS.users, volatile: undefined };
const scope: Scope = { projectId: 'p1', live: true };
const BASE = Date.UTC(2026, 2, 1, 6);

type Explaining = Store & {
  explainList(c: string, s: Scope, q: ListQuery): string | Promise<string>;
  explainWithin(c: string, s: Scope, box: BBox, limit: number): string | Promise<string>;
};

interface Backend {
  open(): Promise<Explaining>;
  /** Every stored row whose coarse columns differ from what its exact columns give. */
  staleCoarse(): Promise<number>;
  indexes(): Promise<string[]>;
  analyze(): Promise<void>;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-volatile-'));
  const file = path.join(dir, 'w.sqlite');
  const read = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    open: async () => new SqliteStore({ file }),
    staleCoarse: async () => read((db) => (db.prepare(
      `SELECT count(*) AS n FROM coll_users WHERE updated_hour IS NOT substr(updated_at, 1, 13)
       OR lat_cell IS NOT floor(lat * 100) OR lng_cell IS NOT floor(lng * 100)`,
    ).get() as { n: number }).n),
    indexes: async () => read((db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'coll_users' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name)),
    analyze: async () => undefined,
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresBackend(): Backend {
  const schema = freshSchemaName();
  return {
    open: () => PostgresStore.open({ connectionString: DATABASE_URL as string, schema }),
    staleCoarse: () => withClient(async (c) => Number((await c.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".coll_users WHERE updated_hour IS DISTINCT FROM substr(updated_at, 1, 13)
       OR lat_cell IS DISTINCT FROM floor(lat * 100) OR lng_cell IS DISTINCT FROM floor(lng * 100)`,
    )).rows[0].n)),
    indexes: () => withClient(async (c) => (await c.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'coll_users' AND indexname <> 'coll_users_pkey' ORDER BY indexname", [schema],
    )).rows.map((r) => r.indexname)),
    analyze: async () => {
      await withClient((c) => c.query(`ANALYZE "${schema}".coll_users`));
    },
    cleanup: () => dropSchemas([schema]),
  };
}

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const idOf = (i: number): string => i.toString(16).padStart(24, '0');

function user(i: number, updatedAt: string, lng: number, lat: number, extra: Record<string, unknown> = {}): Doc {
  return { _id: idOf(i), createdAt: new Date(BASE).toISOString(), updatedAt, deviceId: `device-${i}`, userId: `user-${i}`, location: { type: 'Point', coordinates: [lng, lat] }, ...extra };
}

/**
 * Users over ten hours, many sharing a second (ties) and some exactly on an hour's edges; at random
 * points, some exactly on cell edges and around the antimeridian.
 */
function population(n: number): Doc[] {
  const next = random(7);
  const docs: Doc[] = [];
  for (let i = 0; i < n; i++) {
    let t = BASE + Math.floor(next() * 10 * 3600) * 1000;
    if (i % 50 === 0) t = BASE + (i % 10) * 3600_000;
    if (i % 50 === 1) t = BASE + (i % 10) * 3600_000 - 1;
    let lng = -180 + next() * 360;
    let lat = -60 + next() * 120;
    if (i % 7 === 0) [lng, lat] = [Math.round(lng * 100) / 100, Math.round(lat * 100) / 100];
    if (i % 11 === 0) lng = (next() < 0.5 ? -1 : 1) * (179.9 + next() * 0.1);
    if (i % 13 === 0) [lng, lat] = [10 + Math.floor(next() * 300) / 1000, 45 + Math.floor(next() * 300) / 1000];
    docs.push(user(i, new Date(t).toISOString(), lng, lat));
  }
  return docs;
}

function byUpdated(docs: Doc[], order: 'asc' | 'desc'): string[] {
  const sorted = [...docs].sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a._id < b._id ? -1 : 1));
  return (order === 'asc' ? sorted : sorted.reverse()).map((d) => d._id);
}

/** Every page of GET /v1/users, following the cursor as a client does, from `start`. */
async function allPages(store: Store, order: 'asc' | 'desc', limit: number, start?: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor = start;
  // A newest-first page cut inside a run of equal timestamps continues from beforeId, the last _id.
  let beforeId: string | undefined;
  for (;;) {
    const range = cursor === undefined ? [] : [order === 'asc' ? { field: 'updatedAt' as const, after: cursor } : { field: 'updatedAt' as const, before: cursor }];
    const { docs, hasMore } = await listPage(store, USER_DOCS, scope, { limit, sortBy: 'updatedAt', order, ranges: range, beforeId });
    seen.push(...docs.map((d) => d._id));
    if (!hasMore) return seen;
    cursor = docs[docs.length - 1].updatedAt;
    if (order === 'desc') beforeId = docs[docs.length - 1]._id;
  }
}

function inside(docs: Doc[], box: BBox): string[] {
  const lngs = lngIntervals(box);
  return docs.filter((d) => {
    const [lng, lat] = (d.location as { coordinates: [number, number] }).coordinates;
    return lat >= box.minLat && lat <= box.maxLat && lngs.some(([w, e]) => lng >= w && lng <= e);
  }).map((d) => d._id).sort();
}

/** Boxes of every size, some with cell-edge bounds, some across the antimeridian. */
function boxes(): BBox[] {
  const next = random(11);
  const out: BBox[] = [
    { minLng: 10, maxLng: 10.3, minLat: 45, maxLat: 45.3 },
    { minLng: 10.01, maxLng: 10.02, minLat: 45.01, maxLat: 45.02 },
    { minLng: 179.95, maxLng: 180.05, minLat: -60, maxLat: 60 },
    { minLng: -180.3, maxLng: -179.7, minLat: -10, maxLat: 30 },
    { minLng: -200, maxLng: 200, minLat: -1, maxLat: 1 },
    { minLng: 5, maxLng: 4, minLat: 0, maxLat: 1 },
  ];
  for (let i = 0; i < 120; i++) {
    const size = [0.005, 0.05, 0.3, 2, 20][i % 5];
    const lng = i % 4 === 0 ? 180 - size / 2 + next() * size : -180 + next() * 360;
    const lat = -60 + next() * 120;
    const round = i % 3 === 0 ? (x: number) => Math.round(x * 100) / 100 : (x: number) => x;
    out.push({ minLng: round(lng - size / 2), maxLng: round(lng + size / 2), minLat: round(lat - size / 2), maxLat: round(lat + size / 2) });
  }
  return out;
}

const cases: Array<[string, () => Backend]> = [['SQLite', sqliteBackend]];
if (DATABASE_URL) cases.push(['PostgreSQL', postgresBackend]);
else announceSkip('volatile collections on PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));

const USERS_BY_NAME = named('users');
const putUser = (doc: Doc, expectRev?: number): WriteOp => put(USERS_BY_NAME, scope, doc, expectRev === undefined ? {} : { expectRev });

describe.each(cases)('volatile users on %s', (name, make) => {
  let backend: Backend;
  let store: Explaining;
  beforeEach(async () => {
    backend = make();
    store = await backend.open();
  });
  afterEach(async () => {
    await store.close();
    await backend.cleanup();
  });

  test('lists by updatedAt page through the hours in the order of a sort of every document', async () => {
    await store.define(named('users', USERS));
    const docs = population(1500);
    await store.write(docs.map((d) => putUser(d)));
    expect(await allPages(store, 'desc', 40)).toEqual(byUpdated(docs, 'desc'));
    expect(await allPages(store, 'asc', 40)).toEqual(byUpdated(docs, 'asc'));
    // From a cursor on an hour's edge, and between two bounds.
    const edge = new Date(BASE + 4 * 3600_000).toISOString();
    expect(await allPages(store, 'desc', 25, edge)).toEqual(byUpdated(docs.filter((d) => d.updatedAt < edge), 'desc'));
    expect(await allPages(store, 'asc', 25, edge)).toEqual(byUpdated(docs.filter((d) => d.updatedAt > edge), 'asc'));
    const after = new Date(BASE + 2.5 * 3600_000).toISOString();
    const between = await store.list(named('users'), scope, { limit: 1000, sortBy: 'updatedAt', ranges: [{ field: 'updatedAt', after, before: edge }] });
    expect(between.docs.map((d) => d._id)).toEqual(byUpdated(docs.filter((d) => d.updatedAt > after && d.updatedAt < edge), 'desc'));
  });

  test('within answers exactly the points inside each box, across cell edges and the antimeridian', async () => {
    await store.define(named('users', USERS));
    const docs = population(3000);
    await store.write(docs.map((d) => putUser(d)));
    const got: Array<[BBox, string[]]> = [];
    const want: Array<[BBox, string[]]> = [];
    for (const box of boxes()) {
      got.push([box, (await store.within(named('users'), scope, box, 10_000)).map((d) => d._id).sort()]);
      want.push([box, inside(docs, box)]);
    }
    expect(got).toEqual(want);
    // The test means something only if boxes found points, near the antimeridian too.
    expect(want.filter(([, ids]) => ids.length > 0).length).toBeGreaterThan(40);
    expect(want[2][1].length).toBeGreaterThan(10);
  });

  test('the plans read the hour index and the cell index', async () => {
    await store.define(named('users', USERS));
    await store.write(population(3000).map((d) => putUser(d)));
    await backend.analyze();
    const page = await store.explainList('users', scope, { limit: 100, sortBy: 'updatedAt' });
    const cursor = await store.explainList('users', scope, { limit: 100, sortBy: 'updatedAt', ranges: [{ field: 'updatedAt', before: new Date(BASE + 8 * 3600_000).toISOString() }] });
    const near = await store.explainWithin('users', scope, { minLng: 10, maxLng: 10.05, minLat: 45, maxLat: 45.05 }, 100);
    const across = await store.explainWithin('users', scope, { minLng: 179.9, maxLng: 180.1, minLat: -1, maxLat: 1 }, 100);
    for (const plan of [page, cursor]) {
      expect(plan).toMatch(/coll_users_updated_hour/);
      // Sorted only within the hours read: SQLite's partial sort, PostgreSQL's incremental sort.
      expect(plan).toMatch(name === 'SQLite' ? /TEMP B-TREE FOR (LAST 2 TERMS|RIGHT PART) OF ORDER BY/ : /Incremental Sort/);
    }
    for (const plan of [near, across]) expect(plan).toMatch(/coll_users_cell/);
    expect(`${page}${near}`).not.toMatch(/coll_users_updated_at|coll_users_point|coll_users_geom/);
  });

  test('a table made before users were volatile is upgraded, and back, and again: same answers', async () => {
    await store.define(named('users', EXACT));
    const docs = population(600);
    await store.write(docs.map((d) => putUser(d)));
    const box: BBox = { minLng: 179.5, maxLng: 180.5, minLat: -60, maxLat: 60 };
    const before = { pages: await allPages(store, 'desc', 30), within: (await store.within(named('users'), scope, box, 1000)).map((d) => d._id).sort() };
    expect(before).toEqual({ pages: byUpdated(docs, 'desc'), within: inside(docs, box) });
    await store.close();

    store = await backend.open();
    await store.define(named('users', USERS));
    expect(await backend.indexes()).toEqual(['coll_users_cell', 'coll_users_key_deviceid', 'coll_users_unique_deviceid', 'coll_users_unique_userid', 'coll_users_updated_hour']);
    expect(await backend.staleCoarse()).toBe(0);
    expect({ pages: await allPages(store, 'desc', 30), within: (await store.within(named('users'), scope, box, 1000)).map((d) => d._id).sort() }).toEqual(before);
    await store.close();

    // Declared exact again, the coarse columns are no longer kept up to date (SQLite) or dropped
    // (PostgreSQL); a user moves to another hour and cell meanwhile.
    store = await backend.open();
    await store.define(named('users', EXACT));
    expect(await backend.indexes()).not.toContain('coll_users_updated_hour');
    const moved = user(3, new Date(BASE + 20 * 3600_000).toISOString(), 179.99, 0);
    await store.write([putUser(moved)]);
    const after = docs.map((d) => (d._id === moved._id ? moved : d));
    await store.close();

    store = await backend.open();
    await store.define(named('users', USERS));
    expect(await backend.staleCoarse()).toBe(0);
    expect(await allPages(store, 'desc', 30)).toEqual(byUpdated(after, 'desc'));
    expect((await store.within(named('users'), scope, box, 1000)).map((d) => d._id).sort()).toEqual(inside(after, box));
    expect((await store.list(named('users'), scope, { limit: 1, sortBy: 'updatedAt' })).docs[0]._id).toBe(moved._id);
  });

  test('updates within an hour and a cell, and out of them, keep revisions and their conflicts', async () => {
    await store.define(named('users', USERS));
    const t = (s: number): string => new Date(BASE + s * 1000).toISOString();
    await store.write([putUser(user(1, t(1), 10.001, 45.001), 0), putUser(user(2, t(2), 20, 45))]);
    // Within the hour and the cell (the light rewrite), then out of both (the full update), each at the
    // revision read; a stale revision is refused either way and changes nothing.
    await store.write([putUser(user(1, t(60), 10.002, 45.002), 1)]);
    await expect(store.write([putUser(user(1, t(61), 10.003, 45.003, { by: 'stale' }), 1)])).rejects.toBeInstanceOf(RevisionConflict);
    await expect(store.write([putUser(user(1, t(7200), 11, 46, { by: 'stale' }), 1)])).rejects.toBeInstanceOf(RevisionConflict);
    expect(await store.get(named('users'), scope, idOf(1))).toMatchObject({ updatedAt: t(60), _rev: 2 });
    await store.write([putUser(user(1, t(7200), 11, 46), 2)]);
    await expect(store.write([putUser(user(1, t(7201), 11, 46, { by: 'stale' }), 2)])).rejects.toBeInstanceOf(RevisionConflict);
    // A plain put over a moved user, and a put that must not find the user.
    await store.write([putUser(user(2, t(7300), 20.5, 45))]);
    await expect(store.write([putUser(user(2, t(7400), 20.5, 45), 0)])).rejects.toBeInstanceOf(RevisionConflict);
    expect([(await store.get(named('users'), scope, idOf(1)))?._rev, (await store.get(named('users'), scope, idOf(2)))?._rev]).toEqual([3, 2]);
    // The coarse columns followed every accepted write.
    expect(await backend.staleCoarse()).toBe(0);
    expect((await store.list(named('users'), scope, { limit: 5, sortBy: 'updatedAt' })).docs.map((d) => d._id)).toEqual([idOf(2), idOf(1)]);
    expect((await store.within(named('users'), scope, { minLng: 10.99, maxLng: 11.01, minLat: 45.99, maxLat: 46.01 }, 10)).map((d) => d._id)).toEqual([idOf(1)]);
  });
});

/** The page numbers of the frames appended to a WAL file after `from` bytes. */
function walPagesAfter(wal: string, from: number): number[] {
  const buf = fs.readFileSync(wal);
  const pageSize = buf.readUInt32BE(8);
  const pages: number[] = [];
  for (let at = Math.max(32, from); at + 24 + pageSize <= buf.length; at += 24 + pageSize) pages.push(buf.readUInt32BE(at));
  return pages;
}

describe('SQLite: an update within its hour and cell writes no index page', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-volatile-wal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Which of the table's B-trees the pages a write appends to the WAL belong to. */
  async function treesWritten(spec: CollectionSpec, update: (doc: Doc) => Doc, expectRev?: number): Promise<string[]> {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
    const store = new SqliteStore({ file });
    try {
      await store.define(named('users', spec));
      const docs = Array.from({ length: 400 }, (_, i) => user(i, new Date(BASE + i * 1000).toISOString(), 10 + i / 10_000, 45));
      await store.write(docs.map((d) => putUser(d)));
      const wal = `${file}-wal`;
      const size = fs.statSync(wal).size;
      await store.write([putUser(update(docs[200]), expectRev)]);
      const pages = new Set(walPagesAfter(wal, size));
      const db = new Database(file, { readonly: true });
      try {
        const owners = db.prepare("SELECT DISTINCT name FROM dbstat WHERE pageno = ? AND name LIKE 'coll_users%'");
        return [...new Set([...pages].flatMap((page) => (owners.all(page) as Array<{ name: string }>).map((r) => r.name)))].sort();
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  }

  const step = (doc: Doc, seconds: number, dLng: number, extra: Record<string, unknown> = {}): Doc => {
    const [lng, lat] = (doc.location as { coordinates: [number, number] }).coordinates;
    return { ...doc, ...extra, updatedAt: new Date(Date.parse(doc.updatedAt) + seconds * 1000).toISOString(), location: { type: 'Point', coordinates: [lng + dLng, lat] } };
  };

  test('rows an older version rewrote, not knowing the coarse columns, get them right at the next start', async () => {
    const file = path.join(dir, 'w.sqlite');
    let store = new SqliteStore({ file });
    await store.define(named('users', USERS));
    await store.write([putUser(user(1, new Date(BASE).toISOString(), 10, 45))]);
    await store.close();
    // What a version before volatile users does on this file: its exact index back, and a row rewritten
    // into another hour and cell by its own statement.
    const db = new Database(file);
    db.exec('CREATE INDEX coll_users_updated_at ON coll_users (project_id, live, updated_at)');
    const moved = user(1, new Date(BASE + 5 * 3600_000).toISOString(), 20, 50);
    db.prepare('UPDATE coll_users SET updated_at = ?, lng = 20, lat = 50, doc = ?, rev = rev + 1').run(moved.updatedAt, JSON.stringify(moved));
    db.close();
    store = new SqliteStore({ file });
    try {
      await store.define(named('users', USERS));
      expect((await store.within(named('users'), scope, { minLng: 19.99, maxLng: 20.01, minLat: 49.99, maxLat: 50.01 }, 10)).map((d) => d._id)).toEqual([idOf(1)]);
      expect((await store.list(named('users'), scope, { limit: 1, sortBy: 'updatedAt', ranges: [{ field: 'updatedAt', after: new Date(BASE + 3600_000).toISOString() }] })).docs.map((d) => d._id)).toEqual([idOf(1)]);
    } finally {
      await store.close();
    }
  });

  test('a plain put and a put at the read revision: only the table\'s pages', async () => {
    expect(await treesWritten(USERS, (d) => step(d, 30, 0.00001, { speed: 1 }))).toEqual(['coll_users']);
    expect(await treesWritten(USERS, (d) => step(d, 30, 0.00001, { speed: 1 }), 1)).toEqual(['coll_users']);
  });

  test('an update into another hour or cell writes the coarse indexes only, as exact indexes are written by every update', async () => {
    // One statement sets both coarse columns of a moved row, so both indexes take the change.
    const coarse = ['coll_users', 'coll_users_cell', 'coll_users_updated_hour'];
    expect(await treesWritten(USERS, (d) => step(d, 3600, 0))).toEqual(coarse);
    expect(await treesWritten(USERS, (d) => step(d, 1, 0.02), 1)).toEqual(coarse);
    // A key that changes is a full rewrite.
    expect(await treesWritten(USERS, (d) => step(d, 1, 0, { userId: 'someone else' }), 1)).toEqual(expect.arrayContaining(['coll_users_unique_userid']));
    const exact = await treesWritten(EXACT, (d) => step(d, 30, 0.00001));
    expect(exact).toContain('coll_users_updated_at');
    expect(exact).toContain('coll_users_point');
  });
});

const pgTest = DATABASE_URL ? test : test.skip;
pgTest('PostgreSQL: an update within its hour and cell is HOT', async () => {
  const hotUpdates = async (spec: CollectionSpec): Promise<{ updates: number; hot: number }> => {
    const schema = freshSchemaName();
    try {
      const store = await PostgresStore.open({ connectionString: DATABASE_URL as string, schema });
      try {
        await store.define(named('users', spec));
        const docs = Array.from({ length: 200 }, (_, i) => user(i, new Date(BASE + i * 1000).toISOString(), 10 + i / 10_000, 45, { notes: 'x'.repeat(300) }));
        await store.write(docs.map((d) => putUser(d)));
        for (let round = 1; round <= 3; round++) {
          // One write per update, as track makes them: the put at the revision read, and a plain put (an
          // upsert) in the last round. (One transaction rewriting every row of a page fills the page's
          // free space before any old version is dead and can be pruned.)
          for (const d of docs) {
            await store.write([putUser({ ...d, updatedAt: new Date(Date.parse(d.updatedAt) + round * 10_000).toISOString(), speed: round }, round < 3 ? round : undefined)]);
          }
        }
      } finally {
        await store.close();
      }
      // The store's connections are closed: their statistics have been reported, or are about to be.
      for (let tries = 0; ; tries++) {
        const row = await withClient(async (c) => (await c.query<{ updates: string; hot: string }>(
          "SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'coll_users'", [schema],
        )).rows[0]);
        if (Number(row?.updates) >= 600 || tries >= 100) return { updates: Number(row?.updates), hot: Number(row?.hot) };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await dropSchemas([schema]);
    }
  };
  expect(await hotUpdates(USERS)).toEqual({ updates: 600, hot: 600 });
  // The exact updated_at index changes with every update: none can be HOT.
  expect(await hotUpdates(EXACT)).toEqual({ updates: 600, hot: 0 });
});
