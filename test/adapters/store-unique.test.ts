// Declared unique keys (#10.2) on both stores: a twin write is refused with UniqueViolation and changes
// nothing; the `whenAbsent` rule only covers documents without the other key; and a database that
// already holds duplicates (written before the rule) still opens, with a warning instead of the index.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, type CollectionSpec, type Store } from '../../ports/store';
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { UniqueViolation } from '../../adapters/store/unique-violation';
import { DATABASE_URL, dropSchemas, freshSchemaName } from './store-postgres-support';
import { announceSkip, envVar } from '../support/requires';
import { named } from '../support/named-collection';

const USERS: CollectionSpec = { keys: ['userId', 'deviceId'], unique: [{ key: 'userId' }, { key: 'deviceId', whenAbsent: 'userId' }] };
const PLAIN: CollectionSpec = { keys: ['userId', 'deviceId'] };
const scope = { projectId: 'p1', live: false };
const user = (id: string, fields: Record<string, unknown>) => ({ _id: id.padEnd(24, '0'), createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields });

interface Opened { open(): Promise<Store>; cleanup(): Promise<void> }

function sqlite(): Opened {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-unique-'));
  return { open: async () => new SqliteStore({ file: path.join(dir, 'w.sqlite') }), cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
function postgres(): Opened {
  const schema = freshSchemaName();
  return { open: () => PostgresStore.open({ connectionString: DATABASE_URL as string, schema }), cleanup: () => dropSchemas([schema]) };
}

if (!DATABASE_URL) announceSkip('unique keys: the PostgreSQL half', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
const cases: Array<[string, () => Opened]> = [['sqlite', sqlite], ...(DATABASE_URL ? [['postgres', postgres] as [string, () => Opened]] : [])];

describe.each(cases)('unique keys on %s', (_name, make) => {
  test('twins are refused, the rule is scoped and partial', async () => {
    const db = make();
    const store = await db.open();
    try {
      await store.define(named('users', USERS));
      await store.write([put(named('users'), scope, user('a', { userId: 'u1', deviceId: 'd1' }))]);
      const twin = store.write([put(named('users'), scope, user('b', { userId: 'u1', deviceId: 'd2' }))]);
      await expect(twin).rejects.toBeInstanceOf(UniqueViolation);
      expect(await store.get(named('users'), scope, user('b', {})._id)).toBeUndefined();
      // Same userId in the other environment, and a second user on one device when both have userIds: allowed.
      await store.write([put(named('users'), { ...scope, live: true }, user('c', { userId: 'u1', deviceId: 'd1' }))]);
      await store.write([put(named('users'), scope, user('d', { userId: 'u2', deviceId: 'd1' }))]);
      // Devices are unique among users without a userId.
      await store.write([put(named('users'), scope, user('e', { deviceId: 'd9' }))]);
      await expect(store.write([put(named('users'), scope, user('f', { deviceId: 'd9' }))])).rejects.toBeInstanceOf(UniqueViolation);
      // Rewriting the same document is not a twin.
      await store.write([put(named('users'), scope, { ...user('e', { deviceId: 'd9' }), updatedAt: '2026-01-02T00:00:00.000Z' })]);
      expect(store.warnings).toEqual([]);
    } finally {
      await store.close();
      await db.cleanup();
    }
  });

  test('an upgraded database holding twins still opens and says why the rule is off', async () => {
    const db = make();
    const before = await db.open();
    await before.define(named('users', PLAIN));
    await before.write([
      put(named('users'), scope, user('a', { userId: 'u1', deviceId: 'd1' })),
      put(named('users'), scope, user('b', { userId: 'u1', deviceId: 'd2' })),
    ]);
    await before.close();
    const after = await db.open();
    try {
      await after.define(named('users', USERS));
      expect(after.warnings).toEqual([expect.stringMatching(/^users\.userId is not enforced unique: existing duplicates/)]);
      // The other rule holds, and the data is intact.
      expect((await after.list(named('users'), scope, { limit: 10, sortBy: 'createdAt' })).docs).toHaveLength(2);
      await after.write([put(named('users'), scope, user('e', { deviceId: 'd9' }))]);
      await expect(after.write([put(named('users'), scope, user('f', { deviceId: 'd9' }))])).rejects.toBeInstanceOf(UniqueViolation);
    } finally {
      await after.close();
      await db.cleanup();
    }
  });
});
