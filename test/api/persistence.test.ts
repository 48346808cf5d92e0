// Persistence: everything written through the API survives a restart on the same data directory (a new
// server process over the same SQLite file). The harness re-issues the first project's keys when it
// reuses a directory; keys of other projects are untouched, so they also show that key hashes persist.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDataDir, type ProjectKeys, type TestServer } from '../support/server';
import { call } from './foundation-expect';

type Doc = Record<string, unknown> & { _id: string };

function ibeacon(externalId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: `beacon ${externalId}`, tag: 'persist', externalId, type: 'ibeacon', uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6',
    major: '1', minor: '2', coordinates: [13.405, 52.52], metadata: { floor: 3, open: true, name: 'x' }, ...over,
  };
}

describe('a restart on the same data directory', () => {
  const dataDir = tempDataDir();
  let before: {
    testBeacons: Doc[];
    liveBeacon: Doc;
    user: Doc;
    places: unknown;
    livePlaces: unknown;
    project: unknown;
    other: ProjectKeys;
    otherBeacon: Doc;
    rotatedAway: string;
    rotatedIn: string;
  };
  let after: TestServer;

  beforeAll(async () => {
    const first = await startTestServer({ dataDir });
    const k = first.keys;
    const testBeacons: Doc[] = [];
    for (const id of ['a', 'b', 'c']) testBeacons.push((await call(first, 'POST', '/v1/beacons', { key: k.testSk, body: ibeacon(id) })).body.beacon);
    await call(first, 'DELETE', '/v1/beacons/persist/b', { key: k.testSk });
    testBeacons.splice(1, 1);
    const updated = await call(first, 'PUT', '/v1/beacons/persist/c', { key: k.testSk, body: ibeacon('c', { description: 'updated', enabled: false }) });
    testBeacons[1] = updated.body.beacon;
    const liveBeacon = (await call(first, 'POST', '/v1/beacons', { key: k.liveSk, body: ibeacon('live') })).body.beacon;
    const user = (await call(first, 'POST', '/v1/track', { key: k.testPk, body: { deviceId: 'dev-9', userId: 'persisted-user', latitude: 52.52, longitude: 13.405, accuracy: 5 } })).body.user;
    const places = (await call(first, 'PATCH', '/v1/settings', { key: k.testSk, body: { chainMetadata: { c: { n: 1 } }, placeFilters: { categories: ['x'] } } })).body.settings;
    const livePlaces = (await call(first, 'PATCH', '/v1/settings', { key: k.liveSk, body: { chainMappings: { live: 'yes' } } })).body.settings;
    const project = (await call(first, 'PATCH', '/v1/project/settings', { key: k.testSk, body: { stopDetection: true, tripExpirationHours: 12 } })).body.settings;
    const other = await first.newProject('other');
    const otherBeacon = (await call(first, 'POST', '/v1/beacons', { key: other.testSk, body: ibeacon('other') })).body.beacon;
    const rotating = await first.newProject('rotating');
    const rotatedIn = (await first.running.gateway.shared.projects.rotateKeys(rotating.id))[2].key;
    await first.close();
    before = { testBeacons, liveBeacon, user, places, livePlaces, project, other, otherBeacon, rotatedAway: rotating.testSk, rotatedIn };
    after = await startTestServer({ dataDir });
  });

  afterAll(async () => {
    await after?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the data lives in one SQLite file in the data directory', () => {
    expect(fs.existsSync(path.join(dataDir, 'waymark.sqlite'))).toBe(true);
  });

  test('beacons: the same documents, the same order; deleted stays deleted', async () => {
    const list = await call(after, 'GET', '/v1/beacons', { key: after.keys.testSk });
    expect(list.body.beacons).toEqual([...before.testBeacons].reverse());
    for (const b of before.testBeacons) {
      expect((await call(after, 'GET', `/v1/beacons/${b._id}`, { key: after.keys.testSk })).body.beacon).toEqual(b);
    }
    expect((await call(after, 'GET', '/v1/beacons/persist/b', { key: after.keys.testSk })).status).toBe(404);
    expect((await call(after, 'GET', '/v1/beacons/persist/live', { key: after.keys.liveSk })).body.beacon).toEqual(before.liveBeacon);
  });

  test('users made by track', async () => {
    const reply = await call(after, 'GET', '/v1/users/persisted-user', { key: after.keys.testSk });
    expect(reply.body.user).toEqual(before.user);
  });

  test('Places settings, per environment', async () => {
    expect((await call(after, 'GET', '/v1/settings', { key: after.keys.testSk })).body.settings).toEqual(before.places);
    expect((await call(after, 'GET', '/v1/settings', { key: after.keys.liveSk })).body.settings).toEqual(before.livePlaces);
  });

  test('project settings', async () => {
    expect((await call(after, 'GET', '/v1/project/settings', { key: after.keys.liveSk })).body.settings).toEqual(before.project);
  });

  test("another project's keys keep working and reach its data", async () => {
    const reply = await call(after, 'GET', `/v1/beacons/${before.otherBeacon._id}`, { key: before.other.testSk });
    expect(reply.body.beacon).toEqual(before.otherBeacon);
    expect((await call(after, 'GET', `/v1/beacons/${before.otherBeacon._id}`, { key: after.keys.testSk })).status).toBe(404);
  });

  test('rotated keys stay rotated', async () => {
    expect((await call(after, 'GET', '/v1/beacons', { key: before.rotatedAway })).status).toBe(401);
    expect((await call(after, 'GET', '/v1/beacons', { key: before.rotatedIn })).status).toBe(200);
  });

  test('writes after the restart go on normally', async () => {
    const made = await call(after, 'POST', '/v1/beacons', { key: after.keys.testSk, body: ibeacon('d') });
    expect(made.status).toBe(200);
    const list = await call(after, 'GET', '/v1/beacons', { key: after.keys.testSk });
    expect(list.body.beacons.map((b: Doc) => b.externalId)).toEqual(['d', 'c', 'a']);
  });
});
