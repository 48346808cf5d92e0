// Webhook delivery end to end: a real gateway, real track updates, a real receiver on 127.0.0.1
// (allowed by configuration). Signatures, payload shapes, batching, retries after 500s and timeouts,
// dead letters, redelivery, ordering and metrics.
import { createHmac } from 'node:crypto';
import { verifyRadarSignature, verifyWaymarkSignature } from '../../core/webhooks/signature';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { webhooksOf } from '../../server/features/webhooks/webhooks-feature';
import { newObjectId } from '../../core/object-id';
import { put, type Doc } from '../../ports/store';
import type { OutboxRow } from '../../core/model/webhook';
import { named } from '../support/named-collection';
import { fastWebhooks } from './webhooks-config';
import { until } from '../support/until';
import { startReceiver, type Received, type TestReceiver } from './webhooks-receiver';
import { OUTBOX } from '../../server/api/collections';
import { SHARED_USERS } from '../../server/features/webhooks/webhook-docs';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const AWAY = { lat: 40.77, lng: -73.98 };

let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ webhooks: fastWebhooks() });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.script = [];
  receiver.fallback = { status: 200 };
});

interface Hook {
  _id: string;
  token: string;
}

/** A fresh project with `fences` circles around the café (all entered at once) and one webhook. */
async function setup(webhook: Record<string, unknown>, fences = 1): Promise<{ keys: ProjectKeys; hook: Hook; path: string }> {
  const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
  for (let i = 0; i < fences; i++) {
    const r = await server.request('PUT', `/v1/geofences/venue/cafe-${i}`, {
      key: keys.testSk, body: { description: `Café ${i}`, type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100 + i },
    });
    expect(r.status).toBe(200);
  }
  const path = `/hook-${keys.id}`;
  const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path, ...webhook } });
  expect(created.status).toBe(200);
  return { keys, hook: created.body.webhook, path };
}

async function track(key: string, deviceId: string, at: { lat: number; lng: number }): Promise<Array<{ _id: string; type: string }>> {
  const r = await server.request('POST', '/v1/track', { key, body: { deviceId, userId: `u-${deviceId}`, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true } });
  expect(r.status).toBe(200);
  return r.body.events;
}

function at(path: string): (rs: Received[]) => Received[] {
  return (rs) => rs.filter((r) => r.path === path);
}

/** A device's update away from the café, then one at it: the entry's events (one per geofence there). */
async function walkIn(key: string, deviceId: string): Promise<Array<{ _id: string; type: string }>> {
  await track(key, deviceId, AWAY);
  return track(key, deviceId, CAFE);
}

function eventIdsOf(r: Received): string[] {
  return r.json.events ? r.json.events.map((e: { _id: string }) => e._id) : [r.json.event._id];
}

test('a track event arrives as Radar sends it, and both signatures verify with the token', async () => {
  const { keys, hook, path } = await setup({});
  const events = await walkIn(keys.testPk, 'd1');
  expect(events.map((e) => e.type)).toEqual(['user.entered_geofence']);
  await receiver.waitFor((rs) => at(path)(rs).length === 1, undefined, 'one delivery');
  const [req] = at(path)(receiver.received);

  expect(req.method).toBe('POST');
  expect(req.headers['content-type']).toBe('application/json');
  expect(Object.keys(req.json).sort()).toEqual(['event', 'user']);
  expect(req.json.event).toMatchObject({ _id: events[0]._id, type: 'user.entered_geofence', live: false, geofence: { tag: 'venue', externalId: 'cafe-0' } });
  expect(req.json.event.userRef).toBeUndefined();
  expect(req.json.user).toMatchObject({ userId: 'u-d1', deviceId: 'd1' });
  expect(req.json.user._visits).toBeUndefined();

  const signingId = String(req.headers['x-radar-signing-id']);
  expect(signingId).toMatch(/^[0-9a-f]{24}$/);
  expect(req.headers['x-radar-signature']).toBe(createHmac('sha1', hook.token).update(signingId).digest('hex'));
  expect(verifyRadarSignature(hook.token, signingId, String(req.headers['x-radar-signature']))).toBe(true);
  expect(verifyRadarSignature('another-token', signingId, String(req.headers['x-radar-signature']))).toBe(false);

  const check = { header: String(req.headers['x-waymark-signature']), timestamp: String(req.headers['x-waymark-timestamp']), token: hook.token, now: new Date() };
  expect(verifyWaymarkSignature({ ...check, body: req.body })).toBe(true);
  expect(verifyWaymarkSignature({ ...check, body: req.body.replace('entered', 'exited') })).toBe(false);
  expect(req.headers['x-waymark-event-ids']).toBe(events[0]._id);
  expect(req.headers['x-waymark-attempt']).toBe('1');

  // The outcome is written once the receiver answered: wait for it rather than race it.
  const log = await waitForLog(keys.testSk, hook._id, 1);
  expect(log).toHaveLength(1);
  expect(log[0]).toMatchObject({ outcome: 'delivered', status: 200, attempt: 1, eventIds: [events[0]._id] });
  expect(typeof log[0].latencyMs).toBe('number');
});

