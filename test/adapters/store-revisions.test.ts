// Versioned collections (#14) on both stores: every put raises the document's revision and reads return
// it as `_rev`; a put expecting a revision that is no longer the stored one (changed, deleted, or "must
// not exist" when it does) fails with RevisionConflict and its whole write applies nothing, while writes
// committed beside it (a SQLite writer group) still commit. A collection declared versioned later keeps
// its rows, at revision 1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, remove, type CollectionSpec, type Doc, type Scope, type Store, type WriteOp } from '../../ports/store';
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { RevisionConflict } from '../../adapters/store/revision-conflict';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { announceSkip, envVar } from '../support/requires';
import { DATABASE_URL, dropSchemas, freshSchemaName } from './store-postgres-support';
import { named } from '../support/named-collection';

const USERS: CollectionSpec = { keys: ['userId', 'deviceId'], point: 'location', unique: [{ key: 'userId' }], versioned: true };
const PLAIN_USERS: CollectionSpec = { keys: ['userId', 'deviceId'], point: 'location', unique: [{ key: 'userId' }] };
const EVENTS: CollectionSpec = { keys: ['type', 'userRef'] };
const PRESENCE: CollectionSpec = { keys: ['geofenceId', 'userRef'] };
const scope: Scope = { projectId: 'p1', live: false };
const T0 = '2026-01-01T00:00:00.000Z';

function doc(id: string, fields: Record<string, unknown> = {}): Doc {
  return { _id: id, createdAt: T0, updatedAt: T0, ...fields };
}
const putUser = (d: Doc, expectRev?: number): WriteOp => (put(named('users'), scope, d, { ...(expectRev === undefined ? {} : { expectRev }) }));
const putEvent = (id: string): WriteOp => (put(named('events'), scope, doc(id, { type: 'user.entered_geofence', userRef: 'u' })));

interface Opened { open(): Promise<Store>; cleanup(): Promise<void> }

