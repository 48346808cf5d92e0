// The geocoding endpoints on a fresh install (no extract imported): the bundled coarse data answers
// cities, states, postal codes and countries; the answers have the shapes of Radar's SDK fixtures;
// every parameter refuses bad input with a 400 naming it.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { announceSkip, files } from '../support/requires';

const RADAR = path.resolve(__dirname, '../../../shared/fixtures/radar');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const get = (p: string, query: Record<string, string>) => server.request('GET', p, { key: server.keys.testPk, query });

describe('bundled coarse data', () => {
  test.each([
    ['Paris', { layer: 'locality', city: 'Paris', countryCode: 'FR', country: 'France', countryFlag: '🇫🇷' }],
    ['Ontario', { layer: 'state', state: 'Ontario', stateCode: 'ON', countryCode: 'CA' }],
    ['10001', { layer: 'postalCode', postalCode: '10001', city: 'New York', stateCode: 'NY', countryCode: 'US' }],
    ['M5V', { layer: 'postalCode', postalCode: 'M5V', stateCode: 'ON', countryCode: 'CA' }],
    ['Baltimore, MD', { layer: 'locality', city: 'Baltimore', stateCode: 'MD', state: 'Maryland' }],
    ['Liechtenstein', { layer: 'country', countryCode: 'LI', country: 'Liechtenstein' }],
  ])('%s', async (query, expected) => {
    const r = await get('/v1/geocode/forward', { query });
    expect(r.status).toBe(200);
    expect(r.body.addresses[0]).toMatchObject({ ...expected, confidence: 'exact' });
  });

  test('an address whose street is unknown falls back to its town', async () => {
    const r = await get('/v1/geocode/forward', { query: '12 Nowhere Lane, Baltimore, MD' });
    expect(r.body.addresses[0]).toMatchObject({ layer: 'locality', city: 'Baltimore', confidence: 'fallback' });
  });

  test('reverse without an imported extract answers the town around the point', async () => {
    const r = await get('/v1/geocode/reverse', { coordinates: '48.8566,2.3522' });
    expect(r.body.addresses[0]).toMatchObject({ layer: 'locality', city: 'Paris', countryCode: 'FR' });
    expect(r.body.addresses[0].distance).toBeGreaterThanOrEqual(0);
  });

  test('autocomplete completes a city name and measures distance from near', async () => {
    const r = await get('/v1/search/autocomplete', { query: 'Vadu', near: '47.14,9.52', limit: '3' });
    expect(r.body.addresses.length).toBeLessThanOrEqual(3);
    expect(r.body.addresses[0]).toMatchObject({ city: 'Vaduz', countryCode: 'LI', layer: 'locality' });
    expect(r.body.addresses[0].distance).toBeLessThan(5000);
  });
});

describe('filters', () => {
  test('country keeps answers in the listed countries', async () => {
    const r = await get('/v1/geocode/forward', { query: 'Paris', country: 'US,CA' });
    expect(r.body.addresses.length).toBeGreaterThan(1);
    for (const a of r.body.addresses) expect(['US', 'CA']).toContain(a.countryCode);
  });

  test('layers: only the asked layers, coarse and fine expanded', async () => {
    expect((await get('/v1/geocode/forward', { query: 'Paris', layers: 'postalCode' })).body.addresses).toEqual([]);
    expect((await get('/v1/geocode/forward', { query: 'Paris', layers: 'fine' })).body.addresses).toEqual([]);
    const coarse = await get('/v1/geocode/forward', { query: 'Paris', layers: 'coarse' });
    expect(coarse.body.addresses[0].layer).toBe('locality');
    const country = await get('/v1/geocode/forward', { query: 'France', layers: 'country' });
    expect(country.body.addresses.map((a: { layer: string }) => a.layer)).toEqual(['country']);
    const reverse = await get('/v1/geocode/reverse', { coordinates: '48.8566,2.3522', layers: 'country' });
    expect(reverse.body.addresses[0]).toMatchObject({ layer: 'country', countryCode: 'FR' });
  });

  test('autocomplete countryCode and limit', async () => {
    const r = await get('/v1/search/autocomplete', { query: 'San', countryCode: 'MX', limit: '4' });
    expect(r.body.addresses).toHaveLength(4);
    for (const a of r.body.addresses) expect(a.countryCode).toBe('MX');
  });

  test('lang is accepted from the spec list', async () => {
    for (const lang of ['en', 'de', 'ja']) expect((await get('/v1/geocode/forward', { query: 'Paris', lang })).status).toBe(200);
  });
});

