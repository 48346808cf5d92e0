// The SQLite store keeps each collection in its own table with only the indexes its declaration asks
// for (adapters/store/collection-table.ts), and moves the documents of a database written by an
// earlier version (one shared `docs` table) into those tables when the collection is defined.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { put, type Scope } from '../../ports/store';
import { MIGRATIONS } from '../../adapters/store/sqlite/migrations';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { CORE_COLLECTIONS } from '../../server/api/collections';
import { DELIVERY_LOG, ENDPOINT_LEASES } from '../../server/features/webhooks/webhook-docs';
import { expectThingsStillAnswer, NARROW_THINGS, thingDocs, WIDE_THINGS } from './narrowed-declaration';
import { named } from '../support/named-collection';

const scope: Scope = { projectId: 'p1', live: false };
const at = '2026-01-01T00:00:00.000Z';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-tables-'));
  file = path.join(dir, 'w.sqlite');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The table's indexes by name; SQLite's own (a primary key's, `sqlite_autoindex_…`) only when asked for. */
function indexesOf(table: string, withAutomatic = false): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const automatic = withAutomatic ? '' : " AND name NOT LIKE 'sqlite_autoindex%'";
    return (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?${automatic} ORDER BY name`).all(table) as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
}

test('each collection gets its own table with the indexes it declares and no others', async () => {
  const store = new SqliteStore({ file });
  for (const name of ['users', 'events', 'presence', 'locations', 'outbox'] as const) await store.define(CORE_COLLECTIONS[name]);
  await store.close();
  // Users: listed by updatedAt (by the hour: users are volatile), unique userId (which also serves
  // lookups), devices, position (by its cell).
  expect(indexesOf('coll_users')).toEqual(['coll_users_cell', 'coll_users_key_deviceid', 'coll_users_unique_deviceid', 'coll_users_unique_userid', 'coll_users_updated_hour']);
  // Events: by createdAt, by type and by user in order (which serve their lookups). No updated-at index.
  expect(indexesOf('coll_events')).toEqual(['coll_events_created_at', 'coll_events_sorted_type', 'coll_events_sorted_userref']);
  // Location history: by user in order, and the expiry's due date; no date order of its own.
  expect(indexesOf('coll_locations')).toEqual(['coll_locations_due', 'coll_locations_sorted_userref']);
  expect(indexesOf('coll_presence')).toEqual(['coll_presence_key_geofenceid', 'coll_presence_key_userref']);
  expect(indexesOf('coll_outbox')).toEqual(['coll_outbox_sorted_webhookid_state']);
});

test('an unindexed key gets no index of its own, narrows its sorted combination and still filters alone', async () => {
  const store = new SqliteStore({ file });
  await store.define(CORE_COLLECTIONS.outbox);
  await store.define(ENDPOINT_LEASES);
  const rows = Array.from({ length: 30 }, (_, i) => {
    const t = new Date(Date.parse(at) + i * 1000).toISOString();
    return { _id: `o${String(i).padStart(2, '0')}`, createdAt: t, updatedAt: t, webhookId: i % 2 ? 'wh-a' : 'wh-b', state: i % 3 ? 'pending' : 'dead' };
  });
  await store.write(rows.map((doc) => (put(named('outbox'), scope, doc))));
  const ids = async (equals: Record<string, string>): Promise<string[]> =>
    (await store.list(named('outbox'), scope, { limit: 100, sortBy: 'createdAt', order: 'asc', equals })).docs.map((d) => d._id);
  const expected = (keep: (r: (typeof rows)[number]) => boolean): string[] => rows.filter(keep).map((r) => r._id);
  expect(await ids({ webhookId: 'wh-a', state: 'dead' })).toEqual(expected((r) => r.webhookId === 'wh-a' && r.state === 'dead'));
  expect(await ids({ state: 'pending' })).toEqual(expected((r) => r.state === 'pending'));
  expect(await ids({ webhookId: 'wh-b' })).toEqual(expected((r) => r.webhookId === 'wh-b'));
  expect(store.explainList('outbox', scope, { limit: 1, sortBy: 'createdAt', order: 'asc', equals: { webhookId: 'wh-a', state: 'pending' } })).toMatch(/coll_outbox_sorted_webhookid_state/);
  await expect(store.define(named('queue', { keys: ['a'], unindexed: ['b'] }))).rejects.toThrow(/unindexed field b must be one of its keys/);
  await store.close();
  expect(indexesOf('coll_outbox')).toEqual(['coll_outbox_sorted_webhookid_state']);
  // Leases are read by id and rewritten with every outcome: their primary key is their only index.
  expect(indexesOf('coll_webhook_leases')).toEqual([]);
});

test('indexes follow the declaration: one it no longer asks for is dropped, and queries still answer', async () => {
  let store = new SqliteStore({ file });
  await store.define(named('things', WIDE_THINGS));
  const docs = thingDocs(at);
  await store.write(docs.map((doc) => (put(named('things'), scope, doc))));
  await store.close();
  // Someone else's index on the table: not ours to drop, whatever the declaration says.
  const db = new Database(file);
  db.exec('CREATE INDEX operator_things_doc ON coll_things (doc)');
  db.close();
  expect(indexesOf('coll_things')).toEqual(['coll_things_created_at', 'coll_things_due', 'coll_things_key_externalid', 'coll_things_key_tag', 'coll_things_point', 'coll_things_updated_at', 'operator_things_doc']);

  store = new SqliteStore({ file });
  await store.define(named('things', NARROW_THINGS));
  expect(indexesOf('coll_things')).toEqual(['coll_things_key_tag', 'coll_things_updated_at', 'operator_things_doc']);
  // The primary key's own index is untouched: ids are still unique per scope.
  expect(indexesOf('coll_things', true)).toContain('sqlite_autoindex_coll_things_1');
  await expectThingsStillAnswer(store, scope, docs);
  await store.close();
});

test('the delivery log keeps only its ordered index by webhook and its expiry; reading a webhook\'s log by outcome sorts nothing', async () => {
  // As the log was declared before: created and updated indexes, and one per key.
  let store = new SqliteStore({ file });
  await store.define(named('webhook_deliveries', { keys: ['webhookId', 'outboxId', 'outcome'], due: 'expiresAt' }));
  const outcomes = ['delivered', 'retry', 'dead'];
  const entries = Array.from({ length: 300 }, (_, i) => {
    const t = new Date(Date.parse(at) + i * 1000).toISOString();
    return {
      _id: `d${String(i).padStart(3, '0')}`, createdAt: t, updatedAt: t, webhookId: i % 2 ? 'wh-a' : 'wh-b', outboxId: `o${i}`,
      outcome: outcomes[i % 3], expiresAt: t,
    };
  });
  await store.write(entries.map((doc) => (put(named('webhook_deliveries'), scope, doc))));
  await store.close();

  store = new SqliteStore({ file });
  await store.define(DELIVERY_LOG);
  expect(indexesOf('coll_webhook_deliveries')).toEqual(['coll_webhook_deliveries_due', 'coll_webhook_deliveries_sorted_webhookid']);
  const query = { limit: 4, sortBy: 'createdAt', equals: { webhookId: 'wh-a', outcome: 'dead' } } as const;
  const want = entries.filter((e) => e.webhookId === 'wh-a' && e.outcome === 'dead').reverse().slice(0, 4).map((e) => e._id);
  expect((await store.list(named('webhook_deliveries'), scope, query)).docs.map((d) => d._id)).toEqual(want);
  const before = { ...query, ranges: [{ field: 'createdAt' as const, before: entries[200].createdAt }] };
  expect((await store.list(named('webhook_deliveries'), scope, before)).docs.map((d) => d._id)).toEqual(
    entries.slice(0, 200).filter((e) => e.webhookId === 'wh-a' && e.outcome === 'dead').reverse().slice(0, 4).map((e) => e._id),
  );
  const plan = store.explainList('webhook_deliveries', scope, query);
  expect(plan).toMatch(/coll_webhook_deliveries_sorted_webhookid/);
  expect(plan).not.toMatch(/TEMP B-TREE/);
  expect((await store.due(named('webhook_deliveries'), entries[2].expiresAt, 10)).map((d) => d.doc._id)).toEqual(['d000', 'd001', 'd002']);
  await store.close();
});

test('a database of the shared-table layout is moved into the collection tables, once, and reads the same', async () => {
  // The layout of earlier versions, written as they wrote it.
  const old = new Database(file);
  old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  old.exec(MIGRATIONS[0].sql);
  old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(MIGRATIONS[0].version, MIGRATIONS[0].name, at);
  const insert = old.prepare('INSERT INTO docs (collection, project_id, live, id, created_at, updated_at, k0, k1, k2, k3, lng, lat, due_at, doc) VALUES (?, ?, 0, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, NULL, ?)');
  for (let i = 0; i < 50; i++) {
    const id = `u${String(i).padStart(3, '0')}`;
    const doc = { _id: id, createdAt: at, updatedAt: at, userId: `user-${i}`, deviceId: `device-${i}`, location: { type: 'Point', coordinates: [2 + i / 1000, 48] } };
    insert.run('users', 'p1', id, at, at, doc.userId, doc.deviceId, doc.location.coordinates[0], 48, JSON.stringify(doc));
  }
  insert.run('events', 'p1', 'e1', at, at, 'user.entered_geofence', 'u001', null, null, JSON.stringify({ _id: 'e1', createdAt: at, updatedAt: at, type: 'user.entered_geofence', userRef: 'u001' }));
  old.close();

  for (let round = 0; round < 2; round++) {
    const store = new SqliteStore({ file });
    for (const name of ['users', 'events'] as const) await store.define(CORE_COLLECTIONS[name]);
    expect((await store.findOne(named('users'), scope, { userId: 'user-7' }))?._id).toBe('u007');
    expect((await store.get(named('users'), scope, 'u049'))?.deviceId).toBe('device-49');
    expect((await store.list(named('users'), scope, { limit: 100, sortBy: 'updatedAt' })).docs).toHaveLength(50);
    expect(await store.within(named('users'), scope, { minLng: 2, maxLng: 2.0095, minLat: 47.9, maxLat: 48.1 }, 100)).toHaveLength(10);
    expect((await store.list(named('events'), scope, { limit: 10, sortBy: 'createdAt', equals: { type: 'user.entered_geofence' } })).docs.map((d) => d._id)).toEqual(['e1']);
    // The moved rows obey the declared rules like new ones.
    await expect(store.write([put(named('users'), scope, { _id: 'twin', createdAt: at, updatedAt: at, userId: 'user-3', deviceId: 'x' })])).rejects.toThrow(/unique/);
    await store.close();
  }
  const db = new Database(file, { readonly: true });
  try {
    expect(db.prepare('SELECT count(*) AS n FROM docs').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM coll_users').get()).toEqual({ n: 50 });
  } finally {
    db.close();
  }
});

test('writes from many callers at once are each committed before they are answered, and survive a reopen', async () => {
  const store = new SqliteStore({ file });
  await store.define(CORE_COLLECTIONS.events);
  const seen: string[] = [];
  store.onCommit((ops) => {
    for (const op of ops) if (op.op === 'put') seen.push(op.doc._id);
  });
  const ids = Array.from({ length: 500 }, (_, i) => `e${String(i).padStart(4, '0')}`);
  await Promise.all(ids.map(async (id) => {
    await store.write([put(named('events'), scope, { _id: id, createdAt: at, updatedAt: at, type: 't', userRef: 'u' })]);
    // Answered means readable, on the store's own (reading) connection.
    expect((await store.get(named('events'), scope, id))?._id).toBe(id);
  }));
  expect([...seen].sort()).toEqual(ids);
  await store.close();
  const again = new SqliteStore({ file });
  await again.define(CORE_COLLECTIONS.events);
  expect((await again.list(named('events'), scope, { limit: 1000, sortBy: 'createdAt' })).docs).toHaveLength(500);
  await again.close();
});
