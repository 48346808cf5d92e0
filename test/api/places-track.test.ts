// Place detection through POST /v1/track over an extract built from OSM entities
// (test/support/places-neighbourhood.ts): the `places` switch, entry and exit with confidence,
// alternatePlaces and duration, hysteresis on the boundary, stop detection, placeFilters,
// chainMappings in events, context.place and the SDK's region sync.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDataDir, type ProjectKeys, type TestServer } from '../support/server';
import { writePlacesExtract } from '../support/places-extract';
import { MALL_SHOP_A, MCDONALDS, PARK, STARBUCKS, neighbourhood } from '../support/places-neighbourhood';
import { announceSkip, files } from '../support/requires';

let s: TestServer;

beforeAll(async () => {
  const dataDir = tempDataDir();
  await writePlacesExtract(dataDir, 'les', neighbourhood());
  s = await startTestServer({ dataDir });
}, 60_000);
afterAll(async () => {
  await s.close();
});

async function project(settings: Record<string, unknown>, placesSettings?: Record<string, unknown>): Promise<ProjectKeys> {
  const keys = await s.newProject(`places-${Math.random().toString(36).slice(2)}`);
  expect((await s.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: settings })).status).toBe(200);
  if (placesSettings) expect((await s.request('PATCH', '/v1/settings', { key: keys.testSk, body: placesSettings })).status).toBe(200);
  return keys;
}

let clock = Date.now() - 3_600_000;
async function track(keys: ProjectKeys, device: string, at: [number, number], extra: Record<string, unknown> = {}) {
  clock += 60_000;
  const r = await s.request('POST', '/v1/track', {
    key: keys.testPk,
    body: { deviceId: device, userId: device, longitude: at[0], latitude: at[1], accuracy: 5, foreground: true, updatedAt: new Date(clock).toISOString(), ...extra },
  });
  expect(r.status).toBe(200);
  return r.body as { user: Record<string, any>; events: Array<Record<string, any>> };
}
const placeEvents = (events: Array<Record<string, any>>) => events.filter((e) => e.type.endsWith('_place')).map((e) => `${e.type}:${e.place.name}`);
/** A point `m` metres north of `p`. */
const north = (p: [number, number], m: number): [number, number] => [p[0], p[1] + m / 111_195];

test('with places off: no place events, no user.place', async () => {
  const keys = await project({ places: false });
  const r = await track(keys, 'off', STARBUCKS);
  expect(placeEvents(r.events)).toEqual([]);
  expect(r.user).not.toHaveProperty('place');
});

