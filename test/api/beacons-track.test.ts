// Beacons on track over HTTP against a real server: a device ranges beacons as Radar's iOS and Android
// SDKs send them in track bodies, enters and leaves them (`user.entered_beacon` / `user.exited_beacon`,
// `user.beacons`), keeps them across updates without a list, leaves them by going far away, and is
// refused (400 naming the entry) for malformed entries. Beacon writes reach track at once; the SDK sync
// calls return beacons within a kilometre.
import fs from 'node:fs';
import path from 'node:path';
import { destinationPoint } from '../../core/geo/sphere';
import type { LngLat } from '../../core/types';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { announceSkip, files } from '../support/requires';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/radar');
const STORE: LngLat = [-73.975363, 40.783826];
const UUID = 'B9407F30-F5F8-466E-AFF9-25556B57FE6D';

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await startTestServer();
  keys = server.keys;
  const beacons: Array<Record<string, unknown>> = [
    { externalId: '123-1', description: 'Store #123 - Register #1', type: 'ibeacon', uuid: UUID, major: '100', minor: '1', coordinates: STORE, metadata: { lane: 1 } },
    { externalId: '123-2', description: 'Store #123 - Register #2', type: 'ibeacon', uuid: UUID, major: '100', minor: '2', coordinates: STORE },
    { externalId: '123-shelf', description: 'Shelf', type: 'eddystone', uid: '0123456789ABCDEF0123', instance: 'aabbccddeeff', coordinates: destinationPoint(STORE, 900, 90) },
    { externalId: '123-off', description: 'Disabled', type: 'ibeacon', uuid: UUID, major: '100', minor: '3', coordinates: STORE, enabled: false },
    { externalId: 'far', description: 'Across town', type: 'ibeacon', uuid: UUID, major: '200', minor: '1', coordinates: destinationPoint(STORE, 1_100, 0) },
  ];
  for (const b of beacons) {
    const r = await server.request('POST', '/v1/beacons', { key: keys.testSk, body: { tag: 'store-register', ...b } });
    expect(r.status).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await server.close();
});

interface Reply {
  events: Array<{ type: string; beacon?: Record<string, unknown>; duration?: number; createdAt: string }>;
  user: Record<string, any>;
}

/** A track body shaped as the iOS SDK sends it (NOTES.md): many fields beyond the spec, beacons with rssi. */
function iosBody(deviceId: string, beacons: unknown, at: LngLat = STORE): Record<string, unknown> {
  return {
    deviceId, userId: `u-${deviceId}`, installId: 'inst-1', sessionId: 's-1', latitude: at[1], longitude: at[0], accuracy: 10,
    altitude: 12, verticalAccuracy: 3, speed: 0, course: -1, foreground: true, stopped: true, deviceType: 'iOS', deviceOS: '17.1',
    source: 'BEACON_ENTER', sdkVersion: '3.9.0', locationAuthorization: 'GRANTED_FOREGROUND', mocked: false,
    trackingOptions: { beacons: true, desiredAccuracy: 'high' }, ...(beacons === undefined ? {} : { beacons }),
  };
}

/** Android's RadarBeacon as it is posted: identifiers as strings, the Eddystone type named. */
function androidBody(deviceId: string, beacons: unknown, at: LngLat = STORE): Record<string, unknown> {
  return {
    deviceId, latitude: at[1], longitude: at[0], accuracy: 15, foreground: false, stopped: true, deviceType: 'Android',
    deviceMake: 'Google', deviceModel: 'Pixel 8', source: 'BEACON_ENTER', beacons,
  };
}

async function track(body: Record<string, unknown>): Promise<Reply> {
  const r = await server.request('POST', '/v1/track', { key: keys.testPk, body });
  expect(r.body.meta).toEqual({ code: 200 });
  return r.body as Reply;
}

const types = (r: Reply) => r.events.map((e) => `${e.type}:${e.beacon?.externalId}`);
const ibeacon = (minor: number | string, over: Record<string, unknown> = {}) => ({ uuid: UUID, major: '100', minor: String(minor), rssi: -60, ...over });

