// Trip endpoints' input rules and auth levels: each bad input names its parameter with a readable
// message and changes nothing; form bodies and the SDKs' string numbers are accepted.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let pk: string;
let sk: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ testPk: pk, testSk: sk } = server.keys);
  const r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'existing' } });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function tripCount(): Promise<number> {
  return (await server.request('GET', '/v1/trips', { key: sk })).body.trips.length;
}

test.each([
  ['missing externalId', {}, 'externalId', 'externalId is required'],
  ['externalId null (JS SDK style)', { externalId: null }, 'externalId', 'externalId is required'],
  ['externalId an object', { externalId: { id: 1 } }, 'externalId', 'externalId must be a string'],
  ['unknown mode', { externalId: 'x', mode: 'plane' }, 'mode', 'mode must be one of foot, bike, car'],
  ['truck is not a trip mode', { externalId: 'x', mode: 'truck' }, 'mode', 'mode must be one of foot, bike, car'],
  ['approachingThreshold not a number', { externalId: 'x', approachingThreshold: 'soon' }, 'approachingThreshold', 'approachingThreshold must be a number'],
  ['approachingThreshold negative', { externalId: 'x', approachingThreshold: -1 }, 'approachingThreshold', 'approachingThreshold must be between 0 and 1440'],
  ['scheduledArrivalAt not a date', { externalId: 'x', scheduledArrivalAt: 'tomorrow' }, 'scheduledArrivalAt', 'scheduledArrivalAt must be a date or an ISO 8601 datetime'],
  ['metadata not a dictionary', { externalId: 'x', metadata: [1, 2] }, 'metadata', 'metadata must be a dictionary (a JSON object)'],
  ['metadata with a nested value', { externalId: 'x', metadata: { a: { b: 1 } } }, 'metadata.a', 'metadata.a must be a string, boolean or number'],
  ['created already stopped', { externalId: 'x', status: 'completed' }, 'status', 'status must be one of pending, started, approaching, arrived (a trip is created pending or in an active status)'],
  ['unknown status', { externalId: 'x', status: 'driving' }, 'status', 'status must be one of pending, started, approaching, arrived'],
])('create rejects %s', async (_name, body, param, message) => {
  const before = await tripCount();
  const r = await server.request('POST', '/v1/trips', { key: pk, body });
  expect(r.status).toBe(400);
  expect(r.body.meta).toEqual({ code: 400, param, message });
  expect(await tripCount()).toBe(before);
});

test.each([
  ['expired is the job\'s', { status: 'expired' }, 'status', 'status must be one of pending, started, approaching, arrived, completed, canceled (expired is set by the expiry job only)'],
  ['unknown status', { status: 'done' }, 'status', 'status must be one of pending, started, approaching, arrived, completed, canceled'],
  ['bad mode', { status: 'started', mode: 'boat' }, 'mode', 'mode must be one of foot, bike, car'],
  ['bad scheduledArrivalAt', { status: 'started', scheduledArrivalAt: '2026-02-30T10:00:00Z' }, 'scheduledArrivalAt', 'scheduledArrivalAt must be a date or an ISO 8601 datetime'],
])('update rejects %s', async (_name, body, param, message) => {
  const r = await server.request('PATCH', '/v1/trips/existing/update', { key: pk, body });
  expect(r.status).toBe(400);
  expect(r.body.meta).toEqual({ code: 400, param, message });
  const trip = (await server.request('GET', '/v1/trips/existing', { key: sk })).body.trip;
  expect(trip.status).toBe('pending');
  expect(trip.metadata).toBeUndefined();
});

test('unknown trips are 404 with the id named', async () => {
  for (const [method, path] of [['GET', '/v1/trips/nope'], ['PATCH', '/v1/trips/nope/update'], ['DELETE', '/v1/trips/0123456789abcdef01234567']] as const) {
    const r = await server.request(method, path, { key: sk, body: method === 'PATCH' ? { status: 'started' } : undefined });
    expect(r.status).toBe(404);
    expect(r.body.meta).toMatchObject({ code: 404, param: 'id' });
    expect(r.body.meta.message).toMatch(/^No trip with _id/);
  }
});

