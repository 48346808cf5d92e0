// The geocoding stage and endpoints on a small town written here, where every case is known:
// admin boundaries giving an address without addr:city its city and state, an interpolation way,
// numbers between known ones, a POI, two buildings with the same address (validation: ambiguous) and
// a building with units (unit:missing / unit:invalid).
import Database from 'better-sqlite3';
import path from 'node:path';
import { removeExtract } from '../../core/formats/extract-folders';
import { stageDir } from '../../core/formats/extract-layout';
import { INDEX_FILE } from '../../core/formats/geocoding-index';
import { importGeocoding, type OsmElement } from '../support/geocoding-extracts';

import { startTestServer, tempDataDir, type TestServer } from '../support/server';

// Springfield, Illinois: a square town inside a square state, Main Street running east.
const W = -89.7;
const E = -89.6;
const S = 39.76;
const N = 39.84;
const node = (id: number, lon: number, lat: number, tags?: Record<string, string>): OsmElement => ({ type: 'node', id, lon, lat, tags });
const way = (id: number, nodes: number[], tags: Record<string, string> = {}): OsmElement => ({ type: 'way', id, nodes, tags });
const addr = (number: string, street: string, extra: Record<string, string> = {}) => ({ 'addr:housenumber': number, 'addr:street': street, 'addr:postcode': '62701', ...extra });

const ELEMENTS: OsmElement[] = [
  // Town boundary in two ways (joined end to end), state boundary in one closed way.
  node(1, W, S), node(2, E, S), node(3, E, N), node(4, W, N),
  node(5, -91, 37), node(6, -87, 37), node(7, -87, 42), node(8, -91, 42),
  // Main Street, its numbers 1 and 11 (ends of an odd interpolation), 21 and 41 (known numbers), a POI.
  node(10, -89.66, 39.8), node(11, -89.64, 39.8),
  node(12, -89.66, 39.8001, addr('1', 'Main Street')),
  node(13, -89.65, 39.8001, addr('11', 'Main Street')),
  node(14, -89.645, 39.8001, addr('21', 'Main Street')),
  node(15, -89.643, 39.8001, addr('41', 'Main Street')),
  node(16, -89.655, 39.801, { name: 'Springfield Town Hall', amenity: 'townhall' }),
  // Two buildings "10 Main Street" in two postal codes; units at 20 Oak Avenue.
  node(20, -89.661, 39.7995, addr('10', 'Main Street')),
  node(21, -89.641, 39.7995, addr('10', 'Main Street', { 'addr:postcode': '62702' })),
  node(22, -89.65, 39.79, addr('20', 'Oak Avenue', { 'addr:unit': '2' })),
  node(23, -89.65, 39.79, addr('20', 'Oak Avenue', { 'addr:unit': '3' })),
  way(100, [1, 2, 3]), way(101, [3, 4, 1]), way(102, [5, 6, 7, 8, 5]),
  way(103, [10, 11], { highway: 'residential', name: 'Main Street' }),
  way(104, [12, 13], { 'addr:interpolation': 'odd' }),
  { type: 'relation', id: 200, members: [{ type: 'way', ref: 100, role: 'outer' }, { type: 'way', ref: 101, role: 'outer' }], tags: { boundary: 'administrative', admin_level: '8', name: 'Springfield' } },
  { type: 'relation', id: 201, members: [{ type: 'way', ref: 102, role: 'outer' }], tags: { boundary: 'administrative', admin_level: '4', name: 'Illinois', 'ISO3166-2': 'US-IL' } },
];

let server: TestServer;
let summary: Record<string, number | string>;
const dataDir = tempDataDir();

beforeAll(async () => {
  summary = await importGeocoding(dataDir, 'springfield', ELEMENTS);
  server = await startTestServer({ dataDir });
});
afterAll(async () => server?.close());

const get = async (p: string, query: Record<string, string>) => server.request('GET', p, { key: server.keys.testPk, query });

test('the stage counts what it indexed', () => {
  expect(summary).toMatchObject({ addresses: 8, interpolations: 1, boundaries: 2, openBoundaries: 0 });
  expect(summary.places).toBeGreaterThanOrEqual(1);
});

