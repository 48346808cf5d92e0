// #10.3 on both stores, over real HTTP with a real receiver:
// - the worker is woken after the commit that wrote the outbox rows, through the store, so delivery does
//   not wait for the poll (here 10 minutes, so only the wake can deliver);
// - outcomes buffered by one drain and not yet written are seen by the next drain of the endpoint: a row
//   delivered in memory is not sent again, and the buffer is written once the endpoint is idle;
// - while another node's lease on the endpoint runs (a node that died mid-drain), the worker backs off
//   until the lease ends instead of trying again on every commit.
import { webhooksOf } from '../../server/features/webhooks/webhooks-feature';
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';
import { announceSkip, envVar } from '../support/requires';
import { put } from '../../ports/store';
import { OUTBOX } from '../../server/api/collections';
import { ENDPOINT_LEASES } from '../../server/features/webhooks/webhook-docs';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
if (!DATABASE_URL) announceSkip('webhook wake: the PostgreSQL half', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
const stores: Array<[string, string | undefined]> = [['sqlite', undefined], ...(DATABASE_URL ? [['postgres', freshSchemaName()] as [string, string]] : [])];

describe.each(stores)('delivery wake-up on %s', (_name, schema) => {
  let server: TestServer;
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    const pg = schema ? { store: 'postgres' as const, databaseUrl: DATABASE_URL, databaseSchema: schema } : {};
    server = await startTestServer({ ...pg, webhooks: fastWebhooks({ pollMs: 600_000 }) });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    if (schema) await dropSchemas([schema]);
  });

  async function setup(): Promise<{ key: string; sk: string; hookId: string; path: string; projectId: string }> {
    const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
    expect((await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 } })).status).toBe(200);
    const path = `/hook-${keys.id}`;
    const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path } });
    expect(created.status).toBe(200);
    return { key: keys.testPk, sk: keys.testSk, hookId: created.body.webhook._id, path, projectId: keys.id };
  }

  const track = async (key: string, deviceId: string, at: { lat: number; lng: number }) => {
    const r = await server.request('POST', '/v1/track', { key, body: { deviceId, latitude: at.lat, longitude: at.lng, accuracy: 5 } });
    expect(r.status).toBe(200);
    return r.body.events as Array<{ _id: string; type: string }>;
  };

  test('an event is delivered on the commit that wrote it, not at the next poll', async () => {
    const { key, path } = await setup();
    await track(key, 'wake-1', AWAY);
    const [entry] = await track(key, 'wake-1', CAFE);
    expect(entry.type).toBe('user.entered_geofence');
    await receiver.waitFor((rs) => rs.some((r) => r.path === path), 5_000, 'a delivery woken by the commit');
    expect(receiver.received.filter((r) => r.path === path)[0].json.event._id).toBe(entry._id);
  });

  test('rows delivered by one wake are not sent again by the next, before their outcomes are written', async () => {
    const { key, sk, hookId, path, projectId } = await setup();
    const scope = { projectId, live: false };
    const worker = webhooksOf(server.running.gateway.installed)!.worker;
    await track(key, 'buffered-1', AWAY);
    const sent: string[] = [];
    // One event per update, each delivered by a drain of its own before the next update: the drains that
    // follow run while the earlier outcomes are still buffered (a group is written at 25 or after 200 ms).
    for (let i = 0; i < 6; i++) {
      const [event] = await track(key, 'buffered-1', i % 2 === 0 ? CAFE : AWAY);
      sent.push(event._id);
      await receiver.waitFor((rs) => rs.some((r) => r.path === path && r.json?.event?._id === event._id), 5_000, `event ${i + 1} delivered`);
    }
    await worker.idle();
    const got = receiver.received.filter((r) => r.path === path).map((r) => r.json.event._id as string);
    expect(got).toEqual(sent);
    const pending = await server.running.gateway.adapters.store.list(OUTBOX, scope, { equals: { webhookId: hookId, state: 'pending' }, sortBy: 'createdAt', limit: 10 });
    expect(pending.docs).toEqual([]);
    const log = await server.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key: sk });
    expect(log.body.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual(sent.map(() => 'delivered'));
  });

  test("another node's running lease makes this node wait until it ends", async () => {
    const { key, hookId, path, projectId } = await setup();
    const scope = { projectId, live: false };
    const until = new Date(Date.now() + 20_000).toISOString();
    const now = new Date().toISOString();
    await server.running.gateway.adapters.store.write([put(ENDPOINT_LEASES, scope, { _id: hookId, createdAt: now, updatedAt: now, owner: 'node-dead', until })]);
    const worker = webhooksOf(server.running.gateway.installed)!.worker;
    await track(key, 'lease-1', AWAY);
    await track(key, 'lease-1', CAFE);
    await worker.idle();
    // The refused claim is remembered until the lease ends: later commits do not try again.
    expect(worker.waitingUntil(scope, hookId)).toBe(Date.parse(until));
    await track(key, 'lease-1', AWAY);
    await worker.idle();
    expect(worker.waitingUntil(scope, hookId)).toBe(Date.parse(until));
    expect(receiver.received.filter((r) => r.path === path)).toEqual([]);
  });
});