test.each([
  ['single', 1, [1, 1, 1, 1, 1, 1, 1]],
  ['batch', 5, [5, 2]],
])('%s mode: seven events of one update arrive in order, %i per request', async (mode, _size, shape) => {
  const { keys, path } = await setup({ mode }, 7);
  const events = await walkIn(keys.testPk, 'd1');
  expect(events).toHaveLength(7);
  await receiver.waitFor((rs) => at(path)(rs).length === shape.length, undefined, `${shape.length} requests`);
  const requests = at(path)(receiver.received);
  expect(requests.map((r) => eventIdsOf(r).length)).toEqual(shape);
  expect(requests.flatMap(eventIdsOf)).toEqual(events.map((e) => e._id));
  for (const r of requests) {
    expect(r.json.user).toMatchObject({ deviceId: 'd1' });
    if (mode === 'batch') expect(r.json.event).toBeUndefined();
  }
});

test('an update that enters three geofences queues one row holding its user once; each of its requests carries it whole, dead letters too', async () => {
  const { keys, hook, path } = await setup({}, 3);
  const scope = { projectId: keys.id, live: false };
  const store = server.running.gateway.adapters.store;
  const outbox = async (): Promise<OutboxRow[]> => (await store.list(OUTBOX, scope, { limit: 10, sortBy: 'createdAt', order: 'asc' })).docs;
  // The receiver asks the first request to come back in a second, so the queue can be seen meanwhile.
  receiver.script = [{ status: 503, headers: { 'retry-after': '1' } }];
  const events = await walkIn(keys.testPk, 'd1');
  expect(events).toHaveLength(3);
  await waitForLog(keys.testSk, hook._id, 1);
  const [bundle, ...others] = await outbox();
  expect(others).toEqual([]);
  expect(bundle).toMatchObject({ state: 'pending', sent: 0, attempts: 1, eventIds: events.map((e) => e._id) });
  expect(bundle.parts).toHaveLength(3);

  await receiver.waitFor((rs) => at(path)(rs).length === 4, undefined, 'a retry and three deliveries');
  const requests = at(path)(receiver.received).slice(1);
  expect(requests.map((r) => r.json.event._id)).toEqual(events.map((e) => e._id));
  for (const r of requests) {
    // Byte for byte what JSON.stringify({event, user}) makes: the signature covers these bytes.
    expect(r.body).toBe(JSON.stringify(r.json));
    expect(Object.keys(r.json)).toEqual(['event', 'user']);
    expect(r.json.user).toMatchObject({ userId: 'u-d1', deviceId: 'd1', geofences: expect.any(Array) });
    expect(r.json.user.geofences).toHaveLength(3);
    expect(r.json.user).toEqual(requests[0].json.user);
  }
  // Kept as the text the bodies carry.
  expect(bundle.userJson).toBe(JSON.stringify(requests[0].json.user));
  // Each request has its own delivery id, the same on each of its attempts.
  const ids = at(path)(receiver.received).map((r) => r.headers['x-waymark-delivery-id']);
  expect(ids).toEqual([`${bundle._id}.0`, `${bundle._id}.0`, `${bundle._id}.1`, `${bundle._id}.2`]);
  // The delivery log names each attempt by the same id.
  const logged = (await waitForLog(keys.testSk, hook._id, 4)).map((e) => e.outboxId).sort();
  expect(logged).toEqual([...ids].sort());
  await until('the row deleted', async () => (await outbox()).length === 0, 5000, 20);
  expect((await store.list(SHARED_USERS, scope, { limit: 10, sortBy: 'createdAt' })).docs).toEqual([]);

  // Requests that die become dead letters of their own, each with its user inline.
  receiver.fallback = { status: 500 };
  const lost = await walkIn(keys.testPk, 'd2');
  await waitForLog(keys.testSk, hook._id, 4 + 3 * 4);
  const dead = (await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk })).body.deadLetters;
  expect(dead.map((d: { eventIds: string[] }) => d.eventIds)).toEqual(lost.map((e) => [e._id]));
  for (const d of dead) expect(d.payload.user).toMatchObject({ userId: 'u-d2', deviceId: 'd2' });
  const rows = await outbox();
  expect(rows.map((d) => [d.state, d.parts, d.sharedUser])).toEqual([['dead', undefined, undefined], ['dead', undefined, undefined], ['dead', undefined, undefined]]);
  expect(new Set(rows.map((d) => d._id)).size).toBe(3);
});

