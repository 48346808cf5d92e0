// Fraud on track over HTTP against a real server (project setting `fraud`): a normal sequence of
// updates passes; each flag is raised by its own crafted sequence; the anonymous-IP database marks a
// proxy; `fraudBlocking` holds a failing update back (the user stays where it was, one
// `user.failed_fraud` event); per-user bypass and block; the fraud object on GET /v1/users/:id and in
// webhooks; settings off = no fraud object; absurd input never a 500.
import fs from 'node:fs';
import path from 'node:path';
import { configFromEnv } from '../../server/config';
import { destinationPoint } from '../../core/geo/sphere';
import type { LngLat } from '../../core/types';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';
import { announceSkip, files } from '../support/requires';

const ANONYMOUS_TEST = path.resolve(__dirname, '../../../shared/fixtures/mmdb/GeoIP2-Anonymous-IP-Test.mmdb');
const HAVE_MMDB = fs.existsSync(ANONYMOUS_TEST);
if (!HAVE_MMDB) announceSkip('fraud on track: the proxy cases', files(ANONYMOUS_TEST));
/** In the test database: every anonymity kind (MaxMind's own test data). */
const PROXY_IP = '81.2.69.142';
const CLEAN_IP = '8.8.8.8';

const HOME: LngLat = [-73.99, 40.73];
const FLAGS = ['mocked', 'jumped', 'compromised', 'inaccurate', 'proxy', 'sharing'];

let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  const env = configFromEnv({ WAYMARK_TRUST_PROXY: 'loopback', ...(HAVE_MMDB ? { WAYMARK_IP_ANONYMOUS_DATABASE: ANONYMOUS_TEST } : {}) });
  server = await startTestServer({ trustProxy: env.trustProxy, ipGeocode: env.ipGeocode, webhooks: fastWebhooks() });
}, 60_000);
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function project(settings: Record<string, unknown>): Promise<ProjectKeys> {
  const keys = await server.newProject(`fraud-${Math.random().toString(36).slice(2)}`);
  const r = await server.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: settings });
  expect(r.status).toBe(200);
  return keys;
}

interface Step {
  at?: LngLat;
  accuracy?: number;
  /** Seconds after the sequence's start. */
  t: number;
  extra?: Record<string, unknown>;
  ip?: string;
}

const START = Date.parse('2026-11-23T08:00:00.000Z');

async function track(keys: ProjectKeys, deviceId: string, s: Step) {
  const at = s.at ?? HOME;
  const r = await server.request('POST', '/v1/track', {
    key: keys.testPk,
    headers: { 'x-forwarded-for': s.ip ?? CLEAN_IP },
    body: {
      deviceId, userId: `u-${deviceId}`, latitude: at[1], longitude: at[0], accuracy: s.accuracy ?? 10, foreground: true,
      updatedAt: new Date(START + s.t * 1000).toISOString(), deviceType: 'iOS', sdkVersion: '3.9.0', mocked: false, ...s.extra,
    },
  });
  expect(r.body.meta).toEqual({ code: 200 });
  return r.body as { events: Array<{ _id: string; type: string; fraud?: Record<string, unknown>; location: { coordinates: LngLat } }>; user: Record<string, any> };
}

/** A walk across the neighbourhood: 100 m a minute, good fixes, nothing said. */
const normal: Step[] = [0, 1, 2, 3].map((i) => ({ at: destinationPoint(HOME, i * 100, 45), t: i * 60 }));

const raised = (fraud: Record<string, unknown>) => FLAGS.filter((f) => fraud[f] === true);

