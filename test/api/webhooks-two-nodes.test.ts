// Two gateway nodes on one PostgreSQL schema, both running the delivery worker. Updates arrive on both;
// the endpoint lease must keep the endpoint at one request at a time, every event must be delivered,
// and each user's events must arrive in order. Skipped without DATABASE_URL.
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type Received, type TestReceiver } from './webhooks-receiver';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
const DEVICES = 6;
const UPDATES_PER_DEVICE = 20;

describeWithPostgres()('webhooks on two nodes sharing PostgreSQL', () => {
  const schema = freshSchemaName();
  const shared: Partial<GatewayConfig> = { store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema, webhooks: fastWebhooks({ cacheMs: 100 }) };
  let nodeA: TestServer;
  let nodeB: RunningServer;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    nodeA = await startTestServer(shared);
    nodeB = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', logRequests: false, jobIntervalMs: 0, rateLimitScale: 0, dataDir: tempDataDir(), ...shared }, silentLogger());
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await receiver?.close();
    await dropSchemas([schema]);
  });

  test('one request at a time per endpoint, every event delivered, each user in order', async () => {
    const { testPk, testSk } = nodeA.keys;
    await nodeA.request('PUT', '/v1/geofences/venue/cafe', { key: testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
    expect((await nodeA.request('POST', '/v1/webhooks', { key: testSk, body: { url: `${receiver.url}/two` } })).status).toBe(200);
    // Node B learns of the new webhook from the Store once its cache period is over.
    await new Promise((res) => setTimeout(res, 250));
    receiver.fallback = { status: 200, delayMs: 3 };

    const sent = new Map<string, string[]>();
    await Promise.all(Array.from({ length: DEVICES }, async (_, d) => {
      const ids: string[] = [];
      for (let i = 0; i < UPDATES_PER_DEVICE; i++) {
        const where = i % 2 === 0 ? CAFE : AWAY;
        const url = i % 2 === 0 ? nodeA.url : nodeB.url;
        const res = await fetch(`${url}/v1/track`, {
          method: 'POST', headers: { authorization: testPk, 'content-type': 'application/json' },
          body: JSON.stringify({ deviceId: `dev-${d}`, latitude: where.lat, longitude: where.lng, accuracy: 5, foreground: true }),
        });
        expect(res.status).toBe(200);
        ids.push(...((await res.json()) as { events: Array<{ _id: string }> }).events.map((e) => e._id));
      }
      sent.set(`dev-${d}`, ids);
    }));
    const all = [...sent.values()].flat();
    expect(all).toHaveLength(DEVICES * UPDATES_PER_DEVICE);

    const firstSeen = (rs: Received[]): string[] => [...new Set(rs.filter((r) => r.path === '/two').map((r) => r.json.event._id as string))];
    await receiver.waitFor((rs) => firstSeen(rs).length === all.length, 30_000, 'every event');
    expect(receiver.maxInFlight.get('/two')).toBe(1);
    const order = firstSeen(receiver.received);
    for (const ids of sent.values()) {
      const positions = ids.map((id) => order.indexOf(id));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });
});