test('a part of a queued row that dies becomes a dead letter, and the row goes on with its next part', async () => {
  const { keys, hook, path } = await setup({}, 3);
  const scope = { projectId: keys.id, live: false };
  const store = server.running.gateway.adapters.store;
  receiver.script = [{ status: 200 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }];
  const events = await walkIn(keys.testPk, 'd1');
  await receiver.waitFor((rs) => at(path)(rs).length === 6, undefined, 'one delivery, four failures, one delivery');
  const sent = at(path)(receiver.received).map((r) => r.json.event._id);
  expect(sent).toEqual([events[0]._id, events[1]._id, events[1]._id, events[1]._id, events[1]._id, events[2]._id]);
  await waitForLog(keys.testSk, hook._id, 6);
  const dead = (await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk })).body.deadLetters;
  expect(dead.map((d: { eventIds: string[] }) => d.eventIds)).toEqual([[events[1]._id]]);
  await until('the row deleted', async () => (await store.list(OUTBOX, scope, { limit: 10, sortBy: 'createdAt', equals: { state: 'pending' } })).docs.length === 0, 5000, 20);
});

test('rows queued by an earlier version whose shared user is gone are sent with the user as stored now', async () => {
  const { keys, hook, path } = await setup({}, 2);
  const scope = { projectId: keys.id, live: false };
  const store = server.running.gateway.adapters.store;
  await walkIn(keys.testPk, 'd1');
  await receiver.waitFor((rs) => at(path)(rs).length === 2, undefined, 'two deliveries');
  const [first] = at(path)(receiver.received);
  const moved = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'd1', userId: 'u-d1', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true, metadata: { v: 2 } } });
  expect(moved.body.events).toEqual([]);
  // Two rows as earlier versions wrote them: the user stored apart, in a document that is gone now.
  const now = new Date();
  const iso = now.toISOString();
  const rows = [0, 1].map((i): Doc => ({
    _id: newObjectId(now), createdAt: iso, updatedAt: iso, webhookId: hook._id, state: 'pending',
    nextAttemptAt: iso, enqueuedAt: iso, eventIds: [`old-${i}`], eventTypes: ['user.entered_geofence'], attempts: 0, origin: 'event',
    sharedUser: newObjectId(now), payloadJson: JSON.stringify({ event: { ...first.json.event, _id: `old-${i}` }, user: null }),
  }));
  // Rows in the shape an earlier version wrote (a shared user), put as untyped documents.
  await store.write(rows.map((doc) => put(named(OUTBOX.name), scope, doc)));
  await receiver.waitFor((rs) => at(path)(rs).length === 4, undefined, 'the two old rows');
  const [, , third, fourth] = at(path)(receiver.received);
  expect([third.json.event._id, fourth.json.event._id]).toEqual(['old-0', 'old-1']);
  expect([third.json.user.metadata, fourth.json.user.metadata]).toEqual([{ v: 2 }, { v: 2 }]);
});

