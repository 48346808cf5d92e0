// What only the PostgreSQL store has to get right: locks that hold across processes (two stores = two
// pools = two gateway nodes), transactions that roll back on the server, migrations that run once however
// many nodes start together, and the PostGIS / btree choice. Plus a differential check against SQLite.
import { advisoryKey } from '../../adapters/store/postgres/advisory-key';
import { MIGRATIONS } from '../../adapters/store/postgres/migrations';
import { PostgresStore, type PostgresStoreOptions } from '../../adapters/store/postgres/postgres-store';
import { put, remove, type CollectionSpec, type Doc, type Scope, type WriteOp } from '../../ports/store';
import { postgis, requiresTest } from '../support/requires';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName, withClient } from './store-postgres-support';
import { named } from '../support/named-collection';

const d = describeWithPostgres();
// Without PostGIS on the server the store falls back to the btree and skips the PostGIS migration: the
// tests below expect what the server can give, and the upgrade test needs PostGIS itself.
const HAS_POSTGIS = process.env.WAYMARK_TEST_POSTGIS === 'yes';
const AUTO_SPATIAL = HAS_POSTGIS ? 'postgis' : 'btree';
const APPLIED = MIGRATIONS.filter((m) => HAS_POSTGIS || m.needs !== 'postgis').map((m) => m.version);

const SCOPE: Scope = { projectId: 'p1', live: false };
const USERS: CollectionSpec = { keys: ['userId', 'deviceId'], point: 'location' };
const COUNTERS: CollectionSpec = { keys: [] };

const schemas: string[] = [];
const stores: PostgresStore[] = [];

async function open(overrides: Partial<PostgresStoreOptions> = {}): Promise<PostgresStore> {
  const schema = overrides.schema ?? freshSchemaName();
  if (!schemas.includes(schema)) schemas.push(schema);
  const store = await PostgresStore.open({ connectionString: DATABASE_URL as string, ...overrides, schema });
  await store.define(named('users', USERS));
  await store.define(named('counters', COUNTERS));
  stores.push(store);
  return store;
}

afterAll(async () => {
  for (const s of stores) await s.close();
  await dropSchemas(schemas);
});

function doc(id: string, fields: Record<string, unknown> = {}): Doc {
  const at = '2026-01-01T00:00:00.000Z';
  return { _id: id, createdAt: at, updatedAt: at, ...fields };
}

const putIn = (collection: string, d: Doc): WriteOp => put(named(collection), SCOPE, d);