test('iOS: enter a register, stay, move to the other register, leave: events and user.beacons', async () => {
  let r = await track(iosBody('ios-1', [ibeacon(1)]));
  expect(types(r)).toEqual(['user.entered_beacon:123-1']);
  expect(r.user.beacons).toEqual([{
    _id: expect.any(String), type: 'ibeacon', uuid: UUID.toLowerCase(), major: '100', minor: '1', description: 'Store #123 - Register #1',
    tag: 'store-register', externalId: '123-1', enabled: true, metadata: { lane: 1 },
  }]);
  expect(r.events[0].beacon).toEqual(r.user.beacons[0]);
  expect(r.user._beacons).toBeUndefined();

  r = await track(iosBody('ios-1', [ibeacon(1)]));
  expect(r.events).toEqual([]);
  expect(r.user.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['123-1']);

  r = await track(iosBody('ios-1', [ibeacon(2, { _id: undefined })]));
  expect(types(r)).toEqual(['user.exited_beacon:123-1', 'user.entered_beacon:123-2']);
  expect(r.events[0].duration).toEqual(expect.any(Number));

  r = await track(iosBody('ios-1', []));
  expect(types(r)).toEqual(['user.exited_beacon:123-2']);
  expect(r.user.beacons).toEqual([]);
  const stored = await server.request('GET', '/v1/users/u-ios-1', { key: keys.testSk });
  expect(stored.body.user.beacons).toEqual([]);
});

test('Android: numbers or strings, Eddystone by uid/instance, an entry with only _id; disabled and unknown beacons never enter', async () => {
  const sync = await server.request('GET', '/v1/search/beacons', { key: keys.testPk, query: { near: `${STORE[1]},${STORE[0]}` } });
  const shelfId = sync.body.beacons.find((b: { externalId: string }) => b.externalId === '123-shelf')._id;
  const r = await track(androidBody('android-1', [
    { type: 'ibeacon', uuid: UUID.toLowerCase(), major: 100, minor: 1 },
    { type: 'eddystone', uid: '0x0123456789abcdef0123', instance: 'AABBCCDDEEFF', rssi: -70 },
    ibeacon(3), ibeacon(99), { _id: shelfId },
  ]));
  expect(types(r)).toEqual(['user.entered_beacon:123-1', 'user.entered_beacon:123-shelf']);
  expect(r.user.beacons[1]).toMatchObject({ type: 'eddystone', uid: '0123456789abcdef0123', instance: 'aabbccddeeff' });
});

test('an update without a beacon list keeps the beacons; one kilometres away leaves them', async () => {
  await track(iosBody('keep-1', [ibeacon(1)]));
  let r = await track(iosBody('keep-1', undefined, destinationPoint(STORE, 50, 0)));
  expect(r.events).toEqual([]);
  expect(r.user.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['123-1']);
  r = await track(iosBody('keep-1', undefined, destinationPoint(STORE, 3_000, 0)));
  expect(types(r)).toEqual(['user.exited_beacon:123-1']);
  expect(r.user.beacons).toEqual([]);
});

test('beacon writes reach track at once: a new beacon enters, a disabled one leaves without an event', async () => {
  const body = { tag: 'late', externalId: 'late-1', description: 'Added later', type: 'ibeacon', uuid: UUID, major: '300', minor: '7', coordinates: STORE };
  await track(iosBody('late-1', [ibeacon(7, { major: '300' })]));
  const created = await server.request('POST', '/v1/beacons', { key: keys.testSk, body });
  expect(created.status).toBe(200);
  let r = await track(iosBody('late-1', [ibeacon(7, { major: '300' })]));
  expect(types(r)).toEqual(['user.entered_beacon:late-1']);
  await server.request('PUT', '/v1/beacons/late/late-1', { key: keys.testSk, body: { ...body, enabled: false } });
  r = await track(iosBody('late-1', [ibeacon(7, { major: '300' })]));
  expect(r.events).toEqual([]);
  expect(r.user.beacons).toEqual([]);
  await server.request('PUT', '/v1/beacons/late/late-1', { key: keys.testSk, body: { ...body, enabled: true } });
  expect(types(await track(iosBody('late-1', [ibeacon(7, { major: '300' })])))).toEqual(['user.entered_beacon:late-1']);
  await server.request('DELETE', '/v1/beacons/late/late-1', { key: keys.testSk });
  r = await track(iosBody('late-1', [ibeacon(7, { major: '300' })]));
  expect(r.events).toEqual([]);
  expect(r.user.beacons).toEqual([]);
});

test('beacons of the live environment and of other projects never match', async () => {
  const other = await server.newProject('beacons-other');
  const r = await server.request('POST', '/v1/track', { key: other.testPk, body: iosBody('other-1', [ibeacon(1)]) });
  expect(r.body.events).toEqual([]);
  const live = await server.request('POST', '/v1/track', { key: keys.livePk, body: iosBody('live-1', [ibeacon(1)]) });
  expect(live.body.events).toEqual([]);
});