test('rows queued before payloads were kept as text are sent byte for byte as then, with a shared user or inline', async () => {
  const { keys, hook, path } = await setup({});
  const scope = { projectId: keys.id, live: false };
  const now = new Date();
  const iso = now.toISOString();
  const user = { _id: newObjectId(now), userId: 'u-old', deviceId: 'old', metadata: { note: 'Café ☕ "quoted"', n: 1.5, big: 1e21 } };
  const event = (n: number): Record<string, unknown> => ({
    _id: newObjectId(now), type: 'user.entered_geofence', createdAt: iso, live: false,
    user: { _id: user._id, userId: user.userId }, geofence: { description: `Café ${n} ☕`, metadata: { n } }, confidence: 3,
  });
  const row = (payload: { event: Record<string, unknown>; user: unknown }, extra: Record<string, unknown> = {}): Doc => ({
    _id: newObjectId(now), createdAt: iso, updatedAt: iso, webhookId: hook._id, state: 'pending', nextAttemptAt: iso, enqueuedAt: iso,
    eventIds: [payload.event._id], eventTypes: [payload.event.type], payload, attempts: 0, origin: 'event', ...extra,
  });
  const sharedId = newObjectId(now);
  const [inline, shared] = [event(1), event(2)];
  // As the gateway stored them before: the payload as an object, the shared user as an object.
  await server.running.gateway.adapters.store.write([
    put(SHARED_USERS, scope, { _id: sharedId, createdAt: iso, updatedAt: iso, user, expiresAt: new Date(now.getTime() + 86_400_000).toISOString() }),
    put(named(OUTBOX.name), scope, row({ event: inline, user })),
    put(named(OUTBOX.name), scope, row({ event: shared, user: null }, { sharedUser: sharedId })),
  ]);
  await receiver.waitFor((rs) => at(path)(rs).length === 2, undefined, 'the two old rows');
  expect(at(path)(receiver.received).map((r) => r.body)).toEqual([JSON.stringify({ event: inline, user }), JSON.stringify({ event: shared, user })]);
});

test('the type filter sends only the chosen event types; a trailing * matches a prefix', async () => {
  const { keys, path } = await setup({ types: ['user.exited_*'] });
  const entered = await walkIn(keys.testPk, 'd1');
  const exited = await track(keys.testPk, 'd1', AWAY);
  expect(exited.map((e) => e.type)).toEqual(['user.exited_geofence']);
  await receiver.waitFor((rs) => at(path)(rs).length >= 1, undefined, 'the exit');
  const ids = at(path)(receiver.received).flatMap(eventIdsOf);
  expect(ids).toEqual([exited[0]._id]);
  expect(ids).not.toContain(entered[0]._id);
});

test('500s are retried with a new signing id each time until the receiver accepts; the log shows each attempt', async () => {
  const { keys, hook, path } = await setup({});
  receiver.script = [{ status: 500 }, { status: 503, headers: { 'retry-after': '0' } }];
  const [event] = await walkIn(keys.testPk, 'd1');
  await receiver.waitFor((rs) => at(path)(rs).length === 3, undefined, 'three attempts');
  const attempts = at(path)(receiver.received);
  expect(attempts.map((r) => r.json.event._id)).toEqual([event._id, event._id, event._id]);
  expect(attempts.map((r) => r.headers['x-waymark-attempt'])).toEqual(['1', '2', '3']);
  expect(new Set(attempts.map((r) => r.headers['x-radar-signing-id'])).size).toBe(3);
  expect(new Set(attempts.map((r) => r.headers['x-waymark-delivery-id'])).size).toBe(1);

  const log = await waitForLog(keys.testSk, hook._id, 3);
  expect(log.map((e) => [e.attempt, e.outcome, e.status])).toEqual([[3, 'delivered', 200], [2, 'retry', 503], [1, 'retry', 500]]);
  expect(log[1].error).toBe('receiver answered 503');
  expect(typeof log[1].nextAttemptAt).toBe('string');
});

