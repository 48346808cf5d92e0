// Two gateway nodes on one PostgreSQL schema and one Redis, with rate limits on: a key issued through
// node A authenticates on node B, a user tracked on A is read on B, and a device's track budget spent on
// A is spent for B too (1 request per second per device).
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { envVar, requires } from '../support/requires';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const REDIS_URL = process.env.REDIS_URL;
const d = requires('two gateway nodes on PostgreSQL and Redis', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'), envVar('REDIS_URL', 'redis://127.0.0.1:6379'));

d('two gateway nodes sharing PostgreSQL and Redis', () => {
  const schema = freshSchemaName();
  const shared: Partial<GatewayConfig> = {
    store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema, rateLimiter: 'redis', redisUrl: REDIS_URL, rateLimitScale: 1,
  };
  let nodeA: TestServer;
  let nodeB: RunningServer;

  beforeAll(async () => {
    nodeA = await startTestServer(shared);
    nodeB = await startServer(
      { ...configFromEnv({}), port: 0, host: '127.0.0.1', logRequests: false, jobIntervalMs: 0, dataDir: tempDataDir(), ...shared },
      silentLogger(),
    );
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await dropSchemas([schema]);
  });

  const trackOn = (url: string, deviceId: string) => fetch(`${url}/v1/track`, {
    method: 'POST',
    headers: { authorization: nodeA.keys.testPk, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId, latitude: 48.8566, longitude: 2.3522, accuracy: 10 }),
  });

  test('both nodes use the shared adapters', () => {
    expect([nodeA.running.gateway.adapters.store.kind, nodeB.gateway.adapters.store.kind]).toEqual(['postgres', 'postgres']);
    expect(nodeB.gateway.adapters.limiter.constructor.name).toBe('RedisRateLimiter');
  });

  test('a user tracked on node A is read on node B with the same key', async () => {
    expect((await trackOn(nodeA.url, 'seen-on-b')).status).toBe(200);
    const r = await fetch(`${nodeB.url}/v1/users/seen-on-b`, { headers: { authorization: nodeA.keys.testSk } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { user: unknown }).user).toMatchObject({ deviceId: 'seen-on-b' });
  });

  test("a device's track budget spent on node A is spent on node B", async () => {
    expect((await trackOn(nodeA.url, 'budget')).status).toBe(200);
    const onB = await trackOn(nodeB.url, 'budget');
    expect(onB.status).toBe(429);
    expect(onB.headers.get('retry-after')).toBe('1');
    expect(((await onB.json()) as { meta: unknown }).meta).toMatchObject({ code: 429 });
    // Another device has its own budget.
    expect((await trackOn(nodeB.url, 'other-device')).status).toBe(200);
  });
});
