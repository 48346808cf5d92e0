// Outbox rows committed for a webhook after its delete swept its queue: a track update that read the
// webhook list before the delete (on this node, or on a node whose cached list is older) writes them.
// The delete leaves a tombstone, and the clean-up job sweeps the tombstone's queue until its grace
// period is over and a sweep finds nothing. On SQLite, and on PostgreSQL when DATABASE_URL is set; on
// PostgreSQL also with a second node whose cached list still holds the deleted webhook.
//
// The delivery poll is off (0): neither delivery nor the clean-up job runs on its own, and the test
// runs the clean-up (DeliveryWorker.purge) itself at the times its schedule would, as
// webhooks-delivery.test.ts does.
import { put, remove, type Scope } from '../../ports/store';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { newObjectId } from '../../core/object-id';
import { webhooksOf, type WebhooksRuntime } from '../../server/features/webhooks/webhooks-feature';
import { TOMBSTONE_GRACE_MS, WEBHOOK_TOMBSTONES } from '../../server/features/webhooks/webhook-tombstones';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { eachStore } from '../support/each-store';
import { startTestServer, tempDataDir, type ProjectKeys, type TestServer } from '../support/server';
import { until } from '../support/until';
import { fastWebhooks } from './webhooks-config';
import { EVENTS, OUTBOX } from '../../server/api/collections';
import { ENDPOINT_LEASES } from '../../server/features/webhooks/webhook-docs';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
const MINUTE = 60_000;

interface Env {
  keys: ProjectKeys;
  scope: Scope;
  gone: string;
  kept: string;
}

/** A project with a geofence at the café and two webhooks: `gone` (to be deleted) and `kept`. */
async function setup(server: TestServer): Promise<Env> {
  const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
  const fence = await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 } });
  expect(fence.status).toBe(200);
  const ids: string[] = [];
  for (const name of ['gone', 'kept']) {
    const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: `http://127.0.0.1:9/${name}` } });
    expect(created.status).toBe(200);
    ids.push(created.body.webhook._id);
  }
  return { keys, scope: { projectId: keys.id, live: false }, gone: ids[0], kept: ids[1] };
}

async function track(url: string, key: string, deviceId: string, at: { lat: number; lng: number }): Promise<Array<{ _id: string; type: string }>> {
  const res = await fetch(`${url}/v1/track`, {
    method: 'POST', headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: Array<{ _id: string; type: string }> }).events;
}

function probe(runtime: WebhooksRuntime, running: RunningServer, scope: Scope) {
  const { store } = running.gateway.adapters;
  return {
    /** The outbox rows of a webhook, any state. */
    rows: async (webhookId: string) => (await store.list(OUTBOX, scope, { equals: { webhookId }, sortBy: 'createdAt', limit: 100 })).docs,
    tombstone: (webhookId: string) => store.get(WEBHOOK_TOMBSTONES, scope, webhookId),
    lease: (webhookId: string) => store.get(ENDPOINT_LEASES, scope, webhookId),
    purge: (at: number) => runtime.worker.purge(new Date(at)),
  };
}