test('a receiver slower than the timeout is retried, then delivered', async () => {
  const { keys, hook, path } = await setup({});
  receiver.script = [{ status: 200, delayMs: 2000 }];
  await walkIn(keys.testPk, 'd1');
  await receiver.waitFor((rs) => at(path)(rs).length === 2, undefined, 'two attempts');
  const log = await waitForLog(keys.testSk, hook._id, 2);
  expect(log.map((e) => [e.attempt, e.outcome, e.status])).toEqual([[2, 'delivered', 200], [1, 'retry', null]]);
  expect(log[1].error).toBe('timeout after 400 ms');
});

type LogEntry = { outboxId: string; attempt: number; outcome: string; status: number | null; error?: string; nextAttemptAt?: string; eventIds: string[]; latencyMs: number };

async function waitForLog(key: string, hookId: string, count: number): Promise<LogEntry[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await server.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key });
    if (r.body.deliveries.length >= count) return r.body.deliveries;
    if (Date.now() > deadline) throw new Error(`delivery log has ${r.body.deliveries.length} entries, wanted ${count}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

test('after the maximum attempts a row is a dead letter; redelivering it delivers it', async () => {
  const { keys, hook, path } = await setup({});
  receiver.fallback = { status: 500 };
  const [event] = await walkIn(keys.testPk, 'd1');
  const log = await waitForLog(keys.testSk, hook._id, 4);
  expect(log.map((e) => e.outcome)).toEqual(['dead', 'retry', 'retry', 'retry']);
  expect(at(path)(receiver.received)).toHaveLength(4);

  const dead = await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk });
  expect(dead.body.deadLetters).toHaveLength(1);
  expect(dead.body.deadLetters[0]).toMatchObject({ eventIds: [event._id], attempts: 4, deadReason: 'max-attempts', lastStatus: 500 });

  receiver.fallback = { status: 200 };
  const again = await server.request('POST', `/v1/webhooks/${hook._id}/dead-letters/redeliver`, { key: keys.testSk, body: {} });
  expect(again.body).toMatchObject({ queued: 1, missing: [] });
  await receiver.waitFor((rs) => at(path)(rs).length === 5, undefined, 'the redelivery');
  const last = at(path)(receiver.received)[4];
  expect(last.json.event._id).toBe(event._id);
  expect(last.headers['x-waymark-attempt']).toBe('1');
  await waitForLog(keys.testSk, hook._id, 5);
  const after = await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk });
  expect(after.body.deadLetters).toEqual([]);
});

test('a failed row whose next try would fall after the maximum age becomes a dead letter at once', async () => {
  const expiring = await startTestServer({ webhooks: fastWebhooks({ maxAgeMs: 3000, backoffBaseMs: 6000, backoffMaxMs: 6000, maxAttempts: 100 }) });
  try {
    const keys = expiring.keys;
    await expiring.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
    const path = '/expiring';
    const hook = (await expiring.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path } })).body.webhook;
    receiver.fallback = { status: 500 };
    const r = await expiring.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'x', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true } });
    expect(r.body.events).toHaveLength(1);
    const deadline = Date.now() + 15_000;
    let dead: Array<{ deadReason: string; deadAt: string; lastAttemptAt: string }> = [];
    while (dead.length === 0 && Date.now() < deadline) {
      dead = (await expiring.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk })).body.deadLetters;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(dead).toHaveLength(1);
    expect(dead[0].deadReason).toBe('max-age');
    // Given up as the attempt ended, not when the next try came due (and found the row too old).
    // (The next try would come 3-6 s after the attempt: the backoff with its jitter.)
    expect(Date.parse(dead[0].deadAt) - Date.parse(dead[0].lastAttemptAt)).toBeLessThan(3000);
    // The first attempt failed and the next (6 s later) would be past the 3 s maximum age. (The age leaves
    // room for the first attempt on a busy machine: a row older than it is given up without being sent.)
    expect(at(path)(receiver.received)).toHaveLength(1);
  } finally {
    await expiring.close();
  }
});

test('a row already past the maximum age when its turn comes is dead-lettered without being sent', async () => {
  const expiring = await startTestServer({ webhooks: fastWebhooks({ maxAgeMs: 150 }) });
  try {
    const keys = expiring.keys;
    await expiring.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
    const path = '/stale';
    const hook = (await expiring.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path } })).body.webhook;
    const [event] = (await expiring.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'x', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true } })).body.events;
    await receiver.waitFor((rs) => at(path)(rs).length === 1, undefined, 'the delivery');
    // Queued while the webhook is paused, then left to age past the maximum before it is resumed.
    await expiring.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { enabled: false } });
    const queued = await expiring.request('POST', `/v1/webhooks/${hook._id}/redeliver`, { key: keys.testSk, body: { eventIds: event._id } });
    expect(queued.body.queued).toBe(1);
    await new Promise((res) => setTimeout(res, 250));
    await expiring.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { enabled: true } });
    const deadline = Date.now() + 15_000;
    let log: LogEntry[] = [];
    while (log.length < 2 && Date.now() < deadline) {
      log = (await expiring.request('GET', `/v1/webhooks/${hook._id}/deliveries`, { key: keys.testSk })).body.deliveries;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(log.map((e) => [e.outcome, e.status, e.attempt])).toEqual([['expired', null, 0], ['delivered', 200, 1]]);
    const dead = (await expiring.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk })).body.deadLetters;
    expect(dead.map((d: { deadReason: string; attempts: number }) => [d.deadReason, d.attempts])).toEqual([['max-age', 0]]);
    expect(at(path)(receiver.received)).toHaveLength(1);
  } finally {
    await expiring.close();
  }
});

test('past events are redelivered on request, by id and by time range', async () => {
  const { keys, hook, path } = await setup({});
  const [entry] = await walkIn(keys.testPk, 'd1');
  const [exit] = await track(keys.testPk, 'd1', AWAY);
  await receiver.waitFor((rs) => at(path)(rs).length === 2, undefined, 'the first two deliveries');

  const byId = await server.request('POST', `/v1/webhooks/${hook._id}/redeliver`, { key: keys.testSk, body: { eventIds: [entry._id, 'ffffffffffffffffffffffff'] } });
  expect(byId.body).toMatchObject({ queued: 1, eventIds: [entry._id], missing: ['ffffffffffffffffffffffff'] });
  await receiver.waitFor((rs) => at(path)(rs).length === 3, undefined, 'the redelivery by id');
  expect(at(path)(receiver.received)[2].json.event._id).toBe(entry._id);

  const byRange = await server.request('POST', `/v1/webhooks/${hook._id}/redeliver`, { key: keys.testSk, body: { createdAfter: '2000-01-01T00:00:00Z' } });
  expect(byRange.body).toMatchObject({ queued: 2, eventIds: [entry._id, exit._id] });
  await receiver.waitFor((rs) => at(path)(rs).length === 5, undefined, 'the redelivery by range');
  expect(at(path)(receiver.received).slice(3).map((r) => r.json.event._id)).toEqual([entry._id, exit._id]);

  const bad = await server.request('POST', `/v1/webhooks/${hook._id}/redeliver`, { key: keys.testSk, body: {} });
  expect(bad.status).toBe(400);
  expect(bad.body.meta.param).toBe('eventIds');
});

test('rows of an endpoint are delivered in order: later rows wait behind a failing one', async () => {
  const { keys, path } = await setup({});
  receiver.script = [{ status: 500 }, { status: 500 }];
  const ids: string[] = [];
  await track(keys.testPk, 'd1', AWAY);
  for (let i = 0; i < 3; i++) {
    ids.push(...(await track(keys.testPk, 'd1', CAFE)).map((e) => e._id));
    ids.push(...(await track(keys.testPk, 'd1', AWAY)).map((e) => e._id));
  }
  expect(ids).toHaveLength(6);
  await receiver.waitFor((rs) => new Set(at(path)(rs).map((r) => r.json.event._id)).size === 6, undefined, 'six events');
  const seen = at(path)(receiver.received).map((r) => r.json.event._id);
  // Retries repeat the head; nothing behind it is sent before it is delivered.
  const firstSeen = ids.map((id) => seen.indexOf(id));
  expect([...firstSeen].sort((a, b) => a - b)).toEqual(firstSeen);
  expect(seen.slice(0, 3)).toEqual([ids[0], ids[0], ids[0]]);
});

test('a disabled webhook queues nothing; once enabled it gets new events', async () => {
  const { keys, hook, path } = await setup({ enabled: false });
  expect(hook).toMatchObject({ enabled: false });
  const [skipped] = await walkIn(keys.testPk, 'd1');
  const enabled = await server.request('PATCH', `/v1/webhooks/${hook._id}`, { key: keys.testSk, body: { enabled: true } });
  expect(enabled.body.webhook.enabled).toBe(true);
  const [sent] = await track(keys.testPk, 'd1', AWAY);
  await receiver.waitFor((rs) => at(path)(rs).length >= 1, undefined, 'the exit');
  const ids = at(path)(receiver.received).map((r) => r.json.event._id);
  expect(ids).toEqual([sent._id]);
  expect(ids).not.toContain(skipped._id);
});

test('test and live environments have their own webhooks and events', async () => {
  const { keys, path } = await setup({});
  await server.request('PUT', '/v1/geofences/venue/live-cafe', { key: keys.liveSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Live café' } });
  const livePath = `${path}-live`;
  const live = await server.request('POST', '/v1/webhooks', { key: keys.liveSk, body: { url: receiver.url + livePath } });
  expect(live.body.webhook.live).toBe(true);
  const testHooks = await server.request('GET', '/v1/webhooks', { key: keys.testSk });
  expect(testHooks.body.webhooks.map((w: { live: boolean }) => w.live)).toEqual([false]);

  await track(keys.livePk, 'd1', AWAY);
  const [liveEvent] = await track(keys.livePk, 'd1', CAFE);
  const [testEvent] = await walkIn(keys.testPk, 'd1');
  await receiver.waitFor((rs) => at(path)(rs).length === 1 && at(livePath)(rs).length === 1, undefined, 'one per environment');
  expect(at(livePath)(receiver.received)[0].json.event).toMatchObject({ _id: liveEvent._id, live: true });
  expect(at(path)(receiver.received)[0].json.event).toMatchObject({ _id: testEvent._id, live: false });
});

test('clean-up drops delivery-log entries after 7 days, shared payload users (of rows queued by earlier versions) after the maximum age and a day, and dead letters after 30', async () => {
  const { keys, hook } = await setup({}, 2);
  const scope = { projectId: keys.id, live: false };
  const store = server.running.gateway.adapters.store;
  const sharedUsers = async (): Promise<unknown[]> => (await store.list(SHARED_USERS, scope, { limit: 10, sortBy: 'createdAt' })).docs;
  // A shared user as earlier versions wrote them, kept for the maximum age (a day here) and a day more.
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 2 * 24 * 3_600_000).toISOString();
  await store.write([put(SHARED_USERS, scope, { _id: newObjectId(now), createdAt: now.toISOString(), updatedAt: now.toISOString(), userJson: '{}', expiresAt })]);
  receiver.fallback = { status: 500 };
  await walkIn(keys.testPk, 'd1');
  await waitForLog(keys.testSk, hook._id, 8);
  receiver.fallback = { status: 200 };
  const deadLetters = async (): Promise<unknown[]> => (await server.request('GET', `/v1/webhooks/${hook._id}/dead-letters`, { key: keys.testSk })).body.deadLetters;
  const log = async (): Promise<unknown[]> => (await server.request('GET', `/v1/webhooks/${hook._id}/deliveries`, { key: keys.testSk })).body.deliveries;
  expect(await deadLetters()).toHaveLength(2);
  expect(await sharedUsers()).toHaveLength(1);

  // The clean-up job, run as its schedule would run it on later days (the maximum age here is a day).
  const worker = webhooksOf(server.running.gateway.installed)!.worker;
  const day = 24 * 3_600_000;
  await worker.purge(new Date(Date.now() + 1.5 * day));
  expect(await sharedUsers()).toHaveLength(1);
  await worker.purge(new Date(Date.now() + 6 * day));
  expect(await log()).toHaveLength(8);
  expect(await sharedUsers()).toEqual([]);
  await worker.purge(new Date(Date.now() + 8 * day));
  expect(await log()).toEqual([]);
  expect(await deadLetters()).toHaveLength(2);
  await worker.purge(new Date(Date.now() + 31 * day));
  expect(await deadLetters()).toEqual([]);
});

test('a gateway shut down cleanly hands its endpoint leases back: the next one delivers at once', async () => {
  // Leases last the timeout + 5 s; with a 20 s timeout only a released lease lets the second gateway
  // deliver within the wait below.
  const slow = fastWebhooks({ timeoutMs: 20_000 });
  const first = await startTestServer({ webhooks: slow });
  const dataDir = first.dataDir;
  const path = '/handover';
  try {
    await first.request('PUT', '/v1/geofences/venue/cafe', { key: first.keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
    const hook = (await first.request('POST', '/v1/webhooks', { key: first.keys.testSk, body: { url: receiver.url + path } })).body.webhook;
    await first.request('POST', '/v1/track', { key: first.keys.testPk, body: { deviceId: 'h', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true } });
    await receiver.waitFor((rs) => at(path)(rs).length === 1, undefined, 'the first delivery');
    // Received is not yet recorded: a shutdown before the gateway has the answer and writes the outcome
    // aborts the attempt and leaves the row to be sent again (at least once), by the second gateway.
    const deadline = Date.now() + 10_000;
    while ((await first.request('GET', `/v1/webhooks/${hook._id}/deliveries`, { key: first.keys.testSk })).body.deliveries.length === 0) {
      if (Date.now() > deadline) throw new Error('the first delivery was never recorded');
      await new Promise((res) => setTimeout(res, 20));
    }
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir, webhooks: slow });
  try {
    const r = await second.request('POST', '/v1/track', { key: second.keys.testPk, body: { deviceId: 'h', latitude: AWAY.lat, longitude: AWAY.lng, accuracy: 5 } });
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.exited_geofence']);
    await receiver.waitFor((rs) => at(path)(rs).length === 2, 10_000, 'the delivery by the second gateway');
    expect(at(path)(receiver.received)[1].json.event._id).toBe(r.body.events[0]._id);
  } finally {
    await second.close();
  }
});

test('more endpoints than the concurrency limit: every one is delivered, the sweep does not always stop at the same ones', async () => {
  // With two drains at a time, the third endpoint's row waits for a sweep; a sweep that always began
  // with the first endpoints (whose drains start, find nothing, and fill the limit) never reached it.
  const narrow = await startTestServer({ webhooks: fastWebhooks({ concurrency: 2 }) });
  try {
    await narrow.request('PUT', '/v1/geofences/venue/cafe', { key: narrow.keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
    const paths = ['/narrow-1', '/narrow-2', '/narrow-3'];
    for (const p of paths) await narrow.request('POST', '/v1/webhooks', { key: narrow.keys.testSk, body: { url: receiver.url + p } });
    await narrow.request('POST', '/v1/track', { key: narrow.keys.testPk, body: { deviceId: 'n', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true } });
    await receiver.waitFor((rs) => paths.every((p) => at(p)(rs).length === 1), 5000, 'one request at each of the three endpoints');
  } finally {
    await narrow.close();
  }
});

test('metrics count deliveries, retries and dead letters in Prometheus text', async () => {
  const { keys, hook } = await setup({});
  receiver.script = [{ status: 500 }];
  await walkIn(keys.testPk, 'd1');
  await waitForLog(keys.testSk, hook._id, 2);
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const value = (line: string): number => {
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    if (!found) throw new Error(`no ${line} in\n${text}`);
    return Number(found.slice(line.length + 1));
  };
  expect(value('waymark_webhook_requests_total{result="delivered"}')).toBeGreaterThanOrEqual(1);
  expect(value('waymark_webhook_requests_total{result="failed"}')).toBeGreaterThanOrEqual(1);
  expect(value('waymark_webhook_retries_total')).toBeGreaterThanOrEqual(1);
  expect(value('waymark_webhook_events_delivered_total')).toBeGreaterThanOrEqual(1);
  expect(value('waymark_webhook_delivery_duration_seconds_count')).toBeGreaterThanOrEqual(2);
  expect(text).toMatch(/^waymark_webhook_pending \d+$/m);
  expect(text).toMatch(/^# TYPE waymark_webhook_delivery_duration_seconds histogram$/m);
});