describe('fraud on', () => {
  let keys: ProjectKeys;
  beforeAll(async () => {
    keys = await project({ fraud: true });
  });

  test('a normal walk passes every update, with no event', async () => {
    for (const s of normal) {
      const r = await track(keys, 'walker', s);
      expect(raised(r.user.fraud)).toEqual([]);
      expect(r.user.fraud).toEqual({
        verified: false, passed: true, bypassed: false, blocked: false,
        mocked: false, jumped: false, compromised: false, inaccurate: false, proxy: false, sharing: false,
        lastMockedAt: null, lastJumpedAt: null, lastCompromisedAt: null, lastInaccurateAt: null, lastProxyAt: null, lastSharingAt: null,
      });
      expect(r.events).toEqual([]);
    }
  });

  const crafted: Array<[string, string, Step[]]> = [
    ['mocked: the SDK says so', 'mocked', [{ t: 0 }, { t: 60, extra: { mocked: true } }]],
    ['jumped: Manhattan to Los Angeles in a minute', 'jumped', [{ t: 0 }, { t: 60, at: [-118.24, 34.05] }]],
    ['jumped: 3 km in a minute on a foot trip', 'jumped', [{ t: 0, extra: { tripOptions: { externalId: 'walk-1', mode: 'foot' } } }, { t: 60, at: destinationPoint(HOME, 3_000, 0) }]],
    ['inaccurate: a 5 km fix', 'inaccurate', [{ t: 0 }, { t: 60, accuracy: 5_000 }]],
    ['compromised: a plain fraudPayload says so', 'compromised', [{ t: 0 }, { t: 60, extra: { fraudPayload: JSON.stringify({ compromised: true }) } }]],
    ['sharing: the body says so', 'sharing', [{ t: 0 }, { t: 60, extra: { sharing: true } }]],
  ];
  test.each(crafted)('%s', async (_name, flag, steps) => {
    const device = `crafted-${flag}-${Math.random().toString(36).slice(2)}`;
    const first = await track(keys, device, steps[0]);
    expect(raised(first.user.fraud)).toEqual([]);
    const r = await track(keys, device, steps[1]);
    expect(raised(r.user.fraud)).toEqual([flag]);
    expect(r.user.fraud.passed).toBe(false);
    expect(r.user.fraud[`last${flag[0].toUpperCase()}${flag.slice(1)}At`]).toBe(new Date(START + steps[1].t * 1000).toISOString());
    // A trip's own update event comes with it on the foot trip.
    expect(r.events.map((e) => e.type).filter((t) => t !== 'user.updated_trip')).toEqual(['user.failed_fraud']);
    expect(r.events.find((e) => e.type === 'user.failed_fraud')?.fraud).toEqual(r.user.fraud);
    // Not blocking: the update was applied.
    expect(r.user.location.coordinates).toEqual(steps[1].at ?? HOME);
  });

  test('the same 3 km in a minute by car is no jump', async () => {
    await track(keys, 'driver', { t: 0, extra: { tripOptions: { externalId: 'drive-1', mode: 'car' } } });
    const r = await track(keys, 'driver', { t: 60, at: destinationPoint(HOME, 3_000, 0) });
    expect(raised(r.user.fraud)).toEqual([]);
  });

  test('flags clear on the next honest update; last…At stays; verified is what the SDK said', async () => {
    await track(keys, 'recovering', { t: 0 });
    const bad = await track(keys, 'recovering', { t: 60, extra: { mocked: 'true' } });
    const r = await track(keys, 'recovering', { t: 120, extra: { verified: true } });
    expect(r.user.fraud).toMatchObject({ mocked: false, passed: true, verified: true, lastMockedAt: bad.user.fraud.lastMockedAt });
    const got = await server.request('GET', '/v1/users/u-recovering', { key: keys.testSk });
    expect(got.body.user.fraud).toEqual(r.user.fraud);
  });

  test('a sealed (non-JSON) fraudPayload is accepted and read as nothing', async () => {
    const r = await track(keys, 'sealed', { t: 0, extra: { fraudPayload: 'AAECAwQF+/sealed==' } });
    expect(raised(r.user.fraud)).toEqual([]);
  });

  (HAVE_MMDB ? test : test.skip)('proxy: a client address in the anonymous-IP database, not a clean one', async () => {
    const clean = await track(keys, 'vpn-user', { t: 0, ip: CLEAN_IP });
    expect(clean.user.fraud.proxy).toBe(false);
    const r = await track(keys, 'vpn-user', { t: 60, ip: PROXY_IP });
    expect(raised(r.user.fraud)).toEqual(['proxy']);
    expect(r.user.fraud.lastProxyAt).toBe(new Date(START + 60_000).toISOString());
  });

  test('fraud reaches webhooks: on the user of every event and on user.failed_fraud', async () => {
    const hookPath = `/fraud-${keys.id}`;
    const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + hookPath } });
    expect(created.status).toBe(200);
    await track(keys, 'hooked', { t: 0 });
    const r = await track(keys, 'hooked', { t: 60, extra: { mocked: true } });
    const id = r.events[0]._id;
    await receiver.waitFor((rs) => rs.some((x) => x.path === hookPath && JSON.stringify(x.json).includes(id)), 15_000, 'the failed_fraud event');
    const delivery = receiver.received.find((x) => x.path === hookPath && JSON.stringify(x.json).includes(id))!;
    const event = (delivery.json.events ?? [delivery.json.event]).find((e: { _id: string }) => e._id === id);
    expect(event.type).toBe('user.failed_fraud');
    expect(delivery.json.user.fraud).toMatchObject({ mocked: true, passed: false });
  });

  test('absurd input never a 500: huge speeds, jumps across the antimeridian, tiny and huge accuracies, odd hints', async () => {
    const steps: Step[] = [
      { t: 0, at: [179.9999, 0] },
      { t: 0, at: [-179.9999, 0] },
      { t: 0.001, at: [0, 89.9999], accuracy: 1e-9 },
      { t: 1, at: [0, -90], accuracy: 1e12, extra: { speed: 1e308, course: -1e308, fraudPayload: { mocked: 'yes', compromised: 1 } } },
      { t: 2, extra: { fraudPayload: '{"mocked": true', mocked: null, sharing: '' } },
      { t: 3, extra: { fraudPayload: 'x'.repeat(16_000) } },
    ];
    for (const s of steps) {
      const r = await track(keys, 'absurd', s);
      expect(typeof r.user.fraud.passed).toBe('boolean');
    }
    const long = await track(keys, 'absurd', { t: 4, extra: { fraudPayload: `{"mocked": true, "pad": "${'y'.repeat(20_000)}"}` } });
    expect(long.user.fraud.mocked).toBe(false);
    for (const [field, value] of [['mocked', 'maybe'], ['verified', { a: 1 }], ['sharing', [true]], ['compromised', 'x'.repeat(5)]] as const) {
      const r = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'absurd', latitude: 1, longitude: 1, accuracy: 5, [field]: value } });
      expect([r.status, r.body.meta.param]).toEqual([400, field]);
    }
  });
});