/** Resolves once a withLock() connection waits for an advisory lock it has not been granted. */
/** Gives a waiter time to be refused by pg_try_advisory_lock a few times (it polls, it never blocks). */
async function untilAdvisoryWaiter(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** A promise with its resolver, to hold a locked section open until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

d('PostgreSQL store: locks across stores (two nodes)', () => {
  let nodeA: PostgresStore;
  let nodeB: PostgresStore;
  beforeAll(async () => {
    nodeA = await open();
    nodeB = await open({ schema: nodeA.schema });
  });

  test('a second node waits for the lock on the same key until the first releases it', async () => {
    const log: string[] = [];
    const held = gate();
    const entered = gate();
    const first = nodeA.withLock('user:1', async () => {
      log.push('A in');
      entered.open();
      await held.opened;
      log.push('A out');
    });
    await entered.opened;
    const second = nodeB.withLock('user:1', async () => {
      log.push('B in');
    });
    await untilAdvisoryWaiter();
    expect(log).toEqual(['A in']);
    held.open();
    await Promise.all([first, second]);
    expect(log).toEqual(['A in', 'A out', 'B in']);
  });

  test('different keys do not block each other', async () => {
    const held = gate();
    const entered = gate();
    const first = nodeA.withLock('user:2', async () => {
      entered.open();
      await held.opened;
    });
    await entered.opened;
    await expect(nodeB.withLock('user:3', async () => 'ran')).resolves.toBe('ran');
    held.open();
    await first;
  });

  test('the same key in another schema is another lock', async () => {
    const other = await open();
    const held = gate();
    const entered = gate();
    const first = nodeA.withLock('user:4', async () => {
      entered.open();
      await held.opened;
    });
    await entered.opened;
    await expect(other.withLock('user:4', async () => 'ran')).resolves.toBe('ran');
    held.open();
    await first;
  });

  test('a section that throws releases its lock', async () => {
    await expect(nodeA.withLock('user:5', async () => {
      throw new Error('boom');
    })).rejects.toThrow('boom');
    await expect(nodeB.withLock('user:5', async () => 'after')).resolves.toBe('after');
  });

  test('read-modify-write under the lock loses no update across two nodes', async () => {
    await nodeA.write([putIn('counters', doc('c1', { n: 0 }))]);
    const bump = (store: PostgresStore) => store.withLock('counter:c1', async () => {
      const current = await store.get(named('counters'), SCOPE, 'c1');
      await store.write([putIn('counters', { ...(current as Doc), n: (current?.n as number) + 1 })]);
    });
    await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 === 0 ? nodeA : nodeB)));
    expect((await nodeA.get(named('counters'), SCOPE, 'c1'))?.n).toBe(40);
  });

  test('many sections at once on a few keys: one holder per key across nodes, and every lock freed after', async () => {
    // The lock session batches its requests and frees locks without the caller waiting: a lost or
    // misordered unlock would show here as two holders, or as a lock still held at the end.
    const keys = ['storm:a', 'storm:b', 'storm:c'];
    const holders = new Map<string, number>();
    let most = 0;
    let ran = 0;
    const section = (store: PostgresStore, key: string) => store.withLock(key, async () => {
      const now = (holders.get(key) ?? 0) + 1;
      holders.set(key, now);
      most = Math.max(most, now);
      await new Promise((resolve) => setImmediate(resolve));
      holders.set(key, now - 1);
      ran++;
    });
    await Promise.all(Array.from({ length: 120 }, (_, i) => section(i % 2 === 0 ? nodeA : nodeB, keys[i % 3])));
    expect(ran).toBe(120);
    expect(most).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the last unlocks are not awaited by withLock
    const ids = keys.map((k) => BigInt.asUintN(64, BigInt(advisoryKey(`waymark:lock:${nodeA.schema}\u0000${k}`))));
    const held = await withClient(async (c) => (await c.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = ANY($1::bigint[])`,
      [ids.map((id) => BigInt.asIntN(64, id).toString())],
    )).rows[0].n);
    expect(Number(held)).toBe(0);
    const impatient = await open({ schema: nodeA.schema, lockTimeoutMs: 100 });
    for (const key of keys) await expect(impatient.withLock(key, async () => key)).resolves.toBe(key);
  });

  test('waiting longer than lockTimeoutMs fails with the key in the message', async () => {
    const impatient = await open({ schema: nodeA.schema, lockTimeoutMs: 100 });
    const held = gate();
    const entered = gate();
    const first = nodeA.withLock('user:6', async () => {
      entered.open();
      await held.opened;
    });
    await entered.opened;
    await expect(impatient.withLock('user:6', async () => 'never')).rejects.toThrow(/withLock\("user:6"\).*lock timeout/);
    held.open();
    await first;
    await expect(impatient.withLock('user:6', async () => 'later')).resolves.toBe('later');
  });
});

d('PostgreSQL store: write()', () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = await open();
  });

  test('a failure on the server rolls back every earlier op of the batch', async () => {
    await store.write([putIn('users', doc('keep', { userId: 'k' }))]);
    // jsonb refuses the NUL character, so the last op fails inside the transaction, after the others ran.
    const ops: WriteOp[] = [
      putIn('users', doc('new-1')),
      remove(named('users'), SCOPE, 'keep'),
      putIn('users', doc('new-2')),
      putIn('users', doc('bad', { name: 'nul \u0000 inside' })),
    ];
    await expect(store.write(ops)).rejects.toThrow();
    expect(await store.get(named('users'), SCOPE, 'new-1')).toBeUndefined();
    expect(await store.get(named('users'), SCOPE, 'new-2')).toBeUndefined();
    expect(await store.get(named('users'), SCOPE, 'keep')).toMatchObject({ userId: 'k' });
  });

  test.each([
    ['put twice: the later one wins', [doc('dup', { v: 1 }), doc('dup', { v: 2 })], { v: 2 }],
    ['put, other, put again', [doc('dup2', { v: 1 }), doc('other'), doc('dup2', { v: 3 })], { v: 3 }],
  ])('the same document twice in one batch (%s)', async (_name, docs, expected) => {
    await store.write(docs.map((x) => putIn('users', x)));
    expect(await store.get(named('users'), SCOPE, docs[0]._id)).toMatchObject(expected);
  });

  test('put, delete, put of one id in one batch leaves the last put', async () => {
    await store.write([
      putIn('users', doc('cycle', { v: 1 })),
      remove(named('users'), SCOPE, 'cycle'),
      putIn('users', doc('cycle', { v: 2 })),
    ]);
    expect(await store.get(named('users'), SCOPE, 'cycle')).toMatchObject({ v: 2 });
  });

  test('an undefined collection is refused before anything is written', async () => {
    await expect(store.write([putIn('users', doc('first')), putIn('nowhere', doc('x'))])).rejects.toThrow('collection nowhere is not defined');
    expect(await store.get(named('users'), SCOPE, 'first')).toBeUndefined();
  });

  test('scan() returns every document once, in batches of at most 1000', async () => {
    const scope: Scope = { projectId: 'scan', live: true };
    const ids = Array.from({ length: 1003 }, (_, i) => `s${String(i).padStart(5, '0')}`);
    await store.write(ids.map((id) => (put(named('users'), scope, doc(id)))));
    const batches: number[] = [];
    const seen: string[] = [];
    await store.scan(named('users'), scope, (docs) => {
      batches.push(docs.length);
      seen.push(...docs.map((x) => x._id));
    });
    expect(batches).toEqual([1000, 3]);
    expect(seen).toEqual(ids);
  });
});

d('PostgreSQL store: migrations', () => {
  test('opening a schema again applies nothing and keeps the data', async () => {
    const first = await open();
    await first.write([putIn('users', doc('still-here'))]);
    const again = await open({ schema: first.schema });
    expect(await again.get(named('users'), SCOPE, 'still-here')).toBeDefined();
    const versions = await withClient(async (c) =>
      (await c.query<{ version: number }>(`SELECT version FROM "${first.schema}".schema_migrations ORDER BY version`)).rows.map((r) => r.version));
    expect(versions).toEqual(APPLIED);
  });

  test('nodes starting together on an empty schema migrate it exactly once', async () => {
    const schema = freshSchemaName();
    const opened = await Promise.all([open({ schema }), open({ schema }), open({ schema })]);
    expect(opened.map((s) => s.spatial)).toEqual([AUTO_SPATIAL, AUTO_SPATIAL, AUTO_SPATIAL]);
    const rows = await withClient(async (c) => (await c.query(`SELECT version FROM "${schema}".schema_migrations`)).rowCount);
    expect(rows).toBe(APPLIED.length);
  });

  requiresTest('PostgreSQL store: PostGIS upgrade of a btree schema', postgis())('a schema made without PostGIS gains the spatial index when opened with it', async () => {
    const plain = await open({ spatial: 'btree' });
    expect(plain.spatial).toBe('btree');
    expect(plain.spatialReason).toBe('disabled by configuration');
    await plain.write([putIn('users', doc('u', { location: { type: 'Point', coordinates: [2.35, 48.85] } }))]);
    const hasGeom = async (): Promise<boolean> => withClient(async (c) => ((await c.query(
      "SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'coll_users' AND column_name = 'geom'", [plain.schema],
    )).rowCount ?? 0) > 0);
    expect(await hasGeom()).toBe(false);
    const upgraded = await open({ schema: plain.schema });
    expect(upgraded.spatial).toBe('postgis');
    expect(await hasGeom()).toBe(true);
    const box = { minLng: 2, minLat: 48, maxLng: 3, maxLat: 49 };
    expect((await upgraded.within(named('users'), SCOPE, box, 10)).map((x) => x._id)).toEqual(['u']);
  });

  test.each([
    ['upper case', 'Waymark'],
    ['a quote', 'way"mark'],
    ['a leading digit', '1waymark'],
    ['a dot', 'public.docs'],
  ])('a schema name with %s is refused', async (_name, schema) => {
    await expect(PostgresStore.open({ connectionString: DATABASE_URL as string, schema })).rejects.toThrow(/schema name .* is not allowed/);
  });

  test('an unreachable server is named in the error, without its password', async () => {
    await expect(PostgresStore.open({ connectionString: 'postgres://waymark:s3cret@127.0.0.1:1/nowhere' }))
      .rejects.toThrow(/^PostgreSQL at waymark@127\.0\.0\.1:1\/nowhere is unreachable: .*ECONNREFUSED/);
    await expect(PostgresStore.open({ connectionString: 'postgres://waymark:s3cret@127.0.0.1:1/nowhere' }))
      .rejects.not.toThrow(/s3cret/);
  });
});

d('PostgreSQL store: within() on PostGIS and on the btree', () => {
  let gist: PostgresStore;
  let btree: PostgresStore;
  // Points on a 0.1° grid around the antimeridian-free origin, plus points exactly on the query edges.
  const points: Array<[string, number, number]> = [];
  for (let i = -5; i <= 5; i++) for (let j = -5; j <= 5; j++) points.push([`g${i}_${j}`, i / 10, j / 10]);
  points.push(['edge-min', -0.25, -0.15], ['edge-max', 0.25, 0.15], ['tiny-outside', 0.25 + 1e-12, 0]);

  beforeAll(async () => {
    gist = await open();
    btree = await open({ spatial: 'btree' });
    const ops = points.map(([id, lng, lat]) => putIn('users', doc(id, { location: { type: 'Point', coordinates: [lng, lat] }, metadata: { even: (Math.round(lng * 10) % 2) === 0 } })));
    await gist.write(ops);
    await btree.write(ops);
  });

  test('the two stores report which index they use', () => {
    expect([gist.spatial, btree.spatial]).toEqual([AUTO_SPATIAL, 'btree']);
  });

  test.each([
    ['box with points on its edges', { minLng: -0.25, minLat: -0.15, maxLng: 0.25, maxLat: 0.15 }, {}],
    ['box a hair narrower than a grid line', { minLng: 0.1000000001, minLat: -1, maxLng: 0.3, maxLat: 1 }, {}],
    ['empty box (min above max)', { minLng: 0.3, minLat: 0, maxLng: 0.1, maxLat: 0.1 }, {}],
    ['box with a metadata filter', { minLng: -1, minLat: -1, maxLng: 1, maxLat: 1 }, { metadata: { even: true } }],
  ])('%s: same answer from both indexes, and the exact one', async (_name, box, query) => {
    const expected = points
      .filter(([, lng, lat]) => lng >= box.minLng && lng <= box.maxLng && lat >= box.minLat && lat <= box.maxLat)
      .filter(([, lng]) => !('metadata' in query) || Math.round(lng * 10) % 2 === 0)
      .map(([id]) => id).sort();
    const fromGist = (await gist.within(named('users'), SCOPE, box, 1000, query)).map((x) => x._id).sort();
    const fromBtree = (await btree.within(named('users'), SCOPE, box, 1000, query)).map((x) => x._id).sort();
    expect(fromGist).toEqual(expected);
    expect(fromBtree).toEqual(expected);
  });
});
