// A dead receiver cannot fill the disk (issue 31, item 2): a webhook's queue at WAYMARK_WEBHOOK_MAX_QUEUED
// stops growing (new events dropped and counted, status "queue-full") and resumes once the receiver
// caught up; a webhook whose head request keeps failing for WAYMARK_WEBHOOK_DISABLE_AFTER_MS is disabled
// (status "disabled-failing"); dead letters past WAYMARK_WEBHOOK_DEAD_PAYLOAD_MAX_BYTES keep only their
// event ids, and redelivery rebuilds them from the events.
//
// The delivery poll is off: the test runs the worker's sweep and the queue check itself, at the times
// it needs (the way webhooks-orphans.test.ts runs the clean-up).
import { put, type Scope } from '../../ports/store';
import { webhooksOf, type WebhooksRuntime } from '../../server/features/webhooks/webhooks-feature';
import { eachStore } from '../support/each-store';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { until } from '../support/until';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';
import { OUTBOX } from '../../server/api/collections';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };
const CAP = 5;
const DEAD_URL = 'http://127.0.0.1:9/dead';

describe.each(eachStore('webhook queue cap tests'))('a dead receiver on %s', (_name, storeConfig) => {
  let server: TestServer;
  let receiver: TestReceiver;
  let runtime: WebhooksRuntime;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      ...storeConfig(),
      webhooks: fastWebhooks({ pollMs: 0, maxQueued: CAP, disableAfterMs: 60_000, maxAttempts: 2, deadPayloadMaxBytes: 200 }),
    });
    runtime = webhooksOf(server.running.gateway.installed)!;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  async function project(): Promise<{ keys: ProjectKeys; scope: Scope; step: (device: string) => Promise<void> }> {
    const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
    const fence = await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 } });
    expect(fence.status).toBe(200);
    const inside = new Map<string, boolean>();
    // Each step is one event: an entry or an exit.
    const step = async (device: string) => {
      const now = !(inside.get(device) ?? false);
      inside.set(device, now);
      const at = now ? CAFE : AWAY;
      if (!inside.has(`${device}:seen`)) {
        inside.set(`${device}:seen`, true);
        await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: device, latitude: AWAY.lat, longitude: AWAY.lng, accuracy: 5, foreground: true } });
      }
      const res = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: device, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true } });
      expect(res.body.events).toHaveLength(1);
    };
    return { keys, scope: { projectId: keys.id, live: false }, step };
  }

  const pendingOf = async (scope: Scope, webhookId: string) =>
    (await server.running.gateway.adapters.store.list(OUTBOX, scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit: 1000 })).docs.length;
  const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await runtime.metrics.render(Date.now()))?.[1] ?? 0);

  test('a webhook whose head request keeps failing is disabled, and stops queueing', async () => {
    const { keys, scope, step } = await project();
    const hook = (await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: DEAD_URL } })).body.webhook;
    await step('d2');
    // The head has failed once, as the worker records an attempt to a dead receiver, and waits for its
    // retry. Written here: this test runs first, before any sweep made the worker deliver, so no
    // attempt of the worker's races the test's clock.
    const [row] = (await server.running.gateway.adapters.store.list(OUTBOX, scope, { equals: { webhookId: hook._id, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit: 1 })).docs;
    await server.running.gateway.adapters.store.write([put(OUTBOX, scope, { ...row, attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:9', nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString() })]);
    const t0 = new Date();
    await runtime.caps.check(t0);
    expect((await server.request('GET', `/v1/webhooks/${hook._id}`, { key: keys.testSk })).body.webhook).toMatchObject({ enabled: true, status: 'active' });
    await runtime.caps.check(new Date(t0.getTime() + 60_000));
    const disabled = (await server.request('GET', `/v1/webhooks/${hook._id}`, { key: keys.testSk })).body.webhook;
    expect(disabled).toMatchObject({ enabled: false, status: 'disabled-failing', disabledReason: 'failing', disabledAt: expect.any(String) });
    expect(await metric('waymark_webhook_disabled_total\\{reason="failing"\\}')).toBeGreaterThanOrEqual(1);
    await step('d2');
    expect(await pendingOf(scope, hook._id)).toBe(1);
    // Enabling it again clears the verdict.
    const enabled = await server.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { enabled: true } });
    expect(enabled.body.webhook).toMatchObject({ enabled: true, status: 'active' });
    expect(enabled.body.webhook.disabledReason).toBeUndefined();
  });

  test('a queue at its cap stops growing, says so, counts what it drops, and resumes once delivered', async () => {
    const { keys, scope, step } = await project();
    const hook = (await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: DEAD_URL } })).body.webhook;
    for (let i = 0; i < CAP; i++) await step('d1');
    expect(await pendingOf(scope, hook._id)).toBe(CAP);
    await runtime.caps.check(new Date());
    const shown = await server.request('GET', `/v1/webhooks/${hook._id}`, { key: keys.testSk });
    expect(shown.body.webhook).toMatchObject({ enabled: true, status: 'queue-full', queueFullSince: expect.any(String) });

    const droppedBefore = await metric('waymark_webhook_events_dropped_total\\{reason="queue-full"\\}');
    for (let i = 0; i < 3; i++) await step('d1');
    expect(await pendingOf(scope, hook._id)).toBe(CAP);
    expect(await metric('waymark_webhook_events_dropped_total\\{reason="queue-full"\\}')).toBe(droppedBefore + 3);
    expect(await metric('waymark_webhook_queue_full')).toBeGreaterThanOrEqual(1);

    // The receiver comes back: the queue drains, the check sees it below the cap, queueing resumes.
    receiver.fallback = { status: 200 };
    expect((await server.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { url: `${receiver.url}/back` } })).status).toBe(200);
    await runtime.worker.sweep(new Date());
    await runtime.worker.idle();
    expect(await pendingOf(scope, hook._id)).toBe(0);
    await runtime.caps.check(new Date());
    expect((await server.request('GET', `/v1/webhooks/${hook._id}`, { key: keys.testSk })).body.webhook.status).toBe('active');
    const delivered = () => receiver.received.filter((r) => r.path === '/back').length;
    const before = delivered();
    await step('d1');
    // Queued again: the worker, active since the sweep, may deliver it at once.
    await until('the next event to be queued (and delivered)', async () => delivered() === before + 1 || (await pendingOf(scope, hook._id)) === 1, 10_000);
  });

  test('dead letters past the kept size keep their event ids only; redelivery rebuilds them from the events', async () => {
    const { keys, scope, step } = await project();
    const hook = (await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: DEAD_URL } })).body.webhook;
    await step('d3');
    await step('d3');
    // Two attempts each (the backoff is tens of milliseconds here), then dead letters.
    await until('both requests to become dead letters', async () => {
      await runtime.worker.sweep(new Date());
      await runtime.worker.idle();
      return (await pendingOf(scope, hook._id)) === 0;
    }, 20_000, 50);
    const dead = await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk });
    expect(dead.body.deadLetters).toHaveLength(2);
    for (const letter of dead.body.deadLetters) {
      expect(letter).toMatchObject({ payload: null, payloadDropped: true, eventIds: [expect.any(String)] });
    }
    const stored = await server.running.gateway.adapters.store.list(OUTBOX, scope, { equals: { webhookId: hook._id, state: 'dead' }, sortBy: 'createdAt', order: 'asc', limit: 10 });
    for (const row of stored.docs) expect(JSON.stringify(row).length).toBeLessThan(1000);

    receiver.fallback = { status: 200 };
    await server.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { url: `${receiver.url}/rebuilt` } });
    const again = await server.request('POST', `/v1/webhooks/${hook._id}/dead-letters/redeliver`, { key: keys.testSk });
    expect(again.body.queued).toBe(2);
    await runtime.worker.sweep(new Date());
    await runtime.worker.idle();
    const got = receiver.received.filter((r) => r.path === '/rebuilt');
    expect(got.map((r) => r.json.event._id)).toEqual(dead.body.deadLetters.map((l: { eventIds: string[] }) => l.eventIds[0]));
    expect(got[0].json.user).toMatchObject({ deviceId: 'd3' });
  });
});