describe('blocking (fraudBlocking on)', () => {
  let keys: ProjectKeys;
  let geofenceAt: LngLat;
  beforeAll(async () => {
    keys = await project({ fraud: true, fraudBlocking: true });
    geofenceAt = destinationPoint(HOME, 2_000, 90);
    const g = await server.request('PUT', '/v1/geofences/store/1', {
      key: keys.testSk, body: { description: 'Store', type: 'circle', coordinates: geofenceAt, radius: 100 },
    });
    expect(g.status).toBe(200);
  });

  test('a failing update is held back: the user stays where it was, only user.failed_fraud is made', async () => {
    const first = await track(keys, 'spoofer', { t: 0 });
    expect(first.user.fraud.blocked).toBe(false);
    const r = await track(keys, 'spoofer', { t: 60, at: geofenceAt, extra: { mocked: true } });
    expect(r.events.map((e) => e.type)).toEqual(['user.failed_fraud']);
    expect(r.events[0].location.coordinates).toEqual(geofenceAt);
    expect(r.user.fraud).toMatchObject({ mocked: true, passed: false, blocked: true });
    expect(r.user.location.coordinates).toEqual(HOME);
    expect(r.user.geofences).toEqual([]);
    expect(r.user.updatedAt).toBe(first.user.updatedAt);
    const inside = await server.request('GET', '/v1/geofences/store/1/users', { key: keys.testSk });
    expect(inside.status).toBe(200);
    expect(inside.body.users).toEqual([]);
    // The next honest update is judged from the last trusted position and enters normally.
    const honest = await track(keys, 'spoofer', { t: 1_800, at: geofenceAt });
    expect(honest.user.fraud).toMatchObject({ passed: true, blocked: false, lastMockedAt: r.user.fraud.lastMockedAt });
    expect(honest.events.map((e) => e.type)).toEqual(['user.entered_geofence']);
  });

  test('a held update enters no beacon and starts no trip; the next honest one does', async () => {
    const uuid = 'b9407f30-f5f8-466e-aff9-25556b57fe6d';
    const b = await server.request('POST', '/v1/beacons', {
      key: keys.testSk, body: { tag: 'till', externalId: 't1', description: 'Till', type: 'ibeacon', uuid, major: 1, minor: 1, coordinates: HOME },
    });
    expect(b.status).toBe(200);
    const ranged = { beacons: [{ uuid, major: '1', minor: '1', rssi: -50 }], tripOptions: { externalId: 'held-trip', mode: 'car' } };
    await track(keys, 'held-beacon', { t: 0 });
    const held = await track(keys, 'held-beacon', { t: 60, extra: { ...ranged, mocked: true } });
    expect(held.events.map((e) => e.type)).toEqual(['user.failed_fraud']);
    expect(held.user.beacons).toBeUndefined();
    expect(held.user.trip).toBeUndefined();
    const trips = await server.request('GET', '/v1/trips', { key: keys.testSk });
    expect(trips.body.trips.map((t: { externalId: string }) => t.externalId)).not.toContain('held-trip');
    const honest = await track(keys, 'held-beacon', { t: 120, extra: ranged });
    expect(honest.events.map((e) => e.type)).toEqual(expect.arrayContaining(['user.entered_beacon', 'user.started_trip']));
  });

  test('a new user whose first update fails is created with nothing evaluated', async () => {
    const r = await track(keys, 'new-spoofer', { t: 0, at: geofenceAt, extra: { mocked: true } });
    expect(r.events.map((e) => e.type)).toEqual(['user.failed_fraud']);
    expect(r.user).toMatchObject({ geofences: [], fraud: { blocked: true } });
    expect(r.user._id).toMatch(/^[0-9a-f]{24}$/);
  });

  test('per-user overrides: bypass lets failing updates through, block holds every update', async () => {
    await track(keys, 'tester', { t: 0 });
    const bad = await server.request('PUT', '/v1/users/u-tester/fraud', { key: keys.testSk, body: { bypassed: 'perhaps' } });
    expect(bad.body.meta).toMatchObject({ code: 400, param: 'bypassed' });
    const missing = await server.request('PUT', '/v1/users/nobody/fraud', { key: keys.testSk, body: { bypassed: true } });
    expect(missing.status).toBe(404);
    const pk = await server.request('PUT', '/v1/users/u-tester/fraud', { key: keys.testPk, body: { bypassed: true } });
    expect(pk.status).toBe(403);

    const set = await server.request('PUT', '/v1/users/u-tester/fraud', { key: keys.testSk, body: { bypassed: true } });
    expect(set.body.fraudOverride).toEqual({ bypassed: true, blocked: false });
    let r = await track(keys, 'tester', { t: 60, at: geofenceAt, extra: { mocked: true } });
    expect(r.user.fraud).toMatchObject({ mocked: true, passed: true, bypassed: true, blocked: false });
    expect(r.events.map((e) => e.type)).toEqual(['user.entered_geofence']);

    await server.request('PUT', '/v1/users/u-tester/fraud', { key: keys.testSk, body: { bypassed: false, blocked: true } });
    expect((await server.request('GET', '/v1/users/u-tester/fraud', { key: keys.testSk })).body.fraudOverride).toEqual({ bypassed: false, blocked: true });
    r = await track(keys, 'tester', { t: 120, at: HOME });
    expect(r.user.fraud).toMatchObject({ passed: false, blocked: true });
    expect(r.user.location.coordinates).toEqual(geofenceAt);
    expect(r.events.map((e) => e.type)).toEqual(['user.failed_fraud']);
    const stored = await server.request('GET', '/v1/users/u-tester', { key: keys.testSk });
    expect(stored.body.user._fraudOverride).toBeUndefined();
  });
});