describe('with places on', () => {
  let keys: ProjectKeys;
  beforeAll(async () => {
    keys = await project({ places: true }, { chainMappings: { starbucks: 'sb-42' }, chainMetadata: { starbucks: { loyalty: true } } });
  });

  test('entering Starbucks: confidence from the accuracy disk in its building, the chain with the caller\'s ID', async () => {
    const r = await track(keys, 'd1', STARBUCKS);
    expect(placeEvents(r.events)).toEqual(['user.entered_place:Starbucks']);
    const e = r.events.find((x) => x.type === 'user.entered_place')!;
    // 5 m accuracy at the centre of a 24 m building: the whole disk is inside.
    expect(e.confidence).toBe(3);
    expect(e.place).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Starbucks', categories: ['food-beverage', 'cafe'],
      chain: { name: 'Starbucks', slug: 'starbucks', externalId: 'sb-42', metadata: { loyalty: true } },
      location: { type: 'Point', coordinates: STARBUCKS },
    });
    expect(e.alternatePlaces).toEqual([]);
    expect(r.user.place).toEqual(e.place);
    expect(r.user).not.toHaveProperty('_place');
  });

  test('a second update inside makes no event; jitter just past the wall keeps the visit (hysteresis)', async () => {
    expect(placeEvents((await track(keys, 'd1', north(STARBUCKS, 3))).events)).toEqual([]);
    // The building's wall is 12 m north; 14 m is 2 m outside, within the 5 m accuracy.
    const r = await track(keys, 'd1', north(STARBUCKS, 14));
    expect(placeEvents(r.events)).toEqual([]);
    expect(r.user.place.name).toBe('Starbucks');
  });

  test('walking to McDonald\'s exits Starbucks with its duration, then enters McDonald\'s', async () => {
    const r = await track(keys, 'd1', MCDONALDS);
    expect(placeEvents(r.events)).toEqual(['user.exited_place:Starbucks', "user.entered_place:McDonald's"]);
    const exit = r.events.find((x) => x.type === 'user.exited_place')!;
    // Entered 3 updates (3 minutes) earlier.
    expect(exit.duration).toBe(3);
    expect(exit.confidence).toBe(3);
    expect(r.user.place.name).toBe("McDonald's");
  });

  test('leaving every place exits and clears user.place', async () => {
    const r = await track(keys, 'd1', north(MCDONALDS, 400));
    expect(placeEvents(r.events)).toEqual(["user.exited_place:McDonald's"]);
    expect(r.user).not.toHaveProperty('place');
  });

  test('a poor fix touching several places: the one containing it, the others as alternatePlaces', async () => {
    const r = await track(keys, 'd2', MALL_SHOP_A, { accuracy: 40 });
    const e = r.events.find((x) => x.type === 'user.entered_place')!;
    expect(e.place.name).toBe('Shop A');
    expect(e.confidence).toBe(1);
    expect(e.alternatePlaces.map((p: { name: string }) => p.name)).toEqual(['Shop B']);
  });

  test('verifying an entry with verifiedPlaceId gives the event its verifiedPlace object (spec Event, radar-python reads it)', async () => {
    const r = await track(keys, 'd-verify', MALL_SHOP_A, { accuracy: 40 });
    const e = r.events.find((x) => x.type === 'user.entered_place')!;
    const shopB = e.alternatePlaces[0];
    const verify = (body: Record<string, unknown>) => s.request('PUT', `/v1/events/${e._id}/verification`, { key: keys.testPk, body });
    const verified = await verify({ verification: 1, verifiedPlaceId: shopB._id });
    expect(verified.status).toBe(200);
    expect(verified.body.event).toMatchObject({ verification: 1, verifiedPlaceId: shopB._id, verifiedPlace: shopB });
    const stored = await s.request('GET', `/v1/events/${e._id}`, { key: keys.testSk });
    expect(stored.body.event.verifiedPlace).toEqual(shopB);
    // A place among the imported ones, not on the event: looked up.
    const starbucks = (await track(keys, 'd-verify-2', STARBUCKS)).events.find((x) => x.type === 'user.entered_place')!.place;
    expect((await verify({ verification: 1, verifiedPlaceId: starbucks._id })).body.event.verifiedPlace).toMatchObject({ _id: starbucks._id, name: 'Starbucks' });
    const unknown = await verify({ verification: 1, verifiedPlaceId: '0123456789abcdef01234567' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.meta.param).toBe('verifiedPlaceId');
  });

  test('a park is entered by its outline, far from its centre', async () => {
    const r = await track(keys, 'd3', north(PARK, 70));
    expect(placeEvents(r.events)).toEqual(['user.entered_place:Sara D. Roosevelt Park']);
  });
});

test('stop detection: moving through a place enters nothing; stopping there does', async () => {
  const keys = await project({ places: true, stopDetection: true });
  expect(placeEvents((await track(keys, 'sd', STARBUCKS, { foreground: false, stopped: false })).events)).toEqual([]);
  expect(placeEvents((await track(keys, 'sd', STARBUCKS, { foreground: false, stopped: true })).events)).toEqual(['user.entered_place:Starbucks']);
});

