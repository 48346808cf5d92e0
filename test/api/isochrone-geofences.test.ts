// Isochrone geofences over HTTP on a real server with Monaco imported: the area reachable in the minutes
// by the mode, as a polygon; longer times and faster modes reach further; track enters it as a polygon;
// CSV rows make them too; a centre no network reaches, and bad input, are refused naming the parameter.
import path from 'node:path';
import { OSM, fixturesPresent, serverWithExtracts } from '../routing/support';
import type { TestServer } from '../support/server';

const present = fixturesPresent('isochrone geofences', path.join(OSM, 'monaco-osrm.osm.pbf'));
const CASINO: [number, number] = [7.4277, 43.7392];

function inside([x, y]: [number, number], ring: Array<[number, number]>): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function area(ring: Array<[number, number]>): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(s / 2);
}

(present ? describe : describe.skip)('isochrone geofences', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithExtracts({ monaco: 'monaco-osrm.osm.pbf' });
  }, 300_000);
  afterAll(() => server?.close());

  const put = (externalId: string, body: Record<string, unknown>) =>
    server.request('PUT', `/v1/geofences/iso/${externalId}`, { key: server.keys.testSk, body: { description: `iso ${externalId}`, type: 'isochrone', ...body } });

  test('a 5-minute drive from the casino is a closed polygon around it, with the centre and minutes kept', async () => {
    const res = await put('car5', { coordinates: CASINO, radius: 5, mode: 'car' });
    expect(res.status).toBe(200);
    const g = res.body.geofence;
    expect(g.type).toBe('isochrone');
    expect(g.mode).toBe('car');
    expect(g.geometryCenter.coordinates).toEqual(CASINO);
    expect(g.geometryRadius).toBe(5);
    const ring = g.geometry.coordinates[0] as Array<[number, number]>;
    expect(g.geometry.type).toBe('Polygon');
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(inside(CASINO, ring)).toBe(true);
  });

  test('ten minutes reach further than five, and a car further than a walker', async () => {
    const car5 = (await put('car5b', { coordinates: CASINO, radius: 5, mode: 'car' })).body.geofence.geometry.coordinates[0];
    const car10 = (await put('car10', { coordinates: CASINO, radius: 10, mode: 'car' })).body.geofence.geometry.coordinates[0];
    const foot5 = (await put('foot5', { coordinates: CASINO, radius: 5, mode: 'foot' })).body.geofence.geometry.coordinates[0];
    expect(area(car10)).toBeGreaterThan(area(car5));
    expect(area(car5)).toBeGreaterThan(area(foot5) * 2);
    // A 5-minute walk (about 400 m) stays near the casino: nothing 1.5 km away is in it.
    expect(inside([CASINO[0] + 0.019, CASINO[1]], foot5)).toBe(false);
  });

  test('track enters an isochrone as a polygon', async () => {
    await put('walk3', { coordinates: CASINO, radius: 3, mode: 'foot' });
    const near = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'iso-d', userId: 'iso-u', latitude: 43.7388, longitude: 7.4282, accuracy: 5 } });
    expect(near.status).toBe(200);
    const entered = near.body.events.filter((e: { type: string; geofence?: { externalId: string } }) => e.type === 'user.entered_geofence').map((e: { geofence: { externalId: string } }) => e.geofence.externalId);
    expect(entered).toContain('walk3');
  });

  test('a CSV row makes an isochrone too', async () => {
    const csv = `description,tag,externalId,type,radius,mode,coordinates\nFrom the casino,isocsv,1,isochrone,4,car,"[${CASINO[0]},${CASINO[1]}]"\n`;
    const res = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk, 'content-type': 'text/csv' }, body: csv });
    const body = (await res.json()) as { import?: { created: number; errors: unknown[] } };
    expect([res.status, body.import?.created, body.import?.errors]).toEqual([200, 1, []]);
    const g = await server.request('GET', '/v1/geofences/isocsv/1', { key: server.keys.testSk });
    expect(g.body.geofence.geometry.type).toBe('Polygon');
    expect(g.body.geofence.geometry.coordinates[0].length).toBeGreaterThan(4);
  });

  test.each([
    ['a centre no imported network reaches', { coordinates: [0, 0], radius: 5, mode: 'car' }, 'coordinates'],
    ['radius 0', { coordinates: CASINO, radius: 0, mode: 'car' }, 'radius'],
    ['radius over an hour', { coordinates: CASINO, radius: 61, mode: 'car' }, 'radius'],
    ['no mode', { coordinates: CASINO, radius: 5 }, 'mode'],
    ['an unknown mode', { coordinates: CASINO, radius: 5, mode: 'rocket' }, 'mode'],
    ['no radius', { coordinates: CASINO, mode: 'car' }, 'radius'],
  ])('%s answers 400 naming the parameter and stores nothing', async (_name, body, param) => {
    const res = await put('bad', body);
    expect([res.status, res.body.meta.param]).toEqual([400, param]);
    const after = await server.request('GET', '/v1/geofences/iso/bad', { key: server.keys.testSk });
    expect(after.status).toBe(404);
  });
});