test('boundaries give an address without addr:city its city and state', () => {
  const db = new Database(path.join(stageDir(dataDir, 'springfield', 'geocoding'), INDEX_FILE), { readonly: true });
  const row = db.prepare("SELECT city, state, state_code, country_code FROM addresses WHERE number = '1'").get();
  db.close();
  expect(row).toEqual({ city: 'Springfield', state: 'Illinois', state_code: 'IL', country_code: 'US' });
});

test('forward: exact, along an interpolation way, between known numbers, and the street as fallback', async () => {
  const exact = await get('/v1/geocode/forward', { query: '21 Main St, Springfield, IL 62701' });
  expect(exact.body.addresses[0]).toMatchObject({ number: '21', street: 'Main Street', city: 'Springfield', stateCode: 'IL', confidence: 'exact', layer: 'address' });

  const onLine = await get('/v1/geocode/forward', { query: '5 Main Street Springfield' });
  expect(onLine.body.addresses[0]).toMatchObject({ number: '5', confidence: 'interpolated' });
  // 5 is 2/5 of the way from 1 to 11.
  expect(onLine.body.addresses[0].longitude).toBeCloseTo(-89.656, 4);

  const between = await get('/v1/geocode/forward', { query: '31 Main Street Springfield' });
  expect(between.body.addresses[0]).toMatchObject({ number: '31', confidence: 'interpolated' });
  expect(between.body.addresses[0].longitude).toBeCloseTo(-89.644, 4);

  const street = await get('/v1/geocode/forward', { query: '9999 Main Street Springfield' });
  expect(street.body.addresses[0]).toMatchObject({ street: 'Main Street', confidence: 'fallback' });
  expect(street.body.addresses[0].number).toBeUndefined();
});

test('places answer the place layer only when asked', async () => {
  const asked = await get('/v1/geocode/forward', { query: 'Springfield Town Hall', layers: 'place' });
  expect(asked.body.addresses[0]).toMatchObject({ layer: 'place', placeLabel: 'Springfield Town Hall', city: 'Springfield' });
  const byDefault = await get('/v1/geocode/forward', { query: 'Springfield Town Hall' });
  expect(byDefault.body.addresses.every((a: { layer: string }) => a.layer !== 'place')).toBe(true);
});

test('reverse: the nearest address with its distance', async () => {
  const r = await get('/v1/geocode/reverse', { coordinates: '39.8002,-89.645' });
  expect(r.body.addresses[0]).toMatchObject({ number: '21', street: 'Main Street', layer: 'address' });
  expect(r.body.addresses[0].distance).toBeGreaterThan(5);
  expect(r.body.addresses[0].distance).toBeLessThan(20);
});

describe('address validation', () => {
  const base = { countryCode: 'US', stateCode: 'IL', city: 'Springfield', postalCode: '62701' };
  test.each([
    ['verified', { number: '21', street: 'Main St' }, undefined],
    ['partially verified', { number: '31', street: 'Main Street' }, undefined],
    ['ambiguous', { number: '10', street: 'Main Street' }, undefined],
    ['partially verified', { number: '20', street: 'Oak Avenue' }, ['unit:missing']],
    ['partially verified', { number: '20', street: 'Oak Avenue', unit: '9' }, ['unit:invalid']],
    ['verified', { number: '20', street: 'Oak Avenue', unit: '3' }, undefined],
  ])('%s: %j', async (status, fields, analysis) => {
    const r = await get('/v1/addresses/validate', { ...base, ...fields });
    expect(r.status).toBe(200);
    expect(r.body.result.verificationStatus).toBe(status);
    expect(r.body.result.analysis).toEqual(analysis);
    expect(r.body.address).toMatchObject({ city: 'SPRINGFIELD', stateCode: 'IL', countryCode: 'US', metadata: { recordType: expect.any(String) } });
  });

  test('unverified when nothing matches and the ZIP is in another state', async () => {
    const r = await get('/v1/addresses/validate', { ...base, postalCode: '10001', number: '5', street: 'Nowhere Road' });
    expect(r.body.result.verificationStatus).toBe('unverified');
  });

  test('ZIP+4 is echoed, units make a high-rise record', async () => {
    const r = await get('/v1/addresses/validate', { ...base, postalCode: '62701-1234', number: '20', street: 'Oak Avenue', unit: '3' });
    expect(r.body.address).toMatchObject({ plus4: '1234', unit: '3', addressLabel: '20 OAK AVENUE 3', metadata: { recordType: 'H' } });
    expect(r.body.address.formattedAddress).toBe('20 OAK AVENUE 3, SPRINGFIELD, IL 62701-1234 US');
  });
});

