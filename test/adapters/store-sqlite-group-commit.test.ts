// The SQLite adapter's group commit: writes issued together share one transaction, yet each stays
// all-or-nothing on its own and one failing write never fails or half-applies the others. On a file the
// writer thread commits them (sqlite-writer.ts); in memory the store's own thread does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { put, remove, type Doc, type Scope, type WriteOp } from '../../ports/store';
import { UniqueViolation } from '../../adapters/store/unique-violation';
import { named } from '../support/named-collection';

const scope: Scope = { projectId: 'p', live: false };

function doc(id: string, fields: Record<string, unknown> = {}): Doc {
  return { _id: id, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields };
}

const THINGS = named('things');

function putThing(id: string, fields: Record<string, unknown> = {}): WriteOp {
  return put(THINGS, scope, doc(id, fields));
}

const undefinedCollection: WriteOp = put(named('never_defined'), scope, doc('x'));
// Fails inside the transaction, not while the write is prepared: a second document with a unique key taken.
const takenKey: WriteOp = put(THINGS, scope, doc('twin', { serial: 'S1' }));

describe.each(['memory', 'file'])('SQLite group commit (%s)', (where) => {
  let store: SqliteStore;
  let dir: string | undefined;
  beforeEach(async () => {
    dir = where === 'file' ? fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-group-')) : undefined;
    store = new SqliteStore({ file: dir ? path.join(dir, 'w.sqlite') : ':memory:' });
    await store.define(named('things', { keys: ['tag', 'serial'], unique: [{ key: 'serial' }] }));
    await store.write([putThing('kept', { v: 'original', tag: 'a' }), putThing('holder', { serial: 'S1' })]);
  });
  afterEach(async () => {
    await store.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; failingAt: number; failing: WriteOp }> = [];
  for (const [kind, failing] of [['an undefined collection', undefinedCollection], ['a unique key taken', takenKey]] as const) {
    cases.push(
      { name: `${kind}, first of the group`, failingAt: 0, failing },
      { name: `${kind}, in the middle of the group`, failingAt: 1, failing },
      { name: `${kind}, last of the group`, failingAt: 2, failing },
    );
  }
  test.each(cases)('$name: the others commit, the failing one leaves nothing', async ({ failingAt, failing }) => {
    const writes: WriteOp[][] = [
      [putThing('a1', { tag: 'x' }), putThing('a2')],
      [putThing('b1'), putThing('b2', { tag: 'y' })],
      [putThing('c1'), remove(THINGS, scope, 'c-none')],
    ];
    // The failing write first changes a stored row and adds one, then fails.
    writes[failingAt] = [putThing('kept', { v: 'changed', tag: 'b' }), putThing('doomed'), failing];
    const outcomes = await Promise.allSettled(writes.map((ops) => store.write(ops)));

    expect(outcomes.map((o) => o.status)).toEqual(writes.map((_, i) => (i === failingAt ? 'rejected' : 'fulfilled')));
    // A taken key reaches the caller as the store-neutral UniqueViolation, whichever thread committed.
    if (failing === takenKey) expect((outcomes[failingAt] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueViolation);
    const expectedIds = ['a1', 'a2', 'b1', 'b2', 'c1'].filter((id) => !id.startsWith('abc'[failingAt]));
    const stored = await Promise.all(expectedIds.map((id) => store.get(named('things'), scope, id)));
    expect(stored.map((d) => d?._id)).toEqual(expectedIds);
    expect(await store.get(named('things'), scope, 'doomed')).toBeUndefined();
    expect((await store.get(named('things'), scope, 'kept'))?.v).toBe('original');
    expect((await store.findOne(named('things'), scope, { tag: 'b' }))).toBeUndefined();
    expect((await store.findOne(named('things'), scope, { tag: 'a' }))?._id).toBe('kept');
  });

  test('a put that changes a key, the creation time or nothing but the body is found by its new values', async () => {
    await store.write([putThing('kept', { v: 'body only', tag: 'a' })]);
    expect((await store.findOne(named('things'), scope, { tag: 'a' }))?.v).toBe('body only');
    await store.write([putThing('kept', { v: 'new key', tag: 'c' })]);
    expect([await store.findOne(named('things'), scope, { tag: 'a' }), (await store.findOne(named('things'), scope, { tag: 'c' }))?.v]).toEqual([undefined, 'new key']);
    const older = { ...doc('kept', { tag: 'c' }), createdAt: '2025-01-01T00:00:00.000Z' };
    await store.write([put(THINGS, scope, older)]);
    const { docs } = await store.list(named('things'), scope, { limit: 1, sortBy: 'createdAt', order: 'asc', ranges: [{ field: 'createdAt', before: '2025-06-01T00:00:00.000Z' }] });
    expect(docs.map((d) => d._id)).toEqual(['kept']);
  });
});
