// The PostgreSQL counterpart of store-sqlite-tables.test.ts: each collection in its own table with only
// the indexes its declaration asks for (collection-table.ts), documents of the shared `docs` table of
// earlier versions moved in once when their collection is defined, even by nodes starting together, and
// writes spanning several tables still all or nothing.
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { put, remove, type Doc, type Scope, type WriteOp } from '../../ports/store';
import { UniqueViolation } from '../../adapters/store/unique-violation';
import { CORE_COLLECTIONS } from '../../server/api/collections';
import { DELIVERY_LOG } from '../../server/features/webhooks/webhook-docs';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName, withClient } from './store-postgres-support';
import { expectThingsStillAnswer, NARROW_THINGS, thingDocs, WIDE_THINGS } from './narrowed-declaration';
import { named } from '../support/named-collection';

const d = describeWithPostgres();
const scope: Scope = { projectId: 'p1', live: false };
const at = '2026-01-01T00:00:00.000Z';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

async function open(schema = freshSchemaName()): Promise<PostgresStore> {
  if (!schemas.includes(schema)) schemas.push(schema);
  return PostgresStore.open({ connectionString: DATABASE_URL as string, schema });
}

async function indexesOf(schema: string, table: string): Promise<string[]> {
  return withClient(async (c) => (await c.query<{ indexname: string }>(
    "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname NOT LIKE '%_pkey' ORDER BY indexname", [schema, table],
  )).rows.map((r) => r.indexname));
}

