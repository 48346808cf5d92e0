// Calls Radar's Python server library (radar-python) makes, as it makes them, and the fields it reads
// (issue 32 items 1, 4 and 6; the others sit with their families: settings, context, places-track,
// geocode-ip, trips). No extract is imported: routing answers from the geodesic estimate.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const secret = (method: string, urlPath: string, opts: { query?: Record<string, string>; body?: unknown } = {}) => server.request(method, urlPath, { key: server.keys.testSk, ...opts });

describe('GET /v1/route/distance always answers routes.geodesic (Radar\'s documented sample for modes=foot,car has it)', () => {
  test.each([['car'], ['foot,car'], ['geodesic,bike']])('modes=%s', async (modes) => {
    const r = await server.request('GET', '/v1/route/distance', { key: server.keys.testPk, query: { origin: '40.78382,-73.97536', destination: '40.70390,-73.98690', modes, units: 'metric' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.routes)).toEqual(['geodesic', ...modes.split(',').filter((m) => m !== 'geodesic')]);
    // Haversine between the two points of Radar's sample: 8.94 km.
    expect(r.body.routes.geodesic).toEqual({ distance: { value: expect.closeTo(8940, -1), text: expect.stringMatching(/km$/) } });
  });
});

describe('GET /v1/events: limit is a maximum; the cursor breaks ties on _id', () => {
  const AT = '2026-03-01T12:00:00.000Z';
  let ids: string[] = [];
  beforeAll(async () => {
    // Three conversions sharing one createdAt, then one older.
    for (const [name, createdAt] of [['a', AT], ['b', AT], ['c', AT], ['d', '2026-03-01T11:00:00.000Z']]) {
      const r = await server.request('POST', '/v1/events', { key: server.keys.testPk, body: { type: `tie_${name}`, userId: 'tie-user', createdAt } });
      expect(r.status).toBe(200);
    }
    const all = await secret('GET', '/v1/events', { query: { limit: '100' } });
    ids = all.body.events.map((e: { _id: string }) => e._id);
    expect(ids).toHaveLength(4);
  });

  test('limit=2 on a page that is one tie gives 2 events, not the whole tie', async () => {
    const r = await secret('GET', '/v1/events', { query: { limit: '2' } });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { _id: string }) => e._id)).toEqual(ids.slice(0, 2));
    expect(r.body.meta.hasMore).toBe(true);
  });

  test.each([1, 2, 3])('following createdBefore + beforeId with limit=%i reaches every event once, in order, never over the limit', async (limit) => {
    const seen: string[] = [];
    let cursor: Record<string, string> = {};
    for (let page = 0; page < 10; page++) {
      const r = await secret('GET', '/v1/events', { query: { limit: String(limit), ...cursor } });
      expect(r.status).toBe(200);
      expect(r.body.events.length).toBeLessThanOrEqual(limit);
      seen.push(...r.body.events.map((e: { _id: string }) => e._id));
      if (!r.body.meta.hasMore) break;
      const last = r.body.events.at(-1);
      cursor = { createdBefore: last.createdAt, beforeId: last._id };
    }
    expect(seen).toEqual(ids);
  });

  test('beforeId without createdBefore → 400 naming beforeId', async () => {
    const r = await secret('GET', '/v1/events', { query: { beforeId: ids[0] } });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ param: 'beforeId', message: expect.stringMatching(/createdBefore/) });
  });
});

describe('GET /v1/geofences/:id/users (radar-python calls it with the geofence\'s _id)', () => {
  test('the users inside, by _id as by tag/externalId; a geofence tagged with externalId "users" stays reachable', async () => {
    const circle = (tag: string, externalId: string) => secret('POST', '/v1/geofences', {
      body: { tag, externalId, description: `${tag}/${externalId}`, type: 'circle', coordinates: [-73.9857, 40.7484], radius: 100 },
    });
    const venue = (await circle('venue', '2')).body.geofence;
    const track = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { userId: 'inside-1', deviceId: 'dev-inside-1', latitude: 40.7484, longitude: -73.9857, accuracy: 5, foreground: true, stopped: true } });
    expect(track.status).toBe(200);
    const byId = await secret('GET', `/v1/geofences/${venue._id}/users`);
    expect(byId.status).toBe(200);
    expect(byId.body.users.map((u: { userId: string }) => u.userId)).toEqual(['inside-1']);
    expect(byId.body.meta.hasMore).toBe(false);
    expect((await secret('GET', '/v1/geofences/venue/2/users')).body.users).toEqual(byId.body.users);

    const odd = (await circle('lobby', 'users')).body.geofence;
    const tagged = await secret('GET', '/v1/geofences/lobby/users');
    expect(tagged.body.geofence._id).toBe(odd._id);

    const missing = await secret('GET', '/v1/geofences/0123456789abcdef01234567/users');
    expect(missing.status).toBe(404);
    expect(missing.body.meta.param).toBe('id');
  });
});
