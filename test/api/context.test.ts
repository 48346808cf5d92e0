// GET /v1/context over HTTP against a real server: regions of known points (bundled data), the
// geofences the track engine would enter at the point (statelessly), the shape Radar's SDKs read
// (nested under `context` and again at the top level), validation and auth.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { files, requires } from '../support/requires';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/radar');

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ regions: { reloadCheckMs: 0 } });
}, 60_000);
afterAll(async () => {
  await server.close();
});

function context(lat: number, lng: number, extra: Record<string, string> = {}, key = server.keys.testPk) {
  return server.request('GET', '/v1/context', { key, query: { coordinates: `${lat},${lng}`, ...extra } });
}

interface Known {
  name: string;
  lat: number;
  lng: number;
  country?: string;
  state?: string;
  /** Exact code, or a prefix ending in '*'. */
  postalCode?: string;
}

// Postal codes follow the documented rule (nearest geographic ZIP point in the same state; FSAs in
// Canada), docs/data-regions.md: Times Square's nearest ZCTA point is 10020's.
const KNOWN: Known[] = [
  { name: 'Times Square', lat: 40.758, lng: -73.9855, country: 'US', state: 'NY', postalCode: '10020' },
  { name: 'Toronto City Hall', lat: 43.6532, lng: -79.3832, country: 'CA', state: 'ON', postalCode: 'M*' },
  { name: 'Paris', lat: 48.8566, lng: 2.3522, country: 'FR' },
  { name: 'mid-Atlantic: at sea, no country', lat: 35, lng: -40 },
  // Across a state border.
  { name: 'Hoboken, New Jersey', lat: 40.744, lng: -74.032, country: 'US', state: 'NJ', postalCode: '07030' },
  { name: 'Chelsea, Manhattan, across the Hudson', lat: 40.745, lng: -74.0, country: 'US', state: 'NY', postalCode: '100*' },
  { name: 'Kansas City, Missouri', lat: 39.0997, lng: -94.5786, country: 'US', state: 'MO', postalCode: '641*' },
  { name: 'Kansas City, Kansas, across State Line Road', lat: 39.1142, lng: -94.6275, country: 'US', state: 'KS', postalCode: '661*' },
  // Across a country border.
  { name: 'Detroit', lat: 42.3314, lng: -83.0458, country: 'US', state: 'MI', postalCode: '482*' },
  { name: 'Windsor, across the Detroit River', lat: 42.3149, lng: -83.0364, country: 'CA', state: 'ON', postalCode: 'N9*' },
  { name: 'Strasbourg', lat: 48.5734, lng: 7.7521, country: 'FR' },
  { name: 'Kehl, across the Rhine', lat: 48.5725, lng: 7.815, country: 'DE' },
];

function expectCode(actual: string | undefined, wanted: string | undefined): void {
  if (wanted?.endsWith('*')) expect(actual?.startsWith(wanted.slice(0, -1))).toBe(true);
  else expect(actual).toBe(wanted);
}

describe('regions of known points', () => {
  test.each(KNOWN)('$name', async ({ lat, lng, country, state, postalCode }) => {
    const r = await context(lat, lng);
    expect(r.status).toBe(200);
    const c = r.body.context;
    expect(c.country?.code).toBe(country);
    expect(c.state?.code).toBe(state);
    expectCode(c.postalCode?.code, postalCode);
    // No DMA data ships; no extract is imported, so no place: the key is left out, as Radar does
    // (radar-python's Context model fails on "place": null).
    expect(c).not.toHaveProperty('dma');
    expect(c).not.toHaveProperty('place');
  });
});

test('the answer sits under context and again at the top level, with Radar region objects', async () => {
  const r = await context(40.758, -73.9855);
  const { meta, context: c, ...top } = r.body;
  expect(meta).toEqual({ code: 200 });
  expect(top).toEqual(c);
  expect(c).toEqual({
    live: false,
    geofences: [],
    country: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'country', name: 'United States', code: 'US', flag: '🇺🇸' },
    state: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'state', name: 'New York', code: 'NY' },
    postalCode: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'postalCode', name: '10020', code: '10020' },
  });
  // Ids are stable: the same region, the same _id, from another point.
  const other = await context(40.783825, -73.975365);
  expect(other.body.context.state._id).toBe(c.state._id);
  expect(other.body.context.country._id).toBe(c.country._id);
});