test('form-encoded bodies carry beacons as JSON text', async () => {
  const r = await server.request('POST', '/v1/track', { key: keys.testPk, form: true, body: iosBody('form-1', [ibeacon(2)]) });
  expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.entered_beacon']);
});

describe('malformed beacon lists: 400 naming the entry, nothing changes', () => {
  beforeAll(async () => {
    expect(types(await track(iosBody('bad-1', [ibeacon(1)])))).toEqual(['user.entered_beacon:123-1']);
  });
  const cases: Array<[string, unknown, string]> = [
    ['not a list', { uuid: UUID }, 'beacons'],
    ['a list of strings', ['B9407F30'], 'beacons[0]'],
    ['a bad uuid', [ibeacon(1, { uuid: 'not-a-uuid' })], 'beacons[0].uuid'],
    ['minor out of range', [ibeacon(1), ibeacon(70000)], 'beacons[1].minor'],
    ['a negative major', [ibeacon(1, { major: -1 })], 'beacons[0].major'],
    ['a fractional minor', [ibeacon(1.5)], 'beacons[0].minor'],
    ['major as an object', [ibeacon(1, { major: { $gt: 0 } })], 'beacons[0].major'],
    ['a short Eddystone uid', [{ type: 'eddystone', uid: 'abcd', instance: 'aabbccddeeff' }], 'beacons[0].uid'],
    ['an unknown type', [{ type: 'altbeacon', id1: 'x' }], 'beacons[0].type'],
    ['no identifiers at all', [{ rssi: -50 }], 'beacons[0]'],
    // Refused by the gateway's one hostile-input rule, which names the body field.
    ['a NUL in the uuid', [ibeacon(1, { uuid: `${UUID}\u0000` })], 'beacons'],
    ['too many entries', Array.from({ length: 101 }, () => ibeacon(1)), 'beacons'],
    ['invalid JSON text', '[{', 'beacons'],
  ];
  test.each(cases)('%s', async (_name, beacons, param) => {
    const before = await server.request('GET', '/v1/users/u-bad-1', { key: keys.testSk });
    const r = await server.request('POST', '/v1/track', { key: keys.testPk, body: iosBody('bad-1', beacons) });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ code: 400, param });
    expect(typeof r.body.meta.message).toBe('string');
    const after = await server.request('GET', '/v1/users/u-bad-1', { key: keys.testSk });
    expect(after.body.user.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['123-1']);
    expect(after.body).toEqual(before.body);
  });
});

test('sync calls: beacons within a kilometre, enabled only, nearest first', async () => {
  const body = { latitude: STORE[1], longitude: STORE[0], userId: 'sync-1' };
  const sync = await server.request('POST', '/v1/sync/region', { key: keys.testPk, body });
  expect(sync.body.beacons.map((b: { externalId: string }) => b.externalId).sort()).toEqual(['123-1', '123-2', '123-shelf']);
  expect(sync.body.beacons.at(-1).externalId).toBe('123-shelf');
  const search = await server.request('GET', '/v1/search/beacons', { key: keys.testPk, query: { near: `${STORE[1]},${STORE[0]}`, radius: 2000 } });
  expect(search.body.beacons.map((b: { externalId: string }) => b.externalId)).toContain('far');
  expect(search.body.beacons.map((b: { externalId: string }) => b.externalId)).not.toContain('123-off');
});

const withFixture = fs.existsSync(path.join(FIXTURES, 'ios/historical/beacons.json')) ? test : test.skip;
if (!fs.existsSync(path.join(FIXTURES, 'ios/historical/beacons.json'))) announceSkip('beacons on track: the iOS beacon fixture case', files(path.join(FIXTURES, 'ios/historical/beacons.json')));

withFixture('the iOS SDK fixture beacon, created and ranged, is entered with its identifiers', async () => {
  const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'ios/historical/beacons.json'), 'utf8')) as { beacons: Array<Record<string, any>> };
  const b = fixture.beacons[0];
  const created = await server.request('POST', '/v1/beacons', {
    key: keys.testSk,
    body: { tag: 'fixture', externalId: b._id, description: b.description, type: b.type, uuid: b.uuid, major: b.major, minor: b.minor, coordinates: b.geometry.coordinates, metadata: b.metadata },
  });
  expect(created.status).toBe(200);
  const r = await track(iosBody('fixture-1', [{ _id: created.body.beacon._id, uuid: b.uuid, major: b.major, minor: b.minor, rssi: -55 }]));
  expect(r.events.map((e) => e.type)).toEqual(['user.entered_beacon']);
  expect(r.user.beacons[0]).toMatchObject({ uuid: b.uuid.toLowerCase(), major: b.major, minor: b.minor, description: b.description });
});
