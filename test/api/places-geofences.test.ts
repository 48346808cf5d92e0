// Geofences made from a place (placeId) through PUT, POST and the CSV import: they take the place's
// outline (else a category-sized circle) and centre, an unknown placeId needs coordinates, and after
// the extract is imported again the geofence follows the place.
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { writePlacesExtract } from '../support/places-extract';
import { MCDONALDS, STARBUCKS, neighbourhood } from '../support/places-neighbourhood';
import { placeIdOf } from '../../core/formats/places/places-file';

let s: TestServer;
const STARBUCKS_ID = placeIdOf('n', 1);
const MCDONALDS_ID = placeIdOf('n', 2);

beforeAll(async () => {
  const dataDir = tempDataDir();
  await writePlacesExtract(dataDir, 'les', neighbourhood());
  s = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0 } });
}, 60_000);
afterAll(async () => {
  await s.close();
});

const put = (externalId: string, body: Record<string, unknown>) => s.request('PUT', `/v1/geofences/places/${externalId}`, { key: s.keys.testSk, body });

test('PUT with the placeId of a place with an outline: a polygon of that outline, centred on the place', async () => {
  const r = await put('sbux', { description: 'Our Starbucks', type: 'circle', radius: 100, placeId: STARBUCKS_ID });
  expect(r.status).toBe(200);
  const g = r.body.geofence;
  expect(g).toMatchObject({ type: 'polygon', placeId: STARBUCKS_ID, geometryCenter: { type: 'Point', coordinates: STARBUCKS } });
  expect(g.geometry.type).toBe('Polygon');
  expect(g.geometry.coordinates[0]).toHaveLength(5);
  // The 24 m building: its corners are ~17 m from the centre.
  expect(g.geometryRadius).toBeGreaterThan(15);
  expect(g.geometryRadius).toBeLessThan(19);
});

test('POST with the placeId of a place without an outline: a circle round it; the place beats coordinates', async () => {
  const r = await s.request('POST', '/v1/geofences', {
    key: s.keys.testSk, body: { tag: 'places', externalId: 'mcd', description: 'McD', type: 'circle', radius: 500, placeId: MCDONALDS_ID, coordinates: [-74.0, 40.0] },
  });
  expect(r.status).toBe(200);
  expect(r.body.geofence).toMatchObject({ type: 'circle', geometryRadius: 25, geometryCenter: { coordinates: MCDONALDS }, placeId: MCDONALDS_ID });
});

test('an unknown placeId needs coordinates; with them it is kept as given', async () => {
  const bad = await put('unknown', { description: 'x', type: 'circle', radius: 50, placeId: 'ffffffffffffffffffffffff' });
  expect(bad.status).toBe(400);
  expect(bad.body.meta).toMatchObject({ param: 'placeId', message: 'placeId "ffffffffffffffffffffffff" is not a known place (imported extracts); give coordinates as well' });
  const ok = await put('unknown', { description: 'x', type: 'circle', radius: 50, placeId: 'ffffffffffffffffffffffff', coordinates: [-73.99, 40.72] });
  expect(ok.status).toBe(200);
  expect(ok.body.geofence).toMatchObject({ type: 'circle', geometryRadius: 50, placeId: 'ffffffffffffffffffffffff', geometryCenter: { coordinates: [-73.99, 40.72] } });
});

test('CSV import: rows with only a placeId take the place', async () => {
  const csv = `description,type,tag,externalId,placeId\nStarbucks,circle,csv,s1,${STARBUCKS_ID}\nMcD,circle,csv,m1,${MCDONALDS_ID}\n`;
  const r = await s.request('POST', '/v1/geofences/import', { key: s.keys.testSk, raw: { contentType: 'text/csv', text: csv } });
  expect(r.status).toBe(200);
  const list = await s.request('GET', '/v1/geofences', { key: s.keys.testSk, query: { tag: 'csv' } });
  const byId = Object.fromEntries(list.body.geofences.map((g: any) => [g.externalId, g]));
  expect(byId.s1).toMatchObject({ type: 'polygon', geometryCenter: { coordinates: STARBUCKS } });
  expect(byId.m1).toMatchObject({ type: 'circle', geometryRadius: 25, geometryCenter: { coordinates: MCDONALDS } });
});

test('a re-import that moves the place moves its geofences', async () => {
  const moved: [number, number] = [MCDONALDS[0] + 0.001, MCDONALDS[1]];
  const entities = neighbourhood();
  const mcd = entities.nodes.find((n) => n.id === 2)!;
  mcd.at = moved;
  await writePlacesExtract(s.dataDir, 'les', entities);
  // The next request sees the new extract (reloadCheckMs 0); the geofences follow in the background.
  expect((await s.request('GET', '/v1/search/places', { key: s.keys.testPk, query: { near: `${moved[1]},${moved[0]}`, chains: 'mcdonalds', radius: 10 } })).body.places).toHaveLength(1);
  // Each geofence is rewritten on its own: wait for both of this place's.
  const centers = async (): Promise<number[][]> => Promise.all(['places/mcd', 'csv/m1'].map(async (p) => (await s.request('GET', `/v1/geofences/${p}`, { key: s.keys.testSk })).body.geofence.geometryCenter.coordinates));
  let both = await centers();
  for (let i = 0; i < 100 && both.some((c) => c[0] !== moved[0]); i++) {
    await new Promise((r) => setTimeout(r, 20));
    both = await centers();
  }
  expect(both).toEqual([moved, moved]);
  // The Starbucks geofence did not change shape, so it was left alone.
  const sbux = await s.request('GET', '/v1/geofences/places/sbux', { key: s.keys.testSk });
  expect(sbux.body.geofence.geometryCenter.coordinates).toEqual(STARBUCKS);
});
