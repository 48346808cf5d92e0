// Whole journeys over HTTP: a device walks into, stays in and leaves geofences; the exact events and
// user fields are checked, in the test and live environments separately.
import { startTestServer, type TestServer } from '../support/server';

// A 100 m circle around a café and a small square park nearby (Manhattan).
const CAFE = { lat: 40.7831, lng: -73.9712 };
const PARK_RING = [
  [-73.9690, 40.7850], [-73.9670, 40.7850], [-73.9670, 40.7865], [-73.9690, 40.7865], [-73.9690, 40.7850],
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function createFences(key: string): Promise<void> {
  const cafe = await server.request('PUT', '/v1/geofences/venue/cafe', {
    key, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, metadata: { category: 'food' } },
  });
  expect(cafe.status).toBe(200);
  const park = await server.request('PUT', '/v1/geofences/park/p1', {
    key, form: true, body: { description: 'Park', type: 'polygon', coordinates: JSON.stringify([PARK_RING]) },
  });
  expect(park.body.meta).toEqual({ code: 200 });
}

function track(key: string, deviceId: string, lat: number, lng: number, extra: Record<string, unknown> = {}) {
  return server.request('POST', '/v1/track', { key, body: { deviceId, userId: `u-${deviceId}`, latitude: lat, longitude: lng, accuracy: 5, foreground: true, ...extra } });
}

describe.each([
  ['test', () => server.keys.testPk, () => server.keys.testSk, false],
  ['live', () => server.keys.livePk, () => server.keys.liveSk, true],
])('journey in %s', (_env, pk, sk, live) => {
  test('enter, stay, move, exit', async () => {
    await createFences(sk());
    // 1. far away: a new user, no events
    let r = await track(pk(), 'dev-1', 40.7700, -73.9800);
    expect(r.status).toBe(200);
    expect(r.body.events).toEqual([]);
    expect(r.body.user).toMatchObject({ deviceId: 'dev-1', userId: 'u-dev-1', live, locationAccuracy: 5, foreground: true, geofences: [] });
    expect(r.body.user.location).toEqual({ type: 'Point', coordinates: [-73.98, 40.77] });
    expect(r.body.user._visits).toBeUndefined();
    const userObjectId = r.body.user._id;
    expect(userObjectId).toMatch(/^[0-9a-f]{24}$/);
    expect(r.body.user.updatedAt).toMatch(/\.\d{3}Z$/);

    // 2. at the café: one entry with high confidence
    r = await track(pk(), 'dev-1', CAFE.lat, CAFE.lng);
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.entered_geofence']);
    const entry = r.body.events[0];
    expect(entry).toMatchObject({ live, confidence: 3, geofence: { tag: 'venue', externalId: 'cafe', description: 'Café', metadata: { category: 'food' } } });
    expect(entry.user).toMatchObject({ _id: userObjectId, userId: 'u-dev-1', deviceId: 'dev-1' });
    expect(entry._id).toMatch(/^[0-9a-f]{24}$/);
    expect(entry.createdAt).toMatch(/\.\d{3}Z$/);
    expect(r.body.user.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['cafe']);

    // 3. still there: no second entry (hysteresis)
    r = await track(pk(), 'dev-1', CAFE.lat + 0.0001, CAFE.lng);
    expect(r.body.events).toEqual([]);

    // 4. into the park: exit café (with duration) and enter park, in that order
    r = await track(pk(), 'dev-1', 40.7857, -73.9680);
    expect(r.body.events.map((e: { type: string; geofence: { externalId: string } }) => `${e.type}:${e.geofence.externalId}`))
      .toEqual(['user.exited_geofence:cafe', 'user.entered_geofence:p1']);
    expect(typeof r.body.events[0].duration).toBe('number');
    expect(r.body.user.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['p1']);

    // users inside the park, through the geofence endpoint
    const inside = await server.request('GET', '/v1/geofences/park/p1/users', { key: sk() });
    expect(inside.body.users.map((u: { _id: string }) => u._id)).toEqual([userObjectId]);

    // 5. far away again: exit park
    r = await track(pk(), 'dev-1', 40.7700, -73.9800);
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.exited_geofence']);
    const empty = await server.request('GET', '/v1/geofences/park/p1/users', { key: sk() });
    expect(empty.body.users).toEqual([]);

    // events are stored and listed newest first
    const listed = await server.request('GET', '/v1/events', { key: sk() });
    expect(listed.body.events.map((e: { type: string }) => e.type)).toEqual([
      'user.exited_geofence', 'user.entered_geofence', 'user.exited_geofence', 'user.entered_geofence',
    ]);
    const one = await server.request('GET', `/v1/events/${entry._id}`, { key: sk() });
    expect(one.body.event).toEqual(entry);

    // the user is listed and addressable by _id, userId and deviceId
    for (const id of [userObjectId, 'u-dev-1', 'dev-1']) {
      const got = await server.request('GET', `/v1/users/${id}`, { key: sk() });
      expect(got.body.user._id).toBe(userObjectId);
    }
  });
});

