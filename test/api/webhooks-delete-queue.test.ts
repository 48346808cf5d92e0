// DELETE /v1/webhooks/:id with a large queue (a dead receiver's) while track runs: the delete answers
// once the webhook is gone, and the queue is removed in the background in small batches between which
// track updates commit (issue 31, item 3). Before, the delete removed the whole queue inside the
// request: 33,843 rows took 12.7 s on SQLite while track fell to a tenth.
//
// The delivery poll is off: the receiver is a closed port and nothing is sent; the rows are copies of
// one real row that a track update wrote, put in the Store directly to make a big queue quickly.
import { put, type Scope } from '../../ports/store';
import type { OutboxRow } from '../../core/model/webhook';
import { newObjectId } from '../../core/object-id';
import { webhooksOf } from '../../server/features/webhooks/webhooks-feature';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { fastWebhooks } from './webhooks-config';
import { OUTBOX } from '../../server/api/collections';

const QUEUE_ROWS = 10_000;
const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };

describe.each(eachStore('large-queue delete tests'))('deleting a webhook with a large queue on %s', (_name, storeConfig) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...storeConfig(), webhooks: fastWebhooks({ pollMs: 0 }) });
  });
  afterAll(() => server?.close());

  test('answers before the queue is gone; track keeps answering while batches remove it; every row goes', async () => {
    const sk = server.keys.testSk;
    const pk = server.keys.testPk;
    const scope: Scope = { projectId: server.keys.id, live: false };
    const { store } = server.running.gateway.adapters;
    const runtime = webhooksOf(server.running.gateway.installed)!;
    expect((await server.request('PUT', '/v1/geofences/venue/cafe', { key: sk, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 } })).status).toBe(200);
    const hook = (await server.request('POST', '/v1/webhooks', { key: sk, body: { url: 'http://127.0.0.1:9/dead' } })).body.webhook;
    const kept = (await server.request('POST', '/v1/webhooks', { key: sk, body: { url: 'http://127.0.0.1:9/kept' } })).body.webhook;

    const track = (deviceId: string, at: { lat: number; lng: number }) =>
      server.request('POST', '/v1/track', { key: pk, body: { deviceId, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true } });
    await track('seed', AWAY);
    expect((await track('seed', CAFE)).body.events).toHaveLength(1);
    // Every row here is pending (nothing is sent); the (webhook, state) index reads them in order.
    const rowsOf = async (webhookId: string, limit = 1): Promise<OutboxRow[]> =>
      (await store.list(OUTBOX, scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit })).docs;
    const [row] = await rowsOf(hook._id);
    for (let made = 1; made < QUEUE_ROWS; made += 2000) {
      const n = Math.min(2000, QUEUE_ROWS - made);
      await store.write(Array.from({ length: n }, () => (put(OUTBOX, scope, { ...row, _id: newObjectId(new Date()) }))));
    }
    expect(await rowsOf(hook._id, QUEUE_ROWS + 1)).toHaveLength(QUEUE_ROWS);

    // Track load from four devices, each stepping in and out of the café, until the test says stop.
    let loading = true;
    const answered: number[] = [];
    let duringPurge = 0;
    let purging = false;
    const load = Promise.all(['a', 'b', 'c', 'd'].map(async (device) => {
      for (let i = 0; loading; i++) {
        const res = await track(device, i % 2 ? CAFE : AWAY);
        answered.push(res.status);
        if (purging) duringPurge++;
      }
    }));

    const deleted = await server.request('DELETE', `/v1/webhooks/${hook._id}`, { key: sk });
    expect(deleted.status).toBe(200);
    // The delete answered with most of the queue still there: the rows go in the background.
    expect((await rowsOf(hook._id, QUEUE_ROWS + 1)).length).toBeGreaterThan(0);
    expect((await server.request('GET', `/v1/webhooks/${hook._id}`, { key: sk })).status).toBe(404);
    purging = true;
    await until('the queue to be removed', async () => (await rowsOf(hook._id)).length === 0, 120_000, 50);
    purging = false;
    loading = false;
    await load;

    // Track updates were answered between the batches, every one of them with 200.
    expect(duringPurge).toBeGreaterThan(0);
    expect(answered.every((s) => s === 200)).toBe(true);
    // The other webhook's queue is untouched (its rows are the track load's entries), and the removal is counted.
    expect((await rowsOf(kept._id, 10)).length).toBeGreaterThan(0);
    // At least the queue: updates in flight at the delete may add a row or two, which the removal takes as well.
    const purged = Number(/^waymark_webhook_purged_rows_total (\d+)$/m.exec(await runtime.metrics.render(Date.now()))?.[1]);
    expect(purged).toBeGreaterThanOrEqual(QUEUE_ROWS);
  }, 180_000);
});