test.each([
  { shape: "Radar's documented keys", placeFilters: { chain: ['mcdonalds'], category: ['park'] } },
  { shape: 'the plural keys Waymark took first', placeFilters: { chains: ['mcdonalds'], categories: ['park'] } },
])('placeFilters ($shape): only places of the listed chains or categories make events', async ({ placeFilters }) => {
  const keys = await project({ places: true }, { placeFilters });
  const a = await track(keys, 'pf', STARBUCKS);
  expect(placeEvents(a.events)).toEqual([]);
  expect(a.user).not.toHaveProperty('place');
  expect(placeEvents((await track(keys, 'pf', MCDONALDS)).events)).toEqual(["user.entered_place:McDonald's"]);
  expect(placeEvents((await track(keys, 'pf', north(PARK, 10))).events)).toEqual(["user.exited_place:McDonald's", 'user.entered_place:Sara D. Roosevelt Park']);
});

test('GET /v1/context: place is the place at the point, left out elsewhere', async () => {
  const at = await s.request('GET', '/v1/context', { key: s.keys.testPk, query: { coordinates: `${STARBUCKS[1]},${STARBUCKS[0]}` } });
  expect(at.status).toBe(200);
  expect(at.body.context.place).toMatchObject({ name: 'Starbucks', chain: { slug: 'starbucks' } });
  expect(at.body.place).toEqual(at.body.context.place);
  const nowhere = await s.request('GET', '/v1/context', { key: s.keys.testPk, query: { coordinates: '40.0,-75.0' } });
  expect(nowhere.body.context).not.toHaveProperty('place');
});

test('POST /v1/sync/region returns nearby places', async () => {
  const r = await s.request('POST', '/v1/sync/region', { key: s.keys.testPk, body: { latitude: STARBUCKS[1], longitude: STARBUCKS[0], userId: 'u' } });
  expect(r.status).toBe(200);
  expect(r.body.places[0]).toMatchObject({ name: 'Starbucks' });
  expect(r.body.places.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["McDonald's", 'Sara D. Roosevelt Park', '7-Eleven']));
});

const SDK_TRACK = path.resolve(__dirname, '../../../shared/fixtures/radar/ios/track.json');
if (!fs.existsSync(SDK_TRACK)) announceSkip('places on track: SDK track fixture comparison', files(SDK_TRACK));
(fs.existsSync(SDK_TRACK) ? test : test.skip)('place events and user.place have the SDK fixture\'s fields, with the same types', async () => {
  const theirs = JSON.parse(fs.readFileSync(SDK_TRACK, 'utf8'));
  const keys = await project({ places: true });
  const entered = await track(keys, 'sdk', STARBUCKS);
  const exited = await track(keys, 'sdk', north(STARBUCKS, 500));
  const ours: Record<string, Record<string, any>> = {
    'user.entered_place': entered.events.find((e) => e.type === 'user.entered_place')!,
    'user.exited_place': exited.events.find((e) => e.type === 'user.exited_place')!,
  };
  // Region fields (country, state, …) come with the regions switch, not places.
  const PLACE_FIELDS = ['_id', 'type', 'createdAt', 'actualCreatedAt', 'live', 'user', 'location', 'locationAccuracy', 'confidence', 'place', 'alternatePlaces', 'duration'];
  for (const type of Object.keys(ours)) {
    const event = theirs.events.find((e: { type: string }) => e.type === type);
    for (const field of PLACE_FIELDS.filter((f) => f in event)) {
      expect([type, field, typeof ours[type][field], Array.isArray(ours[type][field])]).toEqual([type, field, typeof event[field], Array.isArray(event[field])]);
    }
    for (const field of ['_id', 'name', 'categories', 'location']) expect(typeof ours[type].place[field]).toBe(typeof event.place[field]);
  }
  for (const field of ['_id', 'name', 'categories', 'location']) expect(typeof entered.user.place[field]).toBe(typeof theirs.user.place[field]);
  expect(Object.keys(ours['user.entered_place'].place.chain).sort()).toEqual(['name', 'slug']);
});