test('test and live never see each other', async () => {
  const testUsers = await server.request('GET', '/v1/users', { key: server.keys.testSk });
  const liveUsers = await server.request('GET', '/v1/users', { key: server.keys.liveSk });
  expect(testUsers.body.users.every((u: { live: boolean }) => u.live === false)).toBe(true);
  expect(liveUsers.body.users.every((u: { live: boolean }) => u.live === true)).toBe(true);
  expect(testUsers.body.users.length).toBeGreaterThan(0);
  const ids = new Set(testUsers.body.users.map((u: { _id: string }) => u._id));
  expect(liveUsers.body.users.some((u: { _id: string }) => ids.has(u._id))).toBe(false);
});

test.each([
  ['missing deviceId', { latitude: 1, longitude: 1, accuracy: 5 }, 'deviceId', 'deviceId is required'],
  ['latitude out of range', { deviceId: 'd', latitude: 91, longitude: 1, accuracy: 5 }, 'latitude', 'latitude must be between -90 and 90'],
  ['longitude not a number', { deviceId: 'd', latitude: 1, longitude: 'east', accuracy: 5 }, 'longitude', 'longitude must be a number'],
  ['accuracy zero', { deviceId: 'd', latitude: 1, longitude: 1, accuracy: 0 }, 'accuracy', 'accuracy must be greater than 0'],
  ['too much metadata', { deviceId: 'd', latitude: 1, longitude: 1, accuracy: 5, metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])) }, 'metadata', 'metadata can have at most 32 keys'],
  ['bad deviceType', { deviceId: 'd', latitude: 1, longitude: 1, accuracy: 5, deviceType: 'Palm' }, 'deviceType', 'deviceType must be one of iOS, Android, Web'],
  ['bad updatedAt', { deviceId: 'd', latitude: 1, longitude: 1, accuracy: 5, updatedAt: 'yesterday' }, 'updatedAt', 'updatedAt must be a date or an ISO 8601 datetime'],
])('track rejects %s', async (_name, body, param, message) => {
  const before = await server.request('GET', '/v1/users', { key: server.keys.testSk });
  const r = await server.request('POST', '/v1/track', { key: server.keys.testPk, body });
  expect(r.status).toBe(400);
  expect(r.body.meta).toEqual({ code: 400, param, message });
  const after = await server.request('GET', '/v1/users', { key: server.keys.testSk });
  expect(after.body.users.length).toBe(before.body.users.length);
});

test('extra SDK fields are accepted and ignored; nulls count as absent', async () => {
  const r = await server.request('POST', '/v1/track', {
    key: server.keys.testPk,
    body: {
      deviceId: 'sdk-1', latitude: 40.7, longitude: -73.9, accuracy: 12, description: null, installId: 'i', sessionId: 's',
      sdkVersion: '3.34.0', speed: 1.2, course: 90, locationMetadata: { a: 1 }, trackingOptions: {}, nearbyGeofences: true,
      beacons: [], fraudPayload: 'x', source: 'FOREGROUND_LOCATION', deviceType: 'ios',
    },
  });
  expect(r.status).toBe(200);
  expect(r.body.user).toMatchObject({ deviceId: 'sdk-1', deviceType: 'iOS' });
  expect(r.body.user.description).toBeUndefined();
});
