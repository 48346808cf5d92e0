// Conversions (POST /v1/events) are stored and reach webhooks like track's events.
import { startTestServer, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';

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

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a conversion by a known user is stored, answered with {meta, event} and delivered with the user', async () => {
  await server.request('POST', '/v1/webhooks', { key: server.keys.testSk, body: { url: `${receiver.url}/conv` } });
  await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'conv-dev', userId: 'conv-user', latitude: 40.7, longitude: -73.9, accuracy: 10 } });
  const r = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: 'opened_app', userId: 'conv-user', metadata: { revenue: 12.5, sku: 'a1' } } });
  expect(r.status).toBe(200);
  expect(r.body.event).toMatchObject({ type: 'opened_app', conversion: true, revenue: 12.5, user: { userId: 'conv-user', deviceId: 'conv-dev' } });
  expect(r.body.event._id).toMatch(/^[0-9a-f]{24}$/);
  expect(r.body.event.createdAt).toMatch(/\.\d{3}Z$/);
  const stored = await server.request('GET', `/v1/events/${r.body.event._id}`, { key: server.keys.testSk });
  expect(stored.body.event).toEqual(r.body.event);
  const hit = await waitFor(() => receiver.received.find((x) => x.path === '/conv' && (x.json.event ?? x.json.events?.[0])?.type === 'opened_app'), 'the conversion delivery');
  expect(hit.json.user).toMatchObject({ userId: 'conv-user' });
  expect((hit.json.event ?? hit.json.events[0])._id).toBe(r.body.event._id);
});

test.each([
  ['no name', { userId: 'x' }, 'name', 'name is required'],
  ['bad characters', { name: 'bought item!' }, 'name', 'name must contain only letters, digits and underscores'],
  ['bad revenue', { name: 'purchase', revenue: 'lots' }, 'revenue', 'revenue must be a number'],
])('a conversion with %s is refused and stores nothing', async (_n, body, param, message) => {
  const before = await server.request('GET', '/v1/events', { key: server.keys.testSk });
  const r = await server.request('POST', '/v1/events', { key: server.keys.testPk, body });
  expect(r.body.meta).toEqual({ code: 400, param, message });
  const after = await server.request('GET', '/v1/events', { key: server.keys.testSk });
  expect(after.body.events.length).toBe(before.body.events.length);
});

test('a conversion takes userId and deviceId up to 256 characters, as track does, and answers 400 past it', async () => {
  const long = 'd'.repeat(256);
  const track = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: long, userId: long, latitude: 40.7, longitude: -73.9, accuracy: 10 } });
  expect(track.status).toBe(200);
  const ok = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: 'long_ids', userId: long, deviceId: long } });
  expect(ok.status).toBe(200);
  expect(ok.body.event.user).toMatchObject({ userId: long, deviceId: long });
  for (const param of ['userId', 'deviceId']) {
    const tooLong = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: 'long_ids', [param]: `${long}x` } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.meta.param).toBe(param);
    const trackTooLong = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'ok-dev', [param]: `${long}x`, latitude: 40.7, longitude: -73.9, accuracy: 10 } });
    expect(trackTooLong.status).toBe(400);
    expect(trackTooLong.body.meta.param).toBe(param);
  }
});