test('the live key reads live context', async () => {
  const r = await context(48.8566, 2.3522, {}, server.keys.livePk);
  expect(r.body.context.live).toBe(true);
  expect(r.body.live).toBe(true);
});

const withRadarFixtures = requires('context against the Radar SDK fixtures', files(path.join(FIXTURES, 'android/context.json')));
withRadarFixtures('against Radar SDK fixtures', () => {
  test.each(['android', 'ios'])('%s context.json: same keys in every region object we return, same geofence fields', async (platform) => {
    const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, platform, 'context.json'), 'utf8'));
    // The fixture's point is the Upper West Side (its Monk's Café geofence centre).
    const [lng, lat] = fixture.context.geofences[0].geometryCenter.coordinates as [number, number];
    const key = server.keys.testSk;
    await server.request('PUT', `/v1/geofences/venue/monks-${platform}`, {
      key, body: { description: "Monk's Café", type: 'circle', coordinates: [lng, lat], radius: 50, metadata: { category: 'restaurant' } },
    });
    const r = await context(lat, lng);
    const c = r.body.context;
    for (const type of ['country', 'state', 'postalCode']) {
      expect(Object.keys(c[type]).sort()).toEqual(expect.arrayContaining(Object.keys(fixture.context[type]).sort()));
      expect(c[type].type).toBe(fixture.context[type].type);
    }
    expect(c.state.code).toBe(fixture.context.state.code);
    expect(c.postalCode.code).toBe(fixture.context.postalCode.code);
    const ours = c.geofences.find((g: { externalId: string }) => g.externalId === `monks-${platform}`);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(fixture.context.geofences[0]).sort());
  });
});