function sqliteFile(): Opened {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-rev-'));
  return { open: async () => new SqliteStore({ file: path.join(dir, 'w.sqlite') }), cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
function sqliteMemory(): Opened {
  // ':memory:' commits on the store's own thread (flushInThread): the same rules there.
  let store: SqliteStore | undefined;
  return { open: async () => (store ??= new SqliteStore({ file: ':memory:' })), cleanup: async () => undefined };
}
function postgres(): Opened {
  const schema = freshSchemaName();
  return { open: () => PostgresStore.open({ connectionString: DATABASE_URL as string, schema }), cleanup: () => dropSchemas([schema]) };
}

const cases: Array<[string, () => Opened]> = [['SQLite file', sqliteFile], ['SQLite in memory', sqliteMemory]];
if (DATABASE_URL) cases.push(['PostgreSQL', postgres]);
else announceSkip('store revisions on PostgreSQL', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));

// Volatile users (coarse indexes) rewrite their rows through other statements on SQLite: the same rules.
const specs: Array<[string, CollectionSpec]> = [['', USERS], [', volatile', { ...USERS, volatile: true }]];

describe.each(cases.flatMap(([name, make]) => specs.map(([variant, spec]) => [`${name}${variant}`, make, spec] as const)))('versioned collection on %s', (_name, make, spec) => {
  let db: Opened;
  let store: Store;
  beforeEach(async () => {
    db = make();
    store = await db.open();
    await store.define(named('users', spec));
    await store.define(named('events', EVENTS));
    await store.define(named('presence', PRESENCE));
  });
  afterEach(async () => {
    await store.close();
    await db.cleanup();
  });

  const revOf = async (id: string): Promise<unknown> => (await store.get(named('users'), scope, id))?._rev;

  test('every put raises the revision, every read returns it, the document never stores it', async () => {
    await store.write([putUser(doc('u1', { userId: 'a', deviceId: 'd1', location: { type: 'Point', coordinates: [2, 48] } }))]);
    expect(await revOf('u1')).toBe(1);
    // A stale _rev inside a document is not what the store keeps.
    await store.write([putUser(doc('u1', { userId: 'a', deviceId: 'd1', _rev: 40, location: { type: 'Point', coordinates: [2, 48] } }))]);
    // Keys changed: the put is a full rewrite rather than the light one, and still counts.
    await store.write([putUser(doc('u1', { userId: 'b', deviceId: 'd2', location: { type: 'Point', coordinates: [2, 48] } }))]);
    const reads: Array<[string, Promise<Doc | undefined>]> = [
      ['get', store.get(named('users'), scope, 'u1')],
      ['findOne', store.findOne(named('users'), scope, { userId: 'b' })],
      ['list', store.list(named('users'), scope, { limit: 5, sortBy: 'updatedAt' }).then((r) => r.docs[0])],
      ['within', store.within(named('users'), scope, { minLng: 1, minLat: 47, maxLng: 3, maxLat: 49 }, 5).then((r) => r[0])],
      ['scan', new Promise((resolve) => { void store.scan(named('users'), scope, (docs) => resolve(docs[0])); })],
    ];
    for (const [read, found] of reads) expect([read, (await found)?._rev]).toEqual([read, 3]);
    // Collections that are not versioned have no revision.
    await store.write([putEvent('e1')]);
    expect(await store.get(named('events'), scope, 'e1')).not.toHaveProperty('_rev');
  });

  test('findRef names the document findOne would return, with its revision, and a written json is what is read', async () => {
    const at = (t: string, fields: Record<string, unknown>) => ({ ...doc(fields._id as string), updatedAt: t, ...fields });
    expect(await store.findRef(named('users'), scope, { deviceId: 'd1' })).toBeUndefined();
    await store.write([putUser(at('2026-01-01T00:00:01.000Z', { _id: 'old', userId: 'a', deviceId: 'd1' }))]);
    // The newer of two users of one device, written twice.
    const newer = at('2026-01-01T00:00:02.000Z', { _id: 'new', userId: 'b', deviceId: 'd1' });
    await store.write([putUser(newer)]);
    await store.write([putUser({ ...newer, note: 'again' }, 1)]);
    expect(await store.findRef(named('users'), scope, { deviceId: 'd1' })).toEqual({ id: 'new', rev: 2 });
    expect((await store.findOne(named('users'), scope, { deviceId: 'd1' }))?._id).toBe('new');
    expect(await store.findRef(named('users'), scope, { userId: 'a' })).toEqual({ id: 'old', rev: 1 });
    expect(await store.findRef(named('events'), scope, { type: 'none' })).toBeUndefined();
    await store.write([putEvent('e1')]);
    expect(await store.findRef(named('events'), scope, { type: 'user.entered_geofence' })).toEqual({ id: 'e1', rev: undefined });
    // A put with its text made by the caller (WriteOp.json) stores that text, not the document serialised.
    const fromText = at('2026-01-01T00:00:03.000Z', { _id: 'txt', userId: 'c', deviceId: 'd3' });
    await store.write([put(named('users'), scope, fromText, { json: JSON.stringify({ ...fromText, note: 'from the text' }) })]);
    expect(await store.get(named('users'), scope, 'txt')).toEqual({ ...fromText, note: 'from the text', _rev: 1 });
  });

  test('a put at the stored revision applies and raises it', async () => {
    await store.write([putUser(doc('u1', { deviceId: 'd1' }), 0)]);
    expect(await revOf('u1')).toBe(1);
    await store.write([putUser(doc('u1', { deviceId: 'd1', n: 1 }), 1)]);
    // A full rewrite (a key changed) at the expected revision.
    await store.write([putUser(doc('u1', { deviceId: 'd1', userId: 'now-known', n: 2 }), 2)]);
    const stored = await store.get(named('users'), scope, 'u1');
    expect([stored?.n, stored?.userId, stored?._rev]).toEqual([2, 'now-known', 3]);
  });

  const refused: Array<{ name: string; before: WriteOp[]; expectRev: number }> = [
    { name: 'changed by another write', before: [putUser(doc('u1', { deviceId: 'd1' })), putUser(doc('u1', { deviceId: 'd1', by: 'other' }))], expectRev: 1 },
    { name: 'deleted', before: [putUser(doc('u1', { deviceId: 'd1' })), remove(named('users'), scope, 'u1')], expectRev: 1 },
    { name: 'never written', before: [], expectRev: 3 },
    { name: '"must not exist" but exists', before: [putUser(doc('u1', { deviceId: 'd1' }))], expectRev: 0 },
  ];
  test.each(refused)('a put expecting a revision the document no longer has ($name) applies nothing', async ({ before, expectRev }) => {
    for (const op of before) await store.write([op]);
    const rowBefore = await store.get(named('users'), scope, 'u1');
    await store.write([put(named('presence'), scope, doc('u1:g1', { geofenceId: 'g1', userRef: 'u1' }))]);
    // The rest of the write is what a track update writes with its user: events, presence in and out.
    const write = store.write([
      putUser(doc('u1', { deviceId: 'd1', by: 'stale' }), expectRev),
      putEvent('e1'),
      putEvent('e2'),
      remove(named('presence'), scope, 'u1:g1'),
      put(named('presence'), scope, doc('u1:g2', { geofenceId: 'g2', userRef: 'u1' })),
    ]);
    await expect(write).rejects.toBeInstanceOf(RevisionConflict);
    await expect(write).rejects.toMatchObject({ collection: 'users' });
    expect(await store.get(named('users'), scope, 'u1')).toEqual(rowBefore);
    expect(await store.get(named('events'), scope, 'e1')).toBeUndefined();
    expect(await store.get(named('events'), scope, 'e2')).toBeUndefined();
    expect(await store.get(named('presence'), scope, 'u1:g1')).toBeDefined();
    expect(await store.get(named('presence'), scope, 'u1:g2')).toBeUndefined();
  });

  test('writes issued together: the conflicting one applies nothing, the others commit', async () => {
    await store.write([putUser(doc('u1', { deviceId: 'd1' })), putUser(doc('u2', { deviceId: 'd2' }))]);
    // Issued without waiting, so that the SQLite writer takes several into one transaction.
    const writes: WriteOp[][] = [
      [putUser(doc('u2', { deviceId: 'd2', n: 1 }), 1), putEvent('a')],
      [putUser(doc('u1', { deviceId: 'd1', n: 1 }), 7), putEvent('b')],
      [putUser(doc('u3', { deviceId: 'd3' }), 0), putEvent('c')],
      [putEvent('d')],
    ];
    const outcomes = await Promise.allSettled(writes.map((ops) => store.write(ops)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RevisionConflict);
    expect(await store.get(named('events'), scope, 'b')).toBeUndefined();
    for (const id of ['a', 'c', 'd']) expect([id, await store.get(named('events'), scope, id)]).toEqual([id, expect.objectContaining({ _id: id })]);
    expect([await revOf('u1'), await revOf('u2'), await revOf('u3')]).toEqual([1, 2, 1]);
    expect((await store.get(named('users'), scope, 'u1'))?.n).toBeUndefined();
  });

  test('only a versioned collection takes an expected revision', async () => {
    await expect(store.write([put(named('events'), scope, doc('e1'), { expectRev: 0 })])).rejects.toThrow(/not versioned/);
  });
});

describe.each(cases.filter(([name]) => name !== 'SQLite in memory'))('a collection declared versioned later, on %s', (_name, make) => {
  test('keeps its rows, at revision 1', async () => {
    const db = make();
    const before = await db.open();
    try {
      await before.define(named('users', PLAIN_USERS));
      await before.write([putUser(doc('old', { userId: 'a', deviceId: 'd1' }))]);
    } finally {
      await before.close();
    }
    const after = await db.open();
    try {
      await after.define(named('users', USERS));
      expect(await after.get(named('users'), scope, 'old')).toMatchObject({ userId: 'a', _rev: 1 });
      await after.write([putUser(doc('old', { userId: 'a', deviceId: 'd1', n: 1 }), 1)]);
      await expect(after.write([putUser(doc('old', { userId: 'a', deviceId: 'd1', n: 2 }), 1)])).rejects.toBeInstanceOf(RevisionConflict);
      expect(await after.get(named('users'), scope, 'old')).toMatchObject({ n: 1, _rev: 2 });
    } finally {
      await after.close();
      await db.cleanup();
    }
  });
});
