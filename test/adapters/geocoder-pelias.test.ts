// The Pelias adapter against recorded Pelias responses (fixtures/engines/pelias) replayed by a local
// HTTP server: requests carry the right parameters, features become Radar addresses, failures are
// errors (503 through the gateway), never wrong answers.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PeliasGeocoder } from '../../adapters/geocoder/pelias/pelias-geocoder';
import type { GeocodeLayer } from '../../ports/geocoder';
import { DEFAULT_LAYERS } from '../../server/http/params/geocoding';
import { startTestServer } from '../support/server';
import { announceSkip, files } from '../support/requires';

const PELIAS = path.resolve(__dirname, '../../../shared/fixtures/engines/pelias');
const present = fs.existsSync(PELIAS);
if (!present) announceSkip('Pelias adapter', files(PELIAS));
const maybe = present ? describe : describe.skip;

/** Path (with query) → [status, body file or raw text]. */
let replies: Array<{ match: RegExp; status: number; file?: string; text?: string; delayMs?: number }> = [];
const seen: URL[] = [];
let replay: http.Server;
let base: string;

beforeAll(async () => {
  replay = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    const reply = replies.find((r) => r.match.test(url.pathname + url.search));
    const send = () => {
      if (!reply) {
        res.writeHead(404).end('{}');
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.file !== undefined ? fs.readFileSync(path.join(PELIAS, reply.file)) : reply.text);
    };
    if (reply?.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(replay.address() as AddressInfo).port}/pelias`;
});
afterAll(async () => {
  replay.closeAllConnections();
  await new Promise((resolve) => replay.close(resolve));
});
beforeEach(() => {
  replies = [];
  seen.length = 0;
});

const ALL = new Set<GeocodeLayer>(['place', 'address', 'postalCode', 'locality', 'county', 'state', 'country']);

maybe('PeliasGeocoder', () => {
  const pelias = () => new PeliasGeocoder({ url: base, timeoutMs: 2000 });

  test('forward: /v1/search with text, size, layers, boundary.country and lang; an address with its match type', async () => {
    replies = [{ match: /\/v1\/search/, status: 200, file: 'geocode-earth/search_kalbacher_hauptstra_e_10_60437_frankfurt.json' }];
    const found = await pelias().forward({ query: 'Kalbacher Hauptstraße 10, 60437 Frankfurt', layers: DEFAULT_LAYERS, countries: ['DE'], lang: 'de', limit: 10 });
    const q = seen[0];
    expect(q.pathname).toBe('/pelias/v1/search');
    expect(q.searchParams.get('text')).toBe('Kalbacher Hauptstraße 10, 60437 Frankfurt');
    expect(q.searchParams.get('boundary.country')).toBe('DE');
    expect(q.searchParams.get('lang')).toBe('de');
    expect(q.searchParams.get('layers')?.split(',')).toEqual(expect.arrayContaining(['address', 'street', 'postalcode', 'locality', 'region', 'country']));
    expect(q.searchParams.get('layers')).not.toContain('venue');
    expect(found[0]).toMatchObject({
      layer: 'address', confidence: 'exact', number: '10', street: 'Kalbacher Hauptstraße', postalCode: '60437', countryCode: 'DE', country: 'Germany',
      countryFlag: '🇩🇪', addressLabel: 'Kalbacher Hauptstraße 10', state: 'Hesse',
    });
    expect(found[0].geometry.coordinates).toEqual([found[0].longitude, found[0].latitude]);
  });

  test('forward: venues become places with placeLabel; old Mapzen answers without country_code keep their country', async () => {
    replies = [{ match: /\/v1\/search/, status: 200, file: 'mapzen-2016/search_madison_square_garden.json' }];
    const found = await pelias().forward({ query: 'madison square garden', layers: ALL, lang: 'en', limit: 10 });
    expect(found[0]).toMatchObject({ layer: 'place', placeLabel: 'Madison Square Garden Center', countryCode: 'US', stateCode: 'NY', city: 'New York', county: 'New York County' });
  });

  test('forward: layers the caller did not ask for are dropped', async () => {
    replies = [{ match: /\/v1\/search/, status: 200, file: 'mapzen-2016/search_madison_square_garden.json' }];
    const found = await pelias().forward({ query: 'madison square garden', layers: new Set<GeocodeLayer>(['address']), lang: 'en', limit: 10 });
    expect(found.every((a) => a.layer === 'address')).toBe(true);
  });

  test('no results is an empty list', async () => {
    replies = [{ match: /\/v1\/search/, status: 200, file: 'geocode-earth/search_jsajhgsdkfjhsfkjhaldkadjaslgldasd.json' }];
    expect(await pelias().forward({ query: 'jsajhgsdkfjhsfkjhaldkadjaslgldasd', layers: ALL, lang: 'en', limit: 10 })).toEqual([]);
  });

  test('reverse: /v1/reverse with point.lat/point.lon; distance in metres', async () => {
    replies = [{ match: /\/v1\/reverse/, status: 200, file: 'geocode-earth/reverse_38_900206_m77_036991.json' }];
    const found = await pelias().reverse({ point: [-77.036991, 38.900206], layers: ALL, lang: 'en', limit: 5 });
    expect(seen[0].searchParams.get('point.lat')).toBe('38.900206');
    expect(seen[0].searchParams.get('point.lon')).toBe('-77.036991');
    expect(found[0]).toMatchObject({ layer: 'place', distance: 27, stateCode: 'DC', city: 'Washington', countryCode: 'US' });
  });

  test('autocomplete: /v1/autocomplete with focus.point from near', async () => {
    replies = [{ match: /\/v1\/autocomplete/, status: 200, file: 'mapzen-cutr/autocomplete-with-focus.json' }];
    const found = await pelias().autocomplete({ query: 'union square', layers: ALL, lang: 'en', limit: 10, near: [-122.4, 37.78] });
    expect(seen[0].searchParams.get('focus.point.lat')).toBe('37.78');
    expect(seen[0].searchParams.get('focus.point.lon')).toBe('-122.4');
    expect(found).toHaveLength(10);
    expect(found[0]).toMatchObject({ layer: 'address', number: '2', street: 'Union Square', city: 'Union City', stateCode: 'CA', distance: 35662 });
    expect(found.filter((a) => a.layer === 'place').every((a) => typeof a.placeLabel === 'string')).toBe(true);
  });

  test.each([
    ['a 500', { status: 500, text: '{"error":"boom"}' }, /500/],
    ['a body that is not JSON', { status: 200, text: '<html>' }, /not JSON/],
    ['JSON that is not a FeatureCollection', { status: 200, text: '{"type":"Feature"}' }, /FeatureCollection/],
  ])('%s is an error', async (_, reply, message) => {
    replies = [{ match: /./, ...reply }];
    await expect(pelias().forward({ query: 'x', layers: ALL, lang: 'en', limit: 1 })).rejects.toThrow(message);
  });

  test('a slow Pelias hits the deadline', async () => {
    replies = [{ match: /./, status: 200, text: '{"type":"FeatureCollection","features":[]}', delayMs: 500 }];
    await expect(new PeliasGeocoder({ url: base, timeoutMs: 50 }).forward({ query: 'x', layers: ALL, lang: 'en', limit: 1 })).rejects.toThrow();
  });

  test('through the gateway: WAYMARK_GEOCODER=pelias answers Radar addresses with timeZone, a failing Pelias is a 503', async () => {
    const gw = await startTestServer({ geocoding: { engine: 'pelias', peliasUrl: base, peliasTimeoutMs: 2000 } });
    try {
      replies = [{ match: /\/v1\/search/, status: 200, file: 'geocode-earth/search_10_downing_st_london_uk.json' }];
      const ok = await gw.request('GET', '/v1/geocode/forward', { key: gw.keys.testPk, query: { query: '10 Downing St, London' } });
      expect(ok.status).toBe(200);
      expect(ok.body.addresses[0]).toMatchObject({ number: '10', street: 'Downing Street', postalCode: 'SW1A 2AA', countryCode: 'GB', timeZone: { id: 'Europe/London' } });
      replies = [{ match: /./, status: 502, text: 'bad gateway' }];
      const down = await gw.request('GET', '/v1/geocode/forward', { key: gw.keys.testPk, query: { query: 'x' } });
      expect(down.status).toBe(503);
      expect(down.body.meta.message).toMatch(/geocoder \(pelias\) is unavailable/);
    } finally {
      await gw.close();
    }
  });
});
