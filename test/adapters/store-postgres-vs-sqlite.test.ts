// Differential check: the same seeded history of writes goes to the SQLite store (the reference) and to the
// PostgreSQL store, then every query in the table must answer the same on both — orderings with ties,
// byte-order ids (upper/lower case, punctuation, non-ASCII), indexed keys given as numbers, type-aware
// metadata, date ranges, boxes, due rows, scopes and scans.
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { put, remove, type BBox, type CollectionSpec, type Doc, type ListQuery, type Scope, type Store, type WriteOp } from '../../ports/store';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName } from './store-postgres-support';
import { prng as random } from '../../bench/support/prng';
import { named } from '../support/named-collection';

const d = describeWithPostgres();

const SPECS: Record<string, CollectionSpec> = {
  users: { keys: ['userId', 'deviceId'], point: 'location' },
  jobs: { keys: ['state'], due: 'runAt' },
};
const SCOPES: Scope[] = [
  { projectId: 'p1', live: false },
  { projectId: 'p1', live: true },
  { projectId: 'P1', live: false },
];

function history(): WriteOp[] {
  const rnd = random(20260607);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const ID_CHARS = ['A', 'a', 'Z', 'z', '_', '-', '0', '9', '.', 'é', 'Ω', '😀', '~'];
  const TIMES = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-03-05T12:30:00.000Z', '2026-03-05T12:30:00.000Z', '2025-12-31T23:59:59.999Z'];
  const ops: WriteOp[] = [];
  const ids = new Set<string>();
  for (let i = 0; i < 400; i++) {
    let id = '';
    const length = 1 + Math.floor(rnd() * 4);
    for (let c = 0; c < length; c++) id += pick(ID_CHARS);
    ids.add(id);
    const scope = pick(SCOPES);
    const doc: Doc = {
      _id: id,
      createdAt: pick(TIMES),
      updatedAt: pick(TIMES),
      userId: pick(['u1', 'u2', '10', '2', 'U1']),
      metadata: { color: pick(['red', 'blue']), n: pick([1, 2, 1.5]), flag: pick([true, false, 'true']), s: pick(['1', 1]) },
    };
    const device = pick(['d1', 'd2', null, undefined, 7]);
    if (device !== undefined) doc.deviceId = device;
    if (rnd() < 0.8) doc.location = { type: 'Point', coordinates: [Math.round(rnd() * 20 - 10) / 10, Math.round(rnd() * 20 - 10) / 10] };
    const plan = pick(['a', 'b', undefined]);
    if (plan !== undefined) doc.plan = plan;
    doc.tier = pick([1, 2, '2']);
    ops.push(put(named('users'), scope, doc));
    if (rnd() < 0.5) {
      const runAt = rnd() < 0.8 ? new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() : 12345;
      ops.push(put(named('jobs'), scope, { _id: `job-${i}`, createdAt: TIMES[0], updatedAt: TIMES[0], state: pick(['new', 'done']), runAt }));
    }
  }
  // Overwrites and deletes, some of ids that exist in another scope only.
  for (const id of [...ids].slice(0, 60)) {
    ops.push(rnd() < 0.5
      ? remove(named('users'), pick(SCOPES), id)
      : put(named('users'), pick(SCOPES), { _id: id, createdAt: TIMES[1], updatedAt: TIMES[2], userId: 'u2', metadata: { color: 'green' } }));
  }
  return ops;
}

const LISTS: Array<[string, ListQuery]> = [
  ['newest updated', { limit: 1000, sortBy: 'updatedAt' }],
  ['oldest created', { limit: 1000, sortBy: 'createdAt', order: 'asc' }],
  ['a page of 7 with more', { limit: 7, sortBy: 'updatedAt' }],
  ['created before and after', { limit: 1000, sortBy: 'createdAt', ranges: [{ field: 'createdAt', after: '2025-12-31T23:59:59.999Z', before: '2026-03-05T12:30:00.000Z' }] }],
  ['updated after', { limit: 1000, sortBy: 'updatedAt', order: 'asc', ranges: [{ field: 'updatedAt', after: '2026-01-01T00:00:00.000Z' }] }],
  ['indexed key', { limit: 1000, sortBy: 'updatedAt', equals: { userId: 'u1' } }],
  ['indexed key, any of', { limit: 1000, sortBy: 'updatedAt', equals: { userId: ['u1', '10'] } }],
  ['indexed key given as a number', { limit: 1000, sortBy: 'updatedAt', equals: { userId: 10 } }],
  ['indexed key holding a number', { limit: 1000, sortBy: 'updatedAt', equals: { deviceId: '7' } }],
  ['indexed key, empty any-of', { limit: 1000, sortBy: 'updatedAt', equals: { deviceId: [] } }],
  ['two indexed keys', { limit: 1000, sortBy: 'createdAt', equals: { userId: 'u2', deviceId: 'd1' } }],
  ['unindexed field', { limit: 1000, sortBy: 'updatedAt', equals: { plan: 'a' } }],
  ['unindexed number is not its string', { limit: 1000, sortBy: 'updatedAt', equals: { tier: 2 } }],
  ['unindexed string is not its number', { limit: 1000, sortBy: 'updatedAt', equals: { tier: '2' } }],
  ['metadata string', { limit: 1000, sortBy: 'updatedAt', metadata: { color: 'red' } }],
  ['metadata number', { limit: 1000, sortBy: 'updatedAt', metadata: { n: 1.5 } }],
  ['metadata true is not "true"', { limit: 1000, sortBy: 'updatedAt', metadata: { flag: true } }],
  ['metadata "true" is not true', { limit: 1000, sortBy: 'updatedAt', metadata: { flag: 'true' } }],
  ['metadata "1" is not 1', { limit: 1000, sortBy: 'updatedAt', metadata: { s: '1' } }],
  ['metadata 1 is not "1"', { limit: 1000, sortBy: 'updatedAt', metadata: { s: 1 } }],
  ['metadata missing key', { limit: 1000, sortBy: 'updatedAt', metadata: { absent: 'x' } }],
  ['everything at once', { limit: 5, sortBy: 'createdAt', order: 'asc', equals: { userId: ['u1', 'u2'] }, metadata: { color: 'blue', n: 2 } }],
];

