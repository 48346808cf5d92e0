// Issue #10 item 1: locked sections under real concurrent HTTP load, on SQLite and on PostgreSQL. Trip
// creation nests the externalId lock and the user lock; on PostgreSQL each used to pin a connection of a
// 10-connection lock pool, so 60 concurrent creations for 20 users deadlocked the pool and answered 500.
import { PostgresStore } from '../../adapters/store/postgres/postgres-store';
import { LockWaitTimeout } from '../../ports/store';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';
import { named } from '../support/named-collection';

const stores = eachStore('lock stress tests');

describe.each(stores)('locked sections under concurrent HTTP on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  test('60 concurrent trip creations for 20 users all succeed, none answers 5xx', async () => {
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => server.request('POST', '/v1/trips', {
      key: server.keys.testSk, body: { externalId: `order-${i}`, userId: `driver-${i % 20}`, mode: 'car' },
    })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const listed = await server.request('GET', '/v1/trips', { key: server.keys.testSk, query: { limit: 100 } });
    expect(listed.body.trips).toHaveLength(60);
  });

  test('concurrent creations of one externalId: exactly one wins, the rest are 409', async () => {
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => server.request('POST', '/v1/trips', {
      key: server.keys.testSk, body: { externalId: 'contested', userId: `rider-${i % 3}` },
    })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(11).fill(409)]);
  });

  test('track updates and trip creations for the same users interleave without errors', async () => {
    const work = Array.from({ length: 40 }, (_, i) => i % 2 === 0
      ? server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: `dev-${i % 10}`, userId: `mixed-${i % 10}`, latitude: 40.7 + i / 1000, longitude: -73.9, accuracy: 10 } })
      : server.request('POST', '/v1/trips', { key: server.keys.testSk, body: { externalId: `mixed-order-${i}`, userId: `mixed-${i % 10}` } }));
    const statuses = (await Promise.all(work)).map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});

const d = DATABASE_URL ? describe : describe.skip;
d('PostgreSQL withLock() holds no pool connection', () => {
  const schema = freshSchemaName();
  let a: PostgresStore;
  let b: PostgresStore;
  beforeAll(async () => {
    a = await PostgresStore.open({ connectionString: DATABASE_URL as string, schema, poolSize: 2 });
    b = await PostgresStore.open({ connectionString: DATABASE_URL as string, schema, poolSize: 2, lockTimeoutMs: 150 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropSchemas([schema]);
  });

  test('50 nested sections on distinct keys with a 2-connection pool all run their queries', async () => {
    await a.define(named('things', { keys: [] }));
    const scope = { projectId: 'p', live: false };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => a.withLock(`outer:${i}`, () => a.withLock(`inner:${i}`, async () => {
      await new Promise((r) => setTimeout(r, 5));
      return (await a.get(named('things'), scope, `missing-${i}`)) === undefined;
    }))));
    expect(results.every(Boolean)).toBe(true);
  });

  test('a lock held by another node past the deadline fails with LockWaitTimeout, then frees', async () => {
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inside = new Promise<void>((r) => (entered = r));
    const holder = a.withLock('long-import', async () => {
      entered();
      await held;
    });
    await inside;
    await expect(b.withLock('long-import', async () => 'never')).rejects.toBeInstanceOf(LockWaitTimeout);
    release();
    await holder;
    await expect(b.withLock('long-import', async () => 'after')).resolves.toBe('after');
  });
});