test('settings off: no fraud object, no fraud events, even for a mocked update; turning it off drops it', async () => {
  const keys = await project({ fraud: false, fraudBlocking: true });
  await track(keys, 'off', { t: 0 });
  let r = await track(keys, 'off', { t: 60, at: [-118.24, 34.05], extra: { mocked: true } });
  expect(r.user.fraud).toBeUndefined();
  expect(r.events).toEqual([]);
  expect(r.user.location.coordinates).toEqual([-118.24, 34.05]);

  const on = await project({ fraud: true });
  r = await track(on, 'switch', { t: 0 });
  expect(r.user.fraud).toBeDefined();
  await server.request('PATCH', '/v1/project/settings', { key: on.testSk, body: { fraud: false } });
  r = await track(on, 'switch', { t: 60 });
  expect(r.user.fraud).toBeUndefined();
  expect((await server.request('GET', '/v1/users/u-switch', { key: on.testSk })).body.user.fraud).toBeUndefined();
});

(HAVE_MMDB ? test : test.skip)('a City database given as the anonymous-IP one stops start-up with a clear message', async () => {
  const city = path.join(path.dirname(ANONYMOUS_TEST), 'GeoIP2-City-Test.mmdb');
  await expect(startTestServer({ ipGeocode: { anonymousIpDatabase: city } })).rejects.toThrow(/not an anonymous-IP database \(its type is "GeoIP2-City"\)/);
  await expect(startTestServer({ ipGeocode: { anonymousIpDatabase: path.join(path.dirname(ANONYMOUS_TEST), 'missing.mmdb') } })).rejects.toThrow(/IP database not found/);
});
