// Track with Regions (project setting `regions`), over HTTP against a real server: a device crosses
// the Hudson from New Jersey into Manhattan and gets Radar's region events and user fields; with the
// setting off it gets neither. Region events reach webhooks like geofence events.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type TestReceiver } from './webhooks-receiver';
import { files, requires } from '../support/requires';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/radar');

const HOBOKEN = { lat: 40.744, lng: -74.032 };
const CHELSEA = { lat: 40.745, lng: -74.0 };
const TORONTO = { lat: 43.6532, lng: -79.3832 };
const MID_ATLANTIC = { lat: 35, lng: -40 };
const REGION_FIELDS = ['country', 'state', 'dma', 'postalCode'];

let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ regions: { reloadCheckMs: 0 }, webhooks: fastWebhooks() });
}, 60_000);
afterAll(async () => {
  await server.close();
  await receiver.close();
});

interface Event {
  _id: string;
  type: string;
  confidence: number;
  createdAt: string;
  region?: { _id: string; type: string; name: string; code: string; flag?: string };
}

async function project(regions: boolean): Promise<ProjectKeys> {
  const keys = await server.newProject(`regions-${regions}-${Math.random().toString(36).slice(2)}`);
  const r = await server.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: { regions } });
  expect(r.body.settings.regions).toBe(regions);
  return keys;
}

async function track(key: string, deviceId: string, at: { lat: number; lng: number }, accuracy = 5) {
  const r = await server.request('POST', '/v1/track', {
    key, body: { deviceId, userId: `u-${deviceId}`, latitude: at.lat, longitude: at.lng, accuracy, foreground: true },
  });
  expect(r.status).toBe(200);
  return r.body as { events: Event[]; user: Record<string, any> };
}

const summary = (events: Event[]) => events.map((e) => `${e.type}:${e.region?.code}`);

describe('regions on', () => {
  let keys: ProjectKeys;
  beforeAll(async () => {
    keys = await project(true);
  });

  test('New Jersey → New York across the Hudson: state and postal code change, the country does not', async () => {
    // 1. First located update: the user enters its regions.
    let r = await track(keys.testPk, 'hudson', HOBOKEN);
    expect(summary(r.events)).toEqual([
      'user.entered_region_country:US', 'user.entered_region_state:NJ', 'user.entered_region_postal_code:07030',
    ]);
    expect(r.user.country).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'country', name: 'United States', code: 'US', flag: '🇺🇸' });
    expect(r.user.state).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 'state', name: 'New Jersey', code: 'NJ' });
    expect(r.user.postalCode).toMatchObject({ type: 'postalCode', name: '07030', code: '07030' });
    expect(r.user).not.toHaveProperty('dma');
    const nj = r.user.state;
    const us = r.user.country;
    for (const e of r.events) {
      expect(e).toMatchObject({ live: false, confidence: 3, locationAccuracy: 5, user: { userId: 'u-hudson', deviceId: 'hudson' } });
      expect(e._id).toMatch(/^[0-9a-f]{24}$/);
      expect(e.createdAt).toMatch(/\.\d{3}Z$/);
    }
    expect(r.events[1].region).toEqual(nj);

    // 2. Still in Hoboken: nothing changes, no events.
    r = await track(keys.testPk, 'hudson', { lat: HOBOKEN.lat + 0.0005, lng: HOBOKEN.lng });
    expect(r.events).toEqual([]);
    expect(r.user.state).toEqual(nj);

    // 3. Across the river: exit then entry, state before postal code; the country stays.
    r = await track(keys.testPk, 'hudson', CHELSEA);
    expect(r.events.map((e) => e.type)).toEqual([
      'user.exited_region_state', 'user.entered_region_state', 'user.exited_region_postal_code', 'user.entered_region_postal_code',
    ]);
    expect(r.events[0].region).toEqual(nj);
    expect(r.events[1].region).toMatchObject({ type: 'state', name: 'New York', code: 'NY' });
    expect(r.events[2].region?.code).toBe('07030');
    expect(r.events[3].region?.code).toMatch(/^100/);
    expect(r.user.state.code).toBe('NY');
    expect(r.user.country).toEqual(us);

    // 4. The user as stored carries them too.
    const stored = await server.request('GET', `/v1/users/${r.user._id}`, { key: keys.testSk });
    expect(stored.body.user.state.code).toBe('NY');
    expect(stored.body.user.postalCode.code).toBe(r.user.postalCode.code);

    // 5. The events are stored and listed like any other.
    const listed = await server.request('GET', '/v1/events', { key: keys.testSk });
    const types = listed.body.events.map((e: Event) => e.type);
    expect(types.filter((t: string) => t.includes('_region_'))).toHaveLength(7);
  });

  test('into another country: every region changes; out to sea: only exits', async () => {
    await track(keys.testPk, 'traveller', CHELSEA);
    let r = await track(keys.testPk, 'traveller', TORONTO);
    expect(r.events.map((e) => e.type)).toEqual([
      'user.exited_region_country', 'user.entered_region_country', 'user.exited_region_state', 'user.entered_region_state',
      'user.exited_region_postal_code', 'user.entered_region_postal_code',
    ]);
    expect(r.user.country.code).toBe('CA');
    expect(r.user.state.code).toBe('ON');
    r = await track(keys.testPk, 'traveller', MID_ATLANTIC);
    expect(summary(r.events)).toEqual(['user.exited_region_country:CA', 'user.exited_region_state:ON', `user.exited_region_postal_code:${r.events[2].region?.code}`]);
    for (const field of REGION_FIELDS) expect(r.user).not.toHaveProperty(field);
  });

  test('poor accuracy near a border lowers confidence; good accuracy far from one gives 3', async () => {
    // Mid-Hudson, in New Jersey by the Census line, about 1 km from Manhattan: a 2 km accuracy disk spans both states.
    const r = await track(keys.testPk, 'blurry', { lat: 40.76, lng: -74.012 }, 2000);
    const state = r.events.find((e) => e.type === 'user.entered_region_state');
    expect(state?.region?.code).toBe('NJ');
    expect(state?.confidence).toBeLessThan(3);
    expect(r.events.find((e) => e.type === 'user.entered_region_country')?.confidence).toBe(3);
  });

  test('region events reach webhooks, in the order of the update', async () => {
    const hookPath = `/regions-${keys.id}`;
    const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + hookPath } });
    expect(created.status).toBe(200);
    await track(keys.testPk, 'hooked', HOBOKEN);
    const r = await track(keys.testPk, 'hooked', CHELSEA);
    const wanted = r.events.map((e) => e._id);
    await receiver.waitFor((rs) => {
      const got = rs.filter((x) => x.path === hookPath).flatMap((x) => (x.json.events ?? [x.json.event]).map((e: Event) => e._id));
      return wanted.every((id) => got.includes(id));
    }, 15_000, 'the region events of the crossing');
    const delivered = receiver.received.filter((x) => x.path === hookPath).flatMap((x) => x.json.events ?? [x.json.event]);
    const crossing = delivered.filter((e: Event) => wanted.includes(e._id));
    expect(crossing.map((e: Event) => e.type)).toEqual(r.events.map((e) => e.type));
    expect(crossing[1].region).toMatchObject({ type: 'state', code: 'NY' });
  });

  test('turning regions off drops the fields on the next update, without events', async () => {
    const k = await project(true);
    let r = await track(k.testPk, 'switch', HOBOKEN);
    expect(r.user.state.code).toBe('NJ');
    await server.request('PATCH', '/v1/project/settings', { key: k.testSk, body: { regions: false } });
    r = await track(k.testPk, 'switch', CHELSEA);
    expect(r.events).toEqual([]);
    for (const field of REGION_FIELDS) expect(r.user).not.toHaveProperty(field);
    // Back on: the user has no remembered regions, so it enters them again.
    await server.request('PATCH', '/v1/project/settings', { key: k.testSk, body: { regions: true } });
    r = await track(k.testPk, 'switch', CHELSEA);
    expect(summary(r.events)).toEqual(['user.entered_region_country:US', 'user.entered_region_state:NY', `user.entered_region_postal_code:${r.user.postalCode.code}`]);
  });
});