describe.each(eachStore('webhook tombstone tests'))('rows of a deleted webhook on %s', (_name, storeConfig) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...storeConfig(), webhooks: fastWebhooks({ pollMs: 0 }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('rows written after the delete are swept by the clean-up job; the tombstone goes after its grace period and an empty sweep', async () => {
    const env = await setup(server);
    const { gone, kept, scope } = env;
    const runtime = webhooksOf(server.running.gateway.installed)!;
    const { store } = server.running.gateway.adapters;
    const p = probe(runtime, server.running, scope);
    const grace = TOMBSTONE_GRACE_MS + server.running.gateway.config.webhooks.cacheMs;

    await track(server.url, env.keys.testPk, 'd1', AWAY);
    const [entry] = await track(server.url, env.keys.testPk, 'd1', CAFE);
    expect(entry.type).toBe('user.entered_geofence');
    expect(await p.rows(gone)).toHaveLength(1);
    expect(await p.rows(kept)).toHaveLength(1);

    // Two track writes in flight: they read the webhook list (both webhooks) before the delete and
    // commit after it, the way an update racing the DELETE does.
    const event = (await store.get(EVENTS, scope, entry._id))!;
    const late = [
      await runtime.service.outboxFor(scope, [event], null, new Date()),
      await runtime.service.outboxFor(scope, [event], null, new Date()),
    ];
    expect(late.map((l) => l.webhookIds.sort())).toEqual([[gone, kept].sort(), [gone, kept].sort()]);

    expect((await server.request('DELETE', `/v1/webhooks/${gone}`, { key: env.keys.testSk })).status).toBe(200);
    const deletedMs = Date.now();
    // The delete's background removal takes the queue; the tombstone was written with the delete.
    await runtime.worker.queuePurge.idle();
    expect(await p.rows(gone)).toEqual([]);
    expect(await p.tombstone(gone)).toMatchObject({ _id: gone });
    expect(await p.tombstone(kept)).toBeUndefined();

    await store.write(late[0].ops);
    // A dead row too: the sweep takes rows whatever their state.
    const [orphan] = await p.rows(gone);
    await store.write([put(OUTBOX, scope, { ...orphan, _id: newObjectId(new Date()), state: 'dead' })]);
    expect(await p.rows(gone)).toHaveLength(2);
    expect(await p.rows(kept)).toHaveLength(2);

    // Nothing shows the deleted webhook or its tombstone: not the API, not the gauges.
    expect((await server.request('GET', `/v1/webhooks/${gone}/dead-letters`, { key: env.keys.testSk })).status).toBe(404);
    expect((await server.request('GET', '/v1/webhooks', { key: env.keys.testSk })).body.webhooks.map((w: { _id: string }) => w._id)).toEqual([kept]);
    const metrics = await runtime.metrics.render(Date.now());
    expect(metrics).toMatch(/^waymark_webhook_pending 2$/m);
    expect(metrics).toMatch(/^waymark_webhook_dead_letters 0$/m);

    // The next clean-up run sweeps them; the tombstone stays (its grace period runs).
    expect(await p.purge(deletedMs)).toBe(2);
    expect(await p.rows(gone)).toEqual([]);
    expect(await p.tombstone(gone)).toBeDefined();
    // An empty sweep before the grace period is over keeps it too.
    await p.purge(deletedMs + grace - MINUTE);
    expect(await p.tombstone(gone)).toBeDefined();

    // A row later still: swept, and the run that found it keeps the tombstone even past the grace period.
    await store.write(late[1].ops);
    expect(await p.rows(gone)).toHaveLength(1);
    expect(await p.purge(deletedMs + grace + MINUTE)).toBe(1);
    expect(await p.rows(gone)).toEqual([]);
    expect(await p.tombstone(gone)).toBeDefined();

    // Past the grace period with nothing left: the tombstone goes, and the lease the delete parked with it.
    expect(await p.lease(gone)).toMatchObject({ owner: 'deleted' });
    await p.purge(deletedMs + grace + 2 * MINUTE);
    expect(await p.tombstone(gone)).toBeUndefined();
    expect(await p.lease(gone)).toBeUndefined();

    // The live webhook's rows were never touched: the track write's and both late writes'.
    expect((await p.rows(kept)).map((r) => r.state)).toEqual(['pending', 'pending', 'pending']);
    expect((await server.request('GET', `/v1/webhooks/${kept}`, { key: env.keys.testSk })).status).toBe(200);
  });

  test('a removal cut off after parking the endpoint (a crash before the delete) silences the webhook for minutes, not days', async () => {
    const env = await setup(server);
    const runtime = webhooksOf(server.running.gateway.installed)!;
    const p = probe(runtime, server.running, env.scope);
    const before = Date.now();
    // remove()'s first step alone, as when the node dies right after it: the webhook stays.
    await runtime.worker.retire(env.scope, env.kept);
    const lease = (await p.lease(env.kept))!;
    expect(lease.owner).toBe('deleted');
    const parkedMs = Date.parse(lease.until) - before;
    expect(parkedMs).toBeGreaterThan(0);
    expect(parkedMs).toBeLessThanOrEqual(15 * MINUTE);
    expect((await server.request('GET', `/v1/webhooks/${env.kept}`, { key: env.keys.testSk })).status).toBe(200);
  });
});

describeWithPostgres()('rows of a deleted webhook written by another node', () => {
  const schema = freshSchemaName();
  // Node B trusts its list of webhooks for a minute: it keeps writing rows for the deleted one.
  const shared: Partial<GatewayConfig> = { store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema, webhooks: fastWebhooks({ pollMs: 0, cacheMs: MINUTE }) };
  let nodeA: TestServer;
  let nodeB: RunningServer;

  beforeAll(async () => {
    nodeA = await startTestServer(shared);
    nodeB = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', logRequests: false, jobIntervalMs: 0, rateLimitScale: 0, dataDir: tempDataDir(), ...shared }, silentLogger());
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await dropSchemas([schema]);
  });

  test("a node whose cached list still has the webhook writes a row after the delete; node A's clean-up sweeps it", async () => {
    const env = await setup(nodeA);
    const { gone, kept, scope } = env;
    const urlB = nodeB.url;
    const runtimeA = webhooksOf(nodeA.running.gateway.installed)!;
    const p = probe(runtimeA, nodeA.running, scope);

    // Node B learns of the geofence by change notification; its first event loads its list of webhooks.
    await until('node B to see the geofence', async () => {
      await track(urlB, env.keys.testPk, 'b1', AWAY);
      return (await track(urlB, env.keys.testPk, 'b1', CAFE)).length > 0;
    }, 10_000, 50);
    expect(await p.rows(gone)).toHaveLength(1);

    expect((await nodeA.request('DELETE', `/v1/webhooks/${gone}`, { key: env.keys.testSk })).status).toBe(200);
    await runtimeA.worker.queuePurge.idle();
    expect(await p.rows(gone)).toEqual([]);
    const keptBefore = (await p.rows(kept)).length;

    const [exit] = await track(urlB, env.keys.testPk, 'b1', AWAY);
    expect(exit.type).toBe('user.exited_geofence');
    const orphans = await p.rows(gone);
    expect(orphans.map((r) => r.eventIds)).toEqual([[exit._id]]);

    expect(await p.purge(Date.now())).toBe(1);
    expect(await p.rows(gone)).toEqual([]);
    expect(await p.tombstone(gone)).toBeDefined();
    expect(await p.rows(kept)).toHaveLength(keptBefore + 1);
  });
});