test.each([
  ['POST /v1/trips', 'POST', '/v1/trips', { externalId: 'auth-a' }, 200],
  ['PATCH update', 'PATCH', '/v1/trips/existing/update', { status: 'pending' }, 200],
  ['GET one', 'GET', '/v1/trips/existing', undefined, 403],
  ['GET list', 'GET', '/v1/trips', undefined, 403],
  ['DELETE', 'DELETE', '/v1/trips/existing', undefined, 403],
])('publishable key on %s', async (_name, method, path, body, status) => {
  const r = await server.request(method, path, { key: pk, body });
  expect(r.status).toBe(status);
});

test('no key is 401; a secret key may create too', async () => {
  expect((await server.request('POST', '/v1/trips', { body: { externalId: 'auth-b' } })).status).toBe(401);
  expect((await server.request('POST', '/v1/trips', { key: sk, body: { externalId: 'auth-b' } })).status).toBe(200);
});

test('form bodies, with the iOS SDK\'s string numbers and JSON-string metadata', async () => {
  const r = await server.request('POST', '/v1/trips', {
    key: pk, form: true,
    body: { externalId: 'form-1', mode: 'bike', approachingThreshold: '3', metadata: JSON.stringify({ size: 'large', items: 3 }), scheduledArrivalAt: '2026-05-01T10:00:00Z' },
  });
  expect(r.status).toBe(200);
  expect(r.body.trip).toMatchObject({ externalId: 'form-1', mode: 'bike', approachingThreshold: 3, metadata: { size: 'large', items: 3 }, scheduledArrivalAt: '2026-05-01T10:00:00.000Z' });
});

test('JS SDK nulls are absent values', async () => {
  const r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'nulls', mode: null, metadata: null, destinationGeofenceTag: null, approachingThreshold: null } });
  expect(r.status).toBe(200);
  expect(r.body.trip).toMatchObject({ externalId: 'nulls', mode: 'car', status: 'pending' });
  expect(r.body.trip.metadata).toBeUndefined();
});

test('a track body with unusable tripOptions is still a good update', async () => {
  for (const tripOptions of [{ externalId: { nested: true } }, { mode: 'car' }, {}]) {
    const r = await server.request('POST', '/v1/track', { key: pk, body: { deviceId: 'opt-dev', latitude: 40.7, longitude: -73.9, accuracy: 10, tripOptions } });
    expect(r.status).toBe(200);
    expect(r.body.user.trip).toBeUndefined();
  }
});

test('a destination that does not exist (yet) is accepted; the trip simply has no route', async () => {
  const r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'nowhere', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'missing' } });
  expect(r.status).toBe(200);
  expect(r.body.trip.destinationLocation).toBeUndefined();
  expect(r.body.trip.eta).toBeUndefined();
});

describe('update without status (the web SDK never sends one)', () => {
  test('an open trip keeps its status, takes the new fields and reports user.updated_trip', async () => {
    const created = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'no-status', status: 'started' } });
    expect(created.status).toBe(200);
    const r = await server.request('PATCH', '/v1/trips/no-status/update', { key: pk, body: { metadata: { leg: 2 } } });
    expect(r.status).toBe(200);
    expect(r.body.trip).toMatchObject({ status: 'started', metadata: { leg: 2 } });
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.updated_trip']);
    const stored = (await server.request('GET', '/v1/trips/no-status', { key: sk })).body.trip;
    expect(stored).toMatchObject({ status: 'started', metadata: { leg: 2 } });
  });

  test('a completed trip does not change and sends no event', async () => {
    await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'done-no-status', status: 'started' } });
    expect((await server.request('PATCH', '/v1/trips/done-no-status/update', { key: pk, body: { status: 'completed' } })).status).toBe(200);
    const r = await server.request('PATCH', '/v1/trips/done-no-status/update', { key: pk, body: { metadata: { late: true } } });
    expect(r.status).toBe(200);
    expect(r.body.trip.status).toBe('completed');
    expect(r.body.trip.metadata).toBeUndefined();
    expect(r.body.events).toEqual([]);
  });
});