const BOXES: Array<[string, BBox, Pick<ListQuery, 'metadata' | 'equals'>]> = [
  ['whole grid', { minLng: -1, minLat: -1, maxLng: 1, maxLat: 1 }, {}],
  ['grid lines on the edges', { minLng: -0.3, minLat: -0.2, maxLng: 0.3, maxLat: 0.2 }, {}],
  ['with filters', { minLng: -0.5, minLat: -0.5, maxLng: 0.5, maxLat: 0.5 }, { metadata: { color: 'red' }, equals: { userId: 'u1' } }],
];

const byId = (docs: Doc[]): Doc[] => [...docs].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));

d('PostgreSQL store answers like the SQLite store', () => {
  const schema = freshSchemaName();
  let sqlite: Store;
  let postgres: Store;

  beforeAll(async () => {
    sqlite = new SqliteStore({ file: ':memory:' });
    postgres = await PostgresStore.open({ connectionString: DATABASE_URL as string, schema });
    for (const store of [sqlite, postgres]) {
      for (const [name, spec] of Object.entries(SPECS)) await store.define(named(name, spec));
      const ops = history();
      // In several batches, so single puts, multi-row runs and deletes all occur.
      for (let i = 0; i < ops.length; i += 37) await store.write(ops.slice(i, i + 37));
    }
  });

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
    await dropSchemas([schema]);
  });

  describe.each(SCOPES.map((s) => [`${s.projectId}/${s.live ? 'live' : 'test'}`, s] as const))('scope %s', (_name, scope) => {
    test.each(LISTS)('list: %s', async (_q, query) => {
      const expected = await sqlite.list(named('users'), scope, query);
      expect(await postgres.list(named('users'), scope, query)).toEqual(expected);
    });

    // Two stores that both answer nothing would agree above; the histories must give each scope users to compare.
    test('the lists compared are not all empty', async () => {
      let found = 0;
      for (const [, query] of LISTS) found += (await sqlite.list(named('users'), scope, query)).docs.length;
      expect(found).toBeGreaterThan(0);
    });

    test.each(BOXES)('within: %s', async (_q, box, query) => {
      const expected = byId(await sqlite.within(named('users'), scope, box, 1000, query));
      expect(byId(await postgres.within(named('users'), scope, box, 1000, query))).toEqual(expected);
    });

    test.each([
      ['one key', { userId: 'u2' }],
      ['two keys', { userId: 'u1', deviceId: 'd2' }],
      ['no match', { userId: 'nobody' }],
    ])('findOne: %s', async (_q, match) => {
      expect(await postgres.findOne(named('users'), scope, match)).toEqual(await sqlite.findOne(named('users'), scope, match));
    });

    test('scan: every document, in id order', async () => {
      const collect = async (store: Store): Promise<Doc[]> => {
        const all: Doc[] = [];
        await store.scan(named('users'), scope, (docs) => all.push(...docs));
        return all;
      };
      const expected = await collect(sqlite);
      expect(expected.length).toBeGreaterThan(50);
      expect(await collect(postgres)).toEqual(expected);
    });
  });

  test.each([
    ['before everything', '2025-01-01T00:00:00.000Z', 50],
    ['part of the day', '2026-01-01T03:00:00.000Z', 500],
    ['a limited page', '2026-12-31T00:00:00.000Z', 10],
  ])('due: %s', async (_q, at, limit) => {
    expect(await postgres.due(named('jobs'), at, limit)).toEqual(await sqlite.due(named('jobs'), at, limit));
  });

  test('scopes: the same set', async () => {
    const key = (s: Scope): string => `${s.projectId}/${s.live}`;
    const expected = (await sqlite.scopes(named('users'))).map(key).sort();
    expect(expected).toHaveLength(3);
    expect((await postgres.scopes(named('users'))).map(key).sort()).toEqual(expected);
  });
});