describe('geofences: the track engine, statelessly', () => {
  // A small park polygon and circles in midtown; the context point is inside the park and the big circle.
  const POINT = { lat: 40.7857, lng: -73.968 };
  const PARK_RING = [[-73.969, 40.785], [-73.967, 40.785], [-73.967, 40.7865], [-73.969, 40.7865], [-73.969, 40.785]];
  let keys: Awaited<ReturnType<TestServer['newProject']>>;

  beforeAll(async () => {
    keys = await server.newProject('context-geofences');
    const put = (tag: string, id: string, body: Record<string, unknown>) =>
      server.request('PUT', `/v1/geofences/${tag}/${id}`, { key: keys.testSk, body: { description: id, ...body } });
    const near = { type: 'circle', coordinates: [POINT.lng, POINT.lat] };
    const fences: Array<[string, string, Record<string, unknown>]> = [
      ['park', 'p1', { type: 'polygon', coordinates: [PARK_RING], metadata: { kind: 'park' } }],
      ['zone', 'big', { ...near, radius: 500 }],
      // Its centre is 120 m north: a true circle of 100 m does not reach the point, though its box is near.
      ['zone', 'just-outside', { type: 'circle', coordinates: [POINT.lng, POINT.lat + 0.00108], radius: 100 }],
      ['zone', 'off', { ...near, radius: 300, enabled: false }],
      ['zone', 'expired', { ...near, radius: 300, disableAfter: '2020-01-01T00:00:00.000Z' }],
      ['zone', 'for-alice', { ...near, radius: 300, userIds: ['alice'] }],
      ['zone', 'office-network', { ...near, radius: 300, ip: ['203.0.113.0/24'] }],
      ['zone', 'loopback-network', { ...near, radius: 300, ip: ['127.0.0.1'] }],
    ];
    for (const [tag, id, body] of fences) expect((await put(tag, id, body)).status).toBe(200);
  });

  const ids = (r: { body: { context: { geofences: Array<{ externalId: string }> } } }) => r.body.context.geofences.map((g) => g.externalId).sort();

  test.each([
    ['anonymous', {}, ['big', 'loopback-network', 'p1']],
    ['as alice: her geofence too', { userId: 'alice' }, ['big', 'for-alice', 'loopback-network', 'p1']],
    ['as bob: not hers', { userId: 'bob' }, ['big', 'loopback-network', 'p1']],
  ])('%s', async (_name, extra, expected) => {
    const r = await context(POINT.lat, POINT.lng, extra, keys.testPk);
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(expected);
    expect(r.body.geofences).toEqual(r.body.context.geofences);
  });

  test('context geofence objects carry the fields Radar shows, nothing internal', async () => {
    const r = await context(POINT.lat, POINT.lng, {}, keys.testPk);
    const park = r.body.context.geofences.find((g: { externalId: string }) => g.externalId === 'p1');
    expect(park).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/), tag: 'park', externalId: 'p1', description: 'p1', type: 'polygon',
      geometryCenter: { type: 'Point', coordinates: expect.any(Array) }, geometryRadius: expect.any(Number), metadata: { kind: 'park' },
    });
  });

  test('the live environment does not see test geofences', async () => {
    const r = await context(POINT.lat, POINT.lng, {}, keys.livePk);
    expect(r.body.context.geofences).toEqual([]);
  });

  test('context is stateless: it creates no user and no event', async () => {
    await context(POINT.lat, POINT.lng, { userId: 'alice' }, keys.testPk);
    const users = await server.request('GET', '/v1/users', { key: keys.testSk });
    expect(users.body.users).toEqual([]);
    const events = await server.request('GET', '/v1/events', { key: keys.testSk });
    expect(events.body.events).toEqual([]);
  });

  test('operating-hours suppression (project setting) hides a closed geofence, as in track', async () => {
    const k = await server.newProject('context-hours');
    const closedAllWeek = Object.fromEntries(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => [d, [['00:00', '00:01']]]));
    await server.request('PUT', '/v1/geofences/shop/closed', {
      key: k.testSk, body: { description: 'closed', type: 'circle', coordinates: [POINT.lng, POINT.lat], radius: 200, operatingHours: closedAllWeek },
    });
    // The minute it is open is never the one this test runs in… except at 00:00–00:01 local time; read the clock to be sure.
    const before = await context(POINT.lat, POINT.lng, {}, k.testPk);
    expect(ids(before)).toEqual(['closed']);
    await server.request('PATCH', '/v1/project/settings', { key: k.testSk, body: { operatingHoursSuppression: true } });
    const after = await context(POINT.lat, POINT.lng, {}, k.testPk);
    const nyMinute = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
    if (nyMinute !== '00:00') expect(ids(after)).toEqual([]);
  });
});

describe('validation and auth', () => {
  test.each([
    ['missing coordinates', {}, 'coordinates', /required/],
    ['one number', { coordinates: '40.7' }, 'coordinates', /latitude,longitude/],
    ['words', { coordinates: 'north,east' }, 'coordinates', /latitude,longitude/],
    ['latitude out of range', { coordinates: '91,0' }, 'coordinates', /latitude/],
    ['longitude out of range', { coordinates: '0,181' }, 'coordinates', /longitude/],
    ['userId too long', { coordinates: '40,-73', userId: 'u'.repeat(300) }, 'userId', /at most/],
  ])('%s → 400', async (_name, query, param, message) => {
    const r = await server.request('GET', '/v1/context', { key: server.keys.testPk, query });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ code: 400, param, message: expect.stringMatching(message) });
  });

  test('no key → 401; a secret key is accepted (publishable endpoint)', async () => {
    expect((await server.request('GET', '/v1/context', { query: { coordinates: '40,-73' } })).status).toBe(401);
    expect((await context(40.758, -73.9855, {}, server.keys.testSk)).status).toBe(200);
  });

  test('Android sends commas unencoded and spaces may sneak in', async () => {
    const res = await fetch(`${server.url}/v1/context?coordinates=40.758, -73.9855`, { headers: { authorization: server.keys.testPk } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { context: { state: { code: string } } };
    expect(body.context.state.code).toBe('NY');
  });
});
