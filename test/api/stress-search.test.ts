// Issue #10 items 4 and 10: the work one update's accuracy can cause is bounded, the geofence index's
// antimeridian lookup is linear, and /v1/search/users is right near the poles, on the sphere, and past
// 20,000 candidates; on SQLite and PostgreSQL where the store answers.
import { put } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import { GeofenceIndex } from '../../core/geofencing/geofence-index';
import { haversineMeters } from '../../core/geo/sphere';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';
import { USERS } from '../../server/api/collections';

const stores = eachStore('search stress tests');

describe.each(stores)('bounded updates and /v1/search/users on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  const track = (deviceId: string, lat: number, lng: number, accuracy = 10) => server.request('POST', '/v1/track', {
    key: server.keys.testPk, body: { deviceId, userId: deviceId, latitude: lat, longitude: lng, accuracy },
  });

  test('accuracy 2.5e7 with buffer entries on enters no far geofence (item 4)', async () => {
    const settings = await server.request('PATCH', '/v1/project/settings', { key: server.keys.testSk, body: { bufferEntries: true } });
    expect(settings.status).toBe(200);
    for (let i = 0; i < 20; i++) {
      const r = await server.request('PUT', `/v1/geofences/far/f${i}`, {
        key: server.keys.testSk, body: { description: `far ${i}`, type: 'circle', coordinates: [10 + i, 10], radius: 100 },
      });
      expect(r.status).toBe(200);
    }
    const near = await server.request('PUT', '/v1/geofences/near/n1', {
      key: server.keys.testSk, body: { description: 'near', type: 'circle', coordinates: [-40, -40.003], radius: 100 },
    });
    expect(near.status).toBe(200);
    const r = await track('huge-accuracy', -40, -40, 2.5e7);
    expect(r.status).toBe(200);
    const entered = r.body.events.filter((e: { type: string }) => e.type === 'user.entered_geofence').map((e: { geofence: { externalId: string } }) => e.geofence.externalId);
    // The geofence 330 m away is still a candidate; the 20 thousands of kilometres away are not.
    expect(entered.filter((id: string) => id.startsWith('f'))).toEqual([]);
  });

  test('a user 3.9 km away at latitude 89.9 is found (item 10)', async () => {
    expect((await track('polar', 89.9, 20)).status).toBe(200);
    expect((await track('polar-far', 89.0, 0)).status).toBe(200);
    const r = await server.request('GET', '/v1/search/users', { key: server.keys.testSk, query: { near: '89.9,0', radius: 5000 } });
    expect(r.status).toBe(200);
    expect(r.body.users.map((u: { userId: string }) => u.userId)).toEqual(['polar']);
  });

  test('across the pole and the antimeridian', async () => {
    expect((await track('other-side', 89.99, -170)).status).toBe(200);
    const r = await server.request('GET', '/v1/search/users', { key: server.keys.testSk, query: { near: '89.99,10', radius: 5000 } });
    expect(r.body.users.map((u: { userId: string }) => u.userId)).toContain('other-side');
    expect(haversineMeters([10, 89.99], [-170, 89.99])).toBeLessThan(5000);
  });

  test('the radius is on the sphere like the rest: 999 m in, 1,001 m out', async () => {
    const metres = (m: number) => m / (Math.PI / 180 * 6371000);
    expect((await track('in-999', 0 + metres(999), 100)).status).toBe(200);
    expect((await track('out-1001', 0 - metres(1001), 100)).status).toBe(200);
    const r = await server.request('GET', '/v1/search/users', { key: server.keys.testSk, query: { near: '0,100', radius: 1000 } });
    expect(r.body.users.map((u: { userId: string }) => u.userId)).toEqual(['in-999']);
  });

  test('past 20,000 candidates the nearest users are still returned', async () => {
    const store = server.running.gateway.adapters.store;
    const scope = { projectId: server.keys.id, live: false };
    expect((await track('template', 30, 30)).status).toBe(200);
    const template = (await store.findOne(USERS, scope, { userId: 'template' }))!;
    // 20,500 users on the southern half of a ring 900 m from the search point (lower latitudes: a lat/lng
    // index meets them first), then the nearest one, north of the point.
    const docs: UserDoc[] = [];
    for (let i = 0; i < 20_500; i++) {
      const angle = Math.PI + (Math.PI * (i + 0.5)) / 20_500;
      const coordinates: [number, number] = [50 + (0.0081 * Math.cos(angle)) / Math.cos((50 * Math.PI) / 180), 50 + 0.0081 * Math.sin(angle)];
      docs.push({ ...template, _id: `crowd${String(i).padStart(19, '0')}`, userId: `crowd-${i}`, deviceId: `crowd-${i}`, location: { type: 'Point', coordinates } });
    }
    for (let i = 0; i < docs.length; i += 2000) await store.write(docs.slice(i, i + 2000).map((doc) => (put(USERS, scope, doc))));
    expect((await track('nearest', 50.0001, 50)).status).toBe(200);
    const r = await server.request('GET', '/v1/search/users', { key: server.keys.testSk, query: { near: '50,50', radius: 1000, limit: 5 } });
    expect(r.status).toBe(200);
    expect(r.body.users[0]).toMatchObject({ userId: 'nearest' });
  }, 60_000);
});

describe('the geofence index across the antimeridian (item 4)', () => {
  test('fences in both boxes are returned once each', () => {
    const index = new GeofenceIndex();
    const fences = Array.from({ length: 3000 }, (_, i) => ({
      _id: `g${i}`, tag: 't', externalId: `e${i}`, description: 'd', type: 'polygon' as const, enabled: true,
      geometryCenter: { type: 'Point' as const, coordinates: [0, 0] as [number, number] }, geometryRadius: 0,
      // Each spans nearly all longitudes, so it lies in both halves of a search split at ±180.
      geometry: { type: 'Polygon' as const, coordinates: [[[-179.9, 0], [179.9, 0], [179.9, 1], [-179.9, 1], [-179.9, 0]] as Array<[number, number]>] },
    }));
    index.load(fences as never);
    const found = index.nearPrepared([179.95, 0.5], 20_000);
    expect(found.length).toBe(3000);
    expect(new Set(found).size).toBe(3000);
  });
});
