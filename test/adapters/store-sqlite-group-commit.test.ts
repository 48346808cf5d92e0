// The SQLite adapter's group commit: writes issued in the same turn share one transaction, yet each
// stays all-or-nothing on its own and one failing write never fails or half-applies the others.
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import type { Doc, Scope, WriteOp } from '../../adapters/store/port';

const scope: Scope = { projectId: 'p', live: false };

function doc(id: string, fields: Record<string, unknown> = {}): Doc {
  return { _id: id, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields };
}

function put(id: string, fields: Record<string, unknown> = {}): WriteOp {
  return { op: 'put', collection: 'things', scope, doc: doc(id, fields) };
}

const undefinedCollection: WriteOp = { op: 'put', collection: 'never_defined', scope, doc: doc('x') };

describe('SQLite group commit', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = new SqliteStore({ file: ':memory:' });
    await store.define('things', { keys: ['tag'] });
    await store.write([put('kept', { v: 'original', tag: 'a' })]);
  });
  afterEach(() => store.close());

  const cases: Array<{ name: string; failingAt: number }> = [
    { name: 'the failing write is first of the turn', failingAt: 0 },
    { name: 'the failing write is in the middle of the turn', failingAt: 1 },
    { name: 'the failing write is last of the turn', failingAt: 2 },
  ];
  test.each(cases)('$name: the others commit, the failing one leaves nothing', async ({ failingAt }) => {
    const writes: WriteOp[][] = [
      [put('a1', { tag: 'x' }), put('a2')],
      [put('b1'), put('b2', { tag: 'y' })],
      [put('c1'), { op: 'delete', collection: 'things', scope, id: 'c-none' }],
    ];
    // The failing write first changes a stored row and adds one, then hits an undefined collection.
    writes[failingAt] = [put('kept', { v: 'changed', tag: 'b' }), put('doomed'), undefinedCollection];
    const outcomes = await Promise.allSettled(writes.map((ops) => store.write(ops)));

    expect(outcomes.map((o) => o.status)).toEqual(writes.map((_, i) => (i === failingAt ? 'rejected' : 'fulfilled')));
    const expectedIds = ['a1', 'a2', 'b1', 'b2', 'c1'].filter((id) => !id.startsWith('abc'[failingAt]));
    const stored = await Promise.all(expectedIds.map((id) => store.get('things', scope, id)));
    expect(stored.map((d) => d?._id)).toEqual(expectedIds);
    expect(await store.get('things', scope, 'doomed')).toBeUndefined();
    expect((await store.get('things', scope, 'kept'))?.v).toBe('original');
    expect((await store.findOne('things', scope, { tag: 'b' }))).toBeUndefined();
    expect((await store.findOne('things', scope, { tag: 'a' }))?._id).toBe('kept');
  });

  test('a put that changes a key, the creation time or nothing but the body is found by its new values', async () => {
    await store.write([put('kept', { v: 'body only', tag: 'a' })]);
    expect((await store.findOne('things', scope, { tag: 'a' }))?.v).toBe('body only');
    await store.write([put('kept', { v: 'new key', tag: 'c' })]);
    expect([await store.findOne('things', scope, { tag: 'a' }), (await store.findOne('things', scope, { tag: 'c' }))?.v]).toEqual([undefined, 'new key']);
    const older = { ...doc('kept', { tag: 'c' }), createdAt: '2025-01-01T00:00:00.000Z' };
    await store.write([{ op: 'put', collection: 'things', scope, doc: older }]);
    const { docs } = await store.list('things', scope, { limit: 1, sortBy: 'createdAt', order: 'asc', ranges: [{ field: 'createdAt', before: '2025-06-01T00:00:00.000Z' }] });
    expect(docs.map((d) => d._id)).toEqual(['kept']);
  });
});