describe('regions off (the default)', () => {
  test('the same journey makes no region events and the user has no region fields', async () => {
    const keys = await server.newProject('regions-default');
    for (const at of [HOBOKEN, CHELSEA, TORONTO]) {
      const r = await track(keys.testPk, 'plain', at);
      expect(r.events).toEqual([]);
      for (const field of REGION_FIELDS) expect(r.user).not.toHaveProperty(field);
    }
  });
});

const withRadarFixtures = requires('regions on track against the Radar SDK fixtures', files(path.join(FIXTURES, 'android/track.json')));
withRadarFixtures("against Radar's track fixtures", () => {
  test.each(['android', 'ios'])('%s track.json: the same event type names, order within a type and region object keys', async (platform) => {
    // iOS fixtures may have trailing commas.
    const text = fs.readFileSync(path.join(FIXTURES, platform, 'track.json'), 'utf8').replace(/,(\s*[}\]])/g, '$1');
    const fixture = JSON.parse(text) as { events: Event[]; user: Record<string, any> };
    const theirs = fixture.events.filter((e) => e.type.includes('_region_'));
    expect(theirs.length).toBeGreaterThan(0);
    const keys = await project(true);
    await track(keys.testPk, `fixture-${platform}`, HOBOKEN);
    const ours = (await track(keys.testPk, `fixture-${platform}`, CHELSEA)).events;
    const stateTypes = (list: Event[]) => list.filter((e) => e.type.endsWith('_region_state')).map((e) => e.type);
    expect(stateTypes(ours)).toEqual(stateTypes(theirs));
    for (const e of theirs) {
      expect(e.type).toMatch(/^user\.(entered|exited)_region_(country|state|dma|postal_code)$/);
      expect(Object.keys(ours[0].region ?? {}).sort()).toEqual(Object.keys(e.region ?? {}).sort());
    }
    for (const field of ['state', 'postalCode']) {
      expect(Object.keys(fixture.user[field]).sort()).toEqual(['_id', 'code', 'name', 'type']);
    }
  });
});