describe('geofences given an address', () => {
  const body = { description: 'Corner', type: 'circle', radius: 100, tag: 'store' };
  const post = (extra: Record<string, unknown>) => server.request('POST', '/v1/geofences', { key: server.keys.testSk, body: { ...body, ...extra } });

  test('address alone: the geofence is centred on the geocoded address', async () => {
    const r = await post({ externalId: 'a', address: '21 Main Street, Springfield, IL 62701' });
    expect(r.status).toBe(200);
    expect(r.body.geofence.geometryCenter.coordinates).toEqual([-89.645, 39.8001]);
  });

  test('address and coordinates nearby: coordinates win', async () => {
    const r = await post({ externalId: 'b', address: '21 Main Street, Springfield', coordinates: [-89.6455, 39.8004] });
    expect(r.status).toBe(200);
    expect(r.body.geofence.geometryCenter.coordinates).toEqual([-89.6455, 39.8004]);
  });

  test('address and coordinates far apart: 400 on address, nothing written', async () => {
    const r = await post({ externalId: 'c', address: '21 Main Street, Springfield', coordinates: [-89.5, 39.8] });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('address');
    expect(r.body.meta.message).toMatch(/within 1000 m/);
    const got = await server.request('GET', '/v1/geofences/store/c', { key: server.keys.testSk });
    expect(got.status).toBe(404);
  });

  test('CSV rows given an address are geocoded; far coordinates are a row error and nothing is written', async () => {
    const upload = (text: string) => server.request('POST', '/v1/geofences/import', { key: server.keys.testSk, raw: { contentType: 'text/csv', text } });
    const header = 'description,type,tag,externalId,coordinates,address,radius';
    const bad = await upload([header, 'A,circle,csv,1,,"21 Main Street, Springfield IL",100', 'B,circle,csv,2,"[-89.5,39.8]","21 Main Street, Springfield",100'].join('\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.import.errors).toEqual([{ row: 3, column: 'address', message: expect.stringMatching(/within 1000 m/) }]);
    const good = await upload([header, 'A,circle,csv,1,,"21 Main Street, Springfield IL",100', 'B,circle,csv,2,"[-89.6452,39.8003]","21 Main Street, Springfield",100'].join('\n'));
    expect(good.status).toBe(200);
    const a = await server.request('GET', '/v1/geofences/csv/1', { key: server.keys.testSk });
    expect(a.body.geofence.geometryCenter.coordinates).toEqual([-89.645, 39.8001]);
    const b = await server.request('GET', '/v1/geofences/csv/2', { key: server.keys.testSk });
    expect(b.body.geofence.geometryCenter.coordinates).toEqual([-89.6452, 39.8003]);
  });

  test('an address only found as far as its street is no centre: 400 on address', async () => {
    const r = await post({ externalId: 'e', address: '9999 Main Street, Springfield' });
    expect(r.status).toBe(400);
    expect(r.body.meta.message).toMatch(/only as far as "Main Street/);
  });

  test('an address nobody knows, without coordinates: 400 on address', async () => {
    const r = await post({ externalId: 'd', address: '12 Qwxyz Lane, Nowheresville' });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('address');
  });
});

test('a running gateway picks up an extract imported or removed while it serves', async () => {
  const live = await startTestServer({ extracts: { reloadCheckMs: 0 } });
  try {
    const ask = async () => (await live.request('GET', '/v1/geocode/forward', { key: live.keys.testPk, query: { query: '21 Main Street, Springfield, IL', layers: 'address' } })).body.addresses;
    expect(await ask()).toEqual([]);
    await importGeocoding(live.dataDir, 'springfield', ELEMENTS);
    expect((await ask())[0]).toMatchObject({ number: '21', confidence: 'exact' });
    removeExtract(live.dataDir, 'springfield');
    expect(await ask()).toEqual([]);
  } finally {
    await live.close();
  }
});