async function count(schema: string, table: string): Promise<number> {
  return withClient(async (c) => Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".${table}`)).rows[0].n));
}

const user = (i: number): Doc => ({
  _id: `u${String(i).padStart(3, '0')}`, createdAt: at, updatedAt: at, userId: `user-${i}`, deviceId: `device-${i}`,
  location: { type: 'Point', coordinates: [2 + i / 1000, 48] },
});

/** A schema as earlier versions left it: every collection's rows in `docs`. */
async function legacySchema(): Promise<string> {
  const store = await open();
  await store.close();
  await withClient(async (c) => {
    const insert = `INSERT INTO "${store.schema}".docs (collection, project_id, live, id, created_at, updated_at, k0, k1, lng, lat, doc)
      VALUES ($1, 'p1', false, $2, $3, $3, $4, $5, $6, $7, $8)`;
    for (let i = 0; i < 50; i++) {
      const u = user(i);
      await c.query(insert, ['users', u._id, at, u.userId, u.deviceId, 2 + i / 1000, 48, JSON.stringify(u)]);
    }
    const event = { _id: 'e1', createdAt: at, updatedAt: at, type: 'user.entered_geofence', userRef: 'u001' };
    await c.query(insert, ['events', 'e1', at, event.type, event.userRef, null, null, JSON.stringify(event)]);
  });
  return store.schema;
}

async function readsTheSame(store: PostgresStore): Promise<void> {
  expect((await store.findOne(named('users'), scope, { userId: 'user-7' }))?._id).toBe('u007');
  expect((await store.get(named('users'), scope, 'u049'))?.deviceId).toBe('device-49');
  expect((await store.list(named('users'), scope, { limit: 100, sortBy: 'updatedAt' })).docs).toHaveLength(50);
  expect(await store.within(named('users'), scope, { minLng: 2, maxLng: 2.0095, minLat: 47.9, maxLat: 48.1 }, 100)).toHaveLength(10);
  expect((await store.list(named('events'), scope, { limit: 10, sortBy: 'createdAt', equals: { type: 'user.entered_geofence' } })).docs.map((x) => x._id)).toEqual(['e1']);
  expect(await store.scopes(named('users'))).toEqual([scope]);
  // The moved rows obey the declared rules like new ones.
  await expect(store.write([put(named('users'), scope, { _id: 'twin', createdAt: at, updatedAt: at, userId: 'user-3', deviceId: 'x' })]))
    .rejects.toBeInstanceOf(UniqueViolation);
}

d('PostgreSQL store: one table per collection', () => {
  test('each collection gets its own table with the indexes it declares and no others', async () => {
    const store = await open();
    try {
      for (const name of ['users', 'events', 'presence', 'locations', 'outbox'] as const) await store.define(CORE_COLLECTIONS[name]);
      // Users: listed by updatedAt (by the hour: users are volatile), unique userId (which also serves
      // lookups), devices, position (by its cell, PostGIS or not).
      expect(await indexesOf(store.schema, 'coll_users')).toEqual(['coll_users_cell', 'coll_users_key_deviceid', 'coll_users_unique_deviceid', 'coll_users_unique_userid', 'coll_users_updated_hour']);
      expect(await indexesOf(store.schema, 'coll_events')).toEqual(['coll_events_created_at', 'coll_events_sorted_type', 'coll_events_sorted_userref']);
      expect(await indexesOf(store.schema, 'coll_locations')).toEqual(['coll_locations_due', 'coll_locations_sorted_userref']);
      expect(await indexesOf(store.schema, 'coll_presence')).toEqual(['coll_presence_key_geofenceid', 'coll_presence_key_userref']);
      expect(await indexesOf(store.schema, 'coll_outbox')).toEqual(['coll_outbox_sorted_webhookid_state']);
      expect(store.warnings).toEqual([]);
    } finally {
      await store.close();
    }
  });

  test('indexes follow the declaration: one it no longer asks for is dropped, and queries still answer', async () => {
        let store = await open();
    const { schema } = store;
    const docs = thingDocs(at);
    try {
      await store.define(named('things', WIDE_THINGS));
      await store.write(docs.map((doc) => (put(named('things'), scope, doc))));
    } finally {
      await store.close();
    }
    // Someone else's index on the table: not ours to drop, whatever the declaration says.
    await withClient((c) => c.query(`CREATE INDEX operator_things_doc ON "${schema}".coll_things (id, doc)`));
    const point = store.spatial === 'postgis' ? 'coll_things_geom' : 'coll_things_point';
    expect(await indexesOf(schema, 'coll_things')).toEqual(
      ['coll_things_created_at', 'coll_things_due', 'coll_things_key_externalid', 'coll_things_key_tag', point, 'coll_things_updated_at', 'operator_things_doc'].sort(),
    );
    store = await open(schema);
    try {
      await store.define(named('things', NARROW_THINGS));
      expect(await indexesOf(schema, 'coll_things')).toEqual(['coll_things_key_tag', 'coll_things_updated_at', 'operator_things_doc']);
      // The primary key, named by PostgreSQL after the table, is a constraint's index and stays.
      expect(await withClient(async (c) => (await c.query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'coll_things_pkey'", [schema])).rowCount)).toBe(1);
      await expectThingsStillAnswer(store, scope, docs);
      await expect(store.write([put(named('things'), scope, { ...docs[1], tag: 'same id again' })])).resolves.toBeUndefined();
      expect(await count(schema, 'coll_things')).toBe(20);
    } finally {
      await store.close();
    }
  });

  test('the delivery log keeps only its ordered index by webhook and its expiry; reading a webhook\'s log is served by it', async () => {
    let store = await open();
    const { schema } = store;
    const outcomes = ['delivered', 'retry', 'dead'];
    const entries = Array.from({ length: 3000 }, (_, i) => {
      const t = new Date(Date.parse(at) + i * 1000).toISOString();
      return {
        _id: `d${String(i).padStart(4, '0')}`, createdAt: t, updatedAt: t, webhookId: `wh-${i % 20}`, outboxId: `o${i}`,
        outcome: outcomes[i % 3], expiresAt: t,
      };
    });
    try {
      // As the log was declared before: created and updated indexes, and one per key.
      await store.define(named('webhook_deliveries', { keys: ['webhookId', 'outboxId', 'outcome'], due: 'expiresAt' }));
      await store.write(entries.map((doc) => (put(named('webhook_deliveries'), scope, doc))));
    } finally {
      await store.close();
    }
    store = await open(schema);
    try {
      await store.define(DELIVERY_LOG);
      expect(await indexesOf(schema, 'coll_webhook_deliveries')).toEqual(['coll_webhook_deliveries_due', 'coll_webhook_deliveries_sorted_webhookid']);
      await withClient((c) => c.query(`ANALYZE "${schema}".coll_webhook_deliveries`));
      const query = { limit: 4, sortBy: 'createdAt', equals: { webhookId: 'wh-7', outcome: 'dead' } } as const;
      const want = entries.filter((e) => e.webhookId === 'wh-7' && e.outcome === 'dead').reverse().slice(0, 4).map((e) => e._id);
      expect((await store.list(named('webhook_deliveries'), scope, query)).docs.map((d) => d._id)).toEqual(want);
      // PostgreSQL weighs the outcome filter with statistics: it may read the webhook's entries in order
      // or fetch them all and sort the few matches; both through the webhook's index. Without it, in order.
      expect(await store.explainList('webhook_deliveries', scope, query)).toMatch(/coll_webhook_deliveries_sorted_webhookid/);
      const plan = await store.explainList('webhook_deliveries', scope, { ...query, equals: { webhookId: 'wh-7' } });
      expect(plan).toMatch(/coll_webhook_deliveries_sorted_webhookid/);
      expect(plan).not.toMatch(/\bSort\b/);
      expect((await store.due(named('webhook_deliveries'), entries[2].expiresAt, 10)).map((d) => d.doc._id)).toEqual(['d0000', 'd0001', 'd0002']);
    } finally {
      await store.close();
    }
  });

  test('a schema of the shared-table layout is moved into the collection tables, once, and reads the same', async () => {
    const schema = await legacySchema();
    for (let round = 0; round < 2; round++) {
      const store = await open(schema);
      try {
        for (const name of ['users', 'events'] as const) await store.define(CORE_COLLECTIONS[name]);
        await readsTheSame(store);
      } finally {
        await store.close();
      }
    }
    expect(await count(schema, 'docs')).toBe(0);
    expect(await count(schema, 'coll_users')).toBe(50);
    expect(await count(schema, 'coll_events')).toBe(1);
  });

  test('nodes starting together on a shared-table schema move its rows once', async () => {
    const schema = await legacySchema();
    const nodes = await Promise.all([open(schema), open(schema), open(schema)]);
    try {
      await Promise.all(nodes.map(async (node) => {
        for (const name of ['users', 'events'] as const) await node.define(CORE_COLLECTIONS[name]);
      }));
      for (const node of nodes) await readsTheSame(node);
      expect(nodes.map((n) => n.warnings)).toEqual([[], [], []]);
    } finally {
      for (const node of nodes) await node.close();
    }
    expect([await count(schema, 'docs'), await count(schema, 'coll_users'), await count(schema, 'coll_events')]).toEqual([0, 50, 1]);
  });

  test('a write across several tables is one atomic step, in op order', async () => {
    const store = await open();
    try {
      for (const name of ['users', 'events', 'presence'] as const) await store.define(CORE_COLLECTIONS[name]);
      const event = (id: string, extra: Record<string, unknown> = {}): WriteOp => (put(named('events'), scope, { _id: id, createdAt: at, updatedAt: at, type: 't', userRef: 'u000', ...extra }));
      const presence = (id: string): WriteOp => (put(named('presence'), scope, { _id: id, createdAt: at, updatedAt: at, geofenceId: 'g', userRef: 'u000' }));
      await store.write([put(named('users'), scope, user(0)), event('e1'), event('e2'), presence('p1')]);
      expect((await store.list(named('events'), scope, { limit: 10, sortBy: 'createdAt' })).docs.map((x) => x._id)).toEqual(['e2', 'e1']);
      // jsonb refuses NUL: the failing event takes the user, the other event and the presence change with it.
      await expect(store.write([
        put(named('users'), scope, { ...user(0), name: 'changed' }),
        remove(named('presence'), scope, 'p1'),
        event('e3'), event('bad', { name: 'nul \u0000' }),
      ])).rejects.toThrow();
      expect(await store.get(named('users'), scope, 'u000')).not.toHaveProperty('name');
      expect(await store.get(named('presence'), scope, 'p1')).toBeDefined();
      expect(await store.get(named('events'), scope, 'e3')).toBeUndefined();
      // Delete then put again of one row, with other tables in between: the put wins.
      await store.write([remove(named('presence'), scope, 'p1'), event('e4'), presence('p1'), remove(named('events'), scope, 'e1')]);
      expect(await store.get(named('presence'), scope, 'p1')).toBeDefined();
      expect((await store.list(named('events'), scope, { limit: 10, sortBy: 'createdAt' })).docs.map((x) => x._id).sort()).toEqual(['e2', 'e4']);
      // A twin among other tables' rows is still a UniqueViolation, and nothing of the batch is written.
      await store.write([put(named('users'), scope, user(1))]);
      await expect(store.write([event('e5'), put(named('users'), scope, { ...user(2), userId: 'user-1' })])).rejects.toBeInstanceOf(UniqueViolation);
      expect(await store.get(named('events'), scope, 'e5')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
