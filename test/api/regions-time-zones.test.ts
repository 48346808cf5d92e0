// Operating hours are read in the geofence's own time zone (geo-tz wired into the geofence service),
// over HTTP: the same hours in Los Angeles and New York give different `currentlyOperating` at one
// instant, and operating-hours suppression follows the local clock too. Read in UTC, every case
// below would give another answer.
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';

const SANTA_MONICA = { lat: 34.0195, lng: -118.4912 };
const TIMES_SQUARE = { lat: 40.758, lng: -73.9855 };
const NINE_TO_FIVE = Object.fromEntries(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => [d, [['09:00', '17:00']]]));

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await startTestServer();
  keys = await server.newProject('hours');
  for (const [id, at] of [['la', SANTA_MONICA], ['ny', TIMES_SQUARE]] as const) {
    const r = await server.request('PUT', `/v1/geofences/store/${id}`, {
      key: keys.testSk, body: { description: id, type: 'circle', coordinates: [at.lng, at.lat], radius: 200, operatingHours: NINE_TO_FIVE },
    });
    expect(r.status).toBe(200);
    // The zone is ours, not the API's.
    expect(r.body.geofence).not.toHaveProperty('timeZone');
  }
});
afterAll(async () => {
  await server.close();
});

let device = 0;
async function enter(at: { lat: number; lng: number }, updatedAt: string) {
  device++;
  const r = await server.request('POST', '/v1/track', {
    key: keys.testPk, body: { deviceId: `d${device}`, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true, updatedAt },
  });
  expect(r.status).toBe(200);
  return r.body.events as Array<{ type: string; currentlyOperating?: boolean; createdAt: string }>;
}

describe.each([
  // Monday 15 January 2024 (standard time): 15:00Z is 10:00 in New York and 07:00 in Los Angeles.
  ['15:00Z: New York open, Los Angeles not yet', '2024-01-15T15:00:00.000Z', { ny: true, la: false }],
  // 23:00Z is 18:00 in New York (closed) and 15:00 in Los Angeles (open).
  ['23:00Z: New York closed, Los Angeles open', '2024-01-15T23:00:00.000Z', { ny: false, la: true }],
  // Summer (daylight time): 16:30Z is 12:30 EDT and 09:30 PDT: both open.
  ['16:30Z in July: both open', '2024-07-15T16:30:00.000Z', { ny: true, la: true }],
])('%s', (_name, instant, expected) => {
  test.each([['ny', TIMES_SQUARE], ['la', SANTA_MONICA]] as const)('%s', async (id, at) => {
    const events = await enter(at, instant);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'user.entered_geofence', createdAt: instant, currentlyOperating: expected[id] });
  });
});

test('operating-hours suppression uses the local clock: at 15:00Z only New York admits an entry', async () => {
  await server.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: { operatingHoursSuppression: true } });
  try {
    expect(await enter(TIMES_SQUARE, '2024-01-15T15:00:00.000Z')).toHaveLength(1);
    expect(await enter(SANTA_MONICA, '2024-01-15T15:00:00.000Z')).toEqual([]);
  } finally {
    await server.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: { operatingHoursSuppression: false } });
  }
});
