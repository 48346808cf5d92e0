// Several extracts imported side by side (Lower Manhattan and the Lower East Side, named so that the
// Lower East Side comes first): the extract whose roads lie nearest the points answers matching,
// routing and isochrones (issue 32 item 8), and a trip's ETA over the network is rounded as Radar's
// (item 9).
import path from 'node:path';
import { OSM, fixturesPresent, serverWithExtracts } from '../routing/support';
import { degenerateRing } from '../../core/isochrone/degenerate-ring';
import type { TestServer } from '../support/server';

const present = fixturesPresent('extract choice between adjacent extracts', path.join(OSM, 'us-ny-manhattan-les-valhalla.osm.pbf'), path.join(OSM, 'us-ny-nyc-lower-manhattan-valhalla.osm.pbf'));

/** Hudson Street, northbound, on the Lower Manhattan extract (OSM way 5670454's nodes). */
const HUDSON: Array<[number, number]> = [[40.730228, -74.006857], [40.731669, -74.006624], [40.733054, -74.006407], [40.734439, -74.006181], [40.735845, -74.00596]];
/** 99 m from a Lower Manhattan footway, 968 m from the Lower East Side's nearest one. */
const WEST_OF_SEAM: [number, number] = [40.728, -74.004];
/** Lower East Side's western edge (its extract's box). */
const LES_WEST = -73.9948;

(present ? describe : describe.skip)('extract choice between adjacent extracts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithExtracts({ 'lower-east-side': 'us-ny-manhattan-les-valhalla.osm.pbf', 'lower-manhattan': 'us-ny-nyc-lower-manhattan-valhalla.osm.pbf' });
  }, 300_000);
  afterAll(() => server?.close());

  test('POST /v1/route/match on Hudson Street matches on the Lower Manhattan extract', async () => {
    const start = Date.parse('2026-05-01T12:00:00Z');
    const res = await server.request('POST', '/v1/route/match', {
      key: server.keys.testPk,
      body: { mode: 'car', path: HUDSON.map(([lat, lng], i) => ({ coordinates: `${lat},${lng}`, createdAt: new Date(start + i * 20_000).toISOString() })) },
    });
    expect(res.status).toBe(200);
    const matched = res.body.matchedPath as Array<{ latitude: number; longitude: number; originalIndex: number }>;
    expect(matched.map((p) => p.originalIndex)).toEqual([0, 1, 2, 3, 4]);
    // On the street itself: each matched point within 15 m of its trace point.
    for (const p of matched) {
      const [lat, lng] = HUDSON[p.originalIndex];
      expect(Math.hypot((p.latitude - lat) * 111_195, (p.longitude - lng) * 84_300)).toBeLessThan(15);
    }
    // 629 m of Hudson Street in a straight line, in feet (imperial is the default).
    expect(res.body.distance.value).toBeGreaterThan(620 * 3.28);
    expect(res.body.distance.value).toBeLessThan(660 * 3.28);
  });

  test('a walk from west of the seam is routed on the extract whose footways are near, not the first by name', async () => {
    const res = await server.request('GET', '/v1/route/directions', {
      key: server.keys.testPk, query: { locations: `${WEST_OF_SEAM.join(',')}|40.726,-74.000`, mode: 'foot', geometry: 'linestring' },
    });
    expect(res.status).toBe(200);
    const route = res.body.routes[0];
    expect(route.estimate).toBeUndefined();
    const lngs = (route.geometry.coordinates as Array<[number, number]>).map(([lng]) => lng);
    expect(Math.max(...lngs)).toBeLessThan(LES_WEST);
  });

  test('an isochrone from west of the seam grows from the Lower Manhattan footway beside it', async () => {
    const res = await server.request('PUT', '/v1/geofences/iso/seam', {
      key: server.keys.testSk, body: { description: 'seam', type: 'isochrone', mode: 'foot', radius: 3, coordinates: [WEST_OF_SEAM[1], WEST_OF_SEAM[0]] },
    });
    expect(res.status).toBe(200);
    const ring = res.body.geofence.geometry.coordinates[0] as Array<[number, number]>;
    expect(degenerateRing(ring)).toBeUndefined();
    // Three minutes on foot (~250 m) from a footway 99 m away never reaches the Lower East Side, 700 m east.
    expect(Math.max(...ring.map(([lng]) => lng))).toBeLessThan(LES_WEST);
  });

  test('a trip\'s ETA over the network is in minutes to one decimal and whole metres', async () => {
    const dest = HUDSON[HUDSON.length - 1];
    const geofence = await server.request('PUT', '/v1/geofences/store/hudson', {
      key: server.keys.testSk, body: { description: 'Hudson', type: 'circle', coordinates: [dest[1], dest[0]], radius: 30 },
    });
    expect(geofence.status).toBe(200);
    const trip = await server.request('POST', '/v1/trips', {
      key: server.keys.testPk, body: { externalId: 'eta-1', userId: 'eta-user', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'hudson', mode: 'car', status: 'started' },
    });
    expect(trip.status).toBe(200);
    const tracked = await server.request('POST', '/v1/track', {
      key: server.keys.testPk, body: { userId: 'eta-user', deviceId: 'eta-device', latitude: HUDSON[0][0], longitude: HUDSON[0][1], accuracy: 5, foreground: true, tripOptions: { externalId: 'eta-1' } },
    });
    expect(tracked.status).toBe(200);
    const got = await server.request('GET', '/v1/trips/eta-1', { key: server.keys.testSk });
    const eta = got.body.trip.eta;
    expect(eta.duration).toBeGreaterThan(0);
    expect(eta.duration).toBe(Math.round(eta.duration * 10) / 10);
    expect(Number.isInteger(eta.distance)).toBe(true);
  });
});