describe("Radar's SDK fixture shapes", () => {
  const fixture = (p: string) => JSON.parse(fs.readFileSync(path.join(RADAR, p), 'utf8'));
  const present = fs.existsSync(RADAR);
  if (!present) announceSkip('geocoding endpoints: SDK shape checks', files(RADAR));
  const maybe = present ? test : test.skip;

  /** Every field both have is of the same JSON type, recursively; `required` fields are present. */
  function sameShape(ours: Record<string, unknown>, theirs: Record<string, unknown>, where: string): void {
    for (const [k, v] of Object.entries(theirs)) {
      if (!(k in ours)) continue;
      const o = ours[k];
      expect(`${where}.${k}:${Array.isArray(o) ? 'array' : typeof o}`).toBe(`${where}.${k}:${Array.isArray(v) ? 'array' : typeof v}`);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) sameShape(o as Record<string, unknown>, v as Record<string, unknown>, `${where}.${k}`);
    }
  }

  maybe.each(['android/geocode.json', 'ios/geocode.json', 'docs-api/geocoding-forward-geocode.json'])('forward and reverse answer like %s', async (file) => {
    const f = fixture(file);
    const theirs = (f.responses?.[0] ?? f).addresses[0];
    for (const r of [await get('/v1/geocode/forward', { query: '10001' }), await get('/v1/geocode/reverse', { coordinates: '40.7484,-73.9967', layers: 'postalCode' })]) {
      expect(r.body.meta).toEqual({ code: 200 });
      const ours = r.body.addresses[0];
      for (const k of ['latitude', 'longitude', 'geometry', 'country', 'countryCode', 'countryFlag', 'state', 'stateCode', 'postalCode', 'formattedAddress', 'layer']) expect(ours).toHaveProperty(k);
      sameShape(ours, theirs, 'address');
      expect(Object.keys(ours.timeZone).sort()).toEqual(['code', 'currentTime', 'dstOffset', 'id', 'name', 'utcOffset']);
    }
  });

  maybe.each(['android/search_autocomplete.json', 'ios/search_autocomplete.json', 'docs-api/search-autocomplete.json'])('autocomplete answers like %s', async (file) => {
    const f = fixture(file);
    const theirs = (f.responses?.[0] ?? f).addresses[0];
    const r = await get('/v1/search/autocomplete', { query: 'Brookl', near: '40.7039,-73.9867' });
    const ours = r.body.addresses[0];
    expect(ours).toMatchObject({ city: 'Brooklyn', countryCode: 'US' });
    sameShape(ours, theirs, 'address');
    expect(typeof ours.distance).toBe('number');
  });
});

test('the autocomplete widget click report is acknowledged', async () => {
  const r = await server.request('POST', '/v1/search/autocomplete/click', { key: server.keys.testPk, body: { query: 'Brookl', selectedIndex: 0 } });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ meta: { code: 200 } });
});

test('a key is required', async () => {
  const r = await server.request('GET', '/v1/geocode/forward', { query: { query: 'Paris' } });
  expect(r.status).toBe(401);
});

describe('bad input: 400 naming the parameter', () => {
  const long = 'x'.repeat(600);
  const V = { countryCode: 'US', stateCode: 'MD', city: 'Baltimore', postalCode: '21205', number: '615', street: 'N Wolfe St' };
  const without = (k: keyof typeof V) => Object.fromEntries(Object.entries(V).filter(([key]) => key !== k));
  test.each([
    ['/v1/geocode/forward', {}, 'query'],
    ['/v1/geocode/forward', { query: '  ' }, 'query'],
    ['/v1/geocode/forward', { query: long }, 'query'],
    ['/v1/geocode/forward', { query: 'a\u0000b' }, 'query'],
    ['/v1/geocode/forward', { query: 'Paris', layers: 'city' }, 'layers'],
    ['/v1/geocode/forward', { query: 'Paris', layers: ',,' }, undefined],
    ['/v1/geocode/forward', { query: 'Paris', country: 'USA' }, 'country'],
    ['/v1/geocode/forward', { query: 'Paris', country: 'U1' }, 'country'],
    ['/v1/geocode/forward', { query: 'Paris', lang: 'xx' }, 'lang'],
    ['/v1/geocode/reverse', {}, 'coordinates'],
    ['/v1/geocode/reverse', { coordinates: 'abc' }, 'coordinates'],
    ['/v1/geocode/reverse', { coordinates: '91,0' }, 'coordinates'],
    ['/v1/geocode/reverse', { coordinates: '0,181' }, 'coordinates'],
    ['/v1/geocode/reverse', { coordinates: '1e400,0' }, 'coordinates'],
    ['/v1/geocode/reverse', { coordinates: '40,-73', layers: 'street' }, 'layers'],
    ['/v1/geocode/reverse', { coordinates: '40,-73', lang: 'klingon' }, 'lang'],
    ['/v1/search/autocomplete', {}, 'query'],
    ['/v1/search/autocomplete', { query: 'a', near: '40' }, 'near'],
    ['/v1/search/autocomplete', { query: 'a', limit: '0' }, 'limit'],
    ['/v1/search/autocomplete', { query: 'a', limit: '101' }, 'limit'],
    ['/v1/search/autocomplete', { query: 'a', limit: '1.5' }, 'limit'],
    ['/v1/search/autocomplete', { query: 'a', limit: 'ten' }, 'limit'],
    ['/v1/search/autocomplete', { query: 'a', countryCode: 'X' }, 'countryCode'],
    ['/v1/search/autocomplete', { query: 'a', layers: 'everything' }, 'layers'],
    ['/v1/search/autocomplete', { query: 'a', lang: 'EN-us' }, 'lang'],
    ['/v1/addresses/validate', without('countryCode'), 'countryCode'],
    ['/v1/addresses/validate', { ...V, countryCode: 'FR' }, 'countryCode'],
    ['/v1/addresses/validate', without('stateCode'), 'stateCode'],
    ['/v1/addresses/validate', { ...V, stateCode: 'Maryland' }, 'stateCode'],
    ['/v1/addresses/validate', without('city'), 'city'],
    ['/v1/addresses/validate', without('postalCode'), 'postalCode'],
    ['/v1/addresses/validate', { ...V, postalCode: '2120' }, 'postalCode'],
    ['/v1/addresses/validate', { ...V, countryCode: 'CA', stateCode: 'ON', postalCode: '21205' }, 'postalCode'],
    ['/v1/addresses/validate', without('number'), 'number'],
    ['/v1/addresses/validate', without('street'), 'street'],
    ['/v1/addresses/validate', { ...V, unit: long }, 'unit'],
    ['/v1/addresses/validate', { ...V, addressLabel: long }, 'addressLabel'],
  ])('%s %j → %s', async (p, query, param) => {
    const r = await get(p, query as Record<string, string>);
    if (param === undefined) {
      expect(r.status).toBe(200);
      return;
    }
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ code: 400, param });
    expect(typeof r.body.meta.message).toBe('string');
  });

  test('click report with a bad index', async () => {
    const r = await server.request('POST', '/v1/search/autocomplete/click', { key: server.keys.testPk, body: { selectedIndex: -1 } });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('selectedIndex');
  });

  test('validation with addressLabel instead of number and street', async () => {
    const r = await get('/v1/addresses/validate', { ...without('number'), street: '', addressLabel: '615 N Wolfe St' });
    expect(r.status).toBe(200);
    // No extract imported: the ZIP, town and state agree, the building cannot be checked.
    expect(r.body.result.verificationStatus).toBe('partially verified');
  });
});
