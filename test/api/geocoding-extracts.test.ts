// Forward, reverse and autocomplete on addresses taken from the shared OSM extracts (Queens Village's
// hyphenated numbers, east Baltimore, Lower Manhattan, Liechtenstein's German-style addresses),
// imported once through the geocoding stage. Samples are seeded; rates are asserted, not every answer.
import Database from 'better-sqlite3';
import path from 'node:path';
import { prng } from '../../bench/support/prng';
import { stageDir } from '../../core/formats/extract-layout';
import { INDEX_FILE } from '../../core/formats/geocoding-index';
import { haversineMeters } from '../../core/geo/sphere';
import { importGeocoding, osmFixturesPresent } from '../support/geocoding-extracts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const EXTRACTS = [
  { name: 'queens', file: 'us-ny-queens-village-pelias.osm.pbf', style: 'us' },
  { name: 'baltimore', file: 'us-md-baltimore-valhalla.osm.pbf', style: 'us' },
  { name: 'manhattan', file: 'us-ny-nyc-lower-manhattan-valhalla.osm.pbf', style: 'us' },
  { name: 'liechtenstein', file: 'liechtenstein-2013-08-03-osm2pgsql.osm.pbf', style: 'eu' },
] as const;
const SAMPLES = 60;

interface Sample {
  number: string;
  street: string;
  city: string | null;
  postal: string | null;
  lon: number;
  lat: number;
}

const present = osmFixturesPresent();
const maybe = present ? describe : describe.skip;
const dataDir = tempDataDir();
let server: TestServer;
const samples = new Map<string, Sample[]>();

function sample(name: string): Sample[] {
  const db = new Database(path.join(stageDir(dataDir, name, 'geocoding'), INDEX_FILE), { readonly: true });
  const rows = db.prepare<[], Sample>('SELECT a.number, s.name AS street, a.city, a.postal_code AS postal, a.lon, a.lat FROM addresses a JOIN streets s ON s.id = a.street ORDER BY a.id').all();
  db.close();
  const rand = prng(11);
  return Array.from({ length: Math.min(SAMPLES, rows.length) }, () => rows[Math.floor(rand() * rows.length)]);
}

function queryOf(s: Sample, style: 'us' | 'eu'): string {
  const town = [s.city, s.postal].filter(Boolean).join(' ');
  if (style === 'eu') return `${s.street} ${s.number}${s.postal || s.city ? `, ${[s.postal, s.city].filter(Boolean).join(' ')}` : ''}`;
  return `${s.number} ${s.street}${town ? `, ${town}` : ''}`;
}

maybe('geocoding on the shared extracts', () => {
  beforeAll(async () => {
    for (const e of EXTRACTS) {
      await importGeocoding(dataDir, e.name, e.file);
      samples.set(e.name, sample(e.name));
    }
    server = await startTestServer({ dataDir });
  }, 180_000);
  afterAll(async () => server?.close());

  const get = (p: string, query: Record<string, string>) => server.request('GET', p, { key: server.keys.testPk, query });

  test.each(EXTRACTS.map((e) => [e.name, e.style] as const))('forward %s: top answer within 100 m for at least 95%% of sampled addresses', async (name, style) => {
    let hits = 0;
    const misses: string[] = [];
    for (const s of samples.get(name)!) {
      const r = await get('/v1/geocode/forward', { query: queryOf(s, style) });
      const top = r.body.addresses[0];
      if (top && haversineMeters([top.longitude, top.latitude], [s.lon, s.lat]) <= 100) hits++;
      else misses.push(queryOf(s, style));
    }
    const rate = hits / samples.get(name)!.length;
    if (rate < 1) console.warn(`forward ${name}: ${(rate * 100).toFixed(1)} %; misses: ${misses.slice(0, 5).join(' | ')}`);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  test.each(EXTRACTS.map((e) => [e.name] as const))('reverse %s: 5 m from an address, that address or a nearer one comes first, its distance measured', async (name) => {
    let hits = 0;
    for (const s of samples.get(name)!) {
      // 5 m north of the address point.
      const at: [number, number] = [s.lon, s.lat + 0.000045];
      const r = await get('/v1/geocode/reverse', { coordinates: `${at[1]},${at[0]}` });
      const top = r.body.addresses[0];
      expect(Math.abs(top.distance - haversineMeters(at, [top.longitude, top.latitude]))).toBeLessThanOrEqual(1);
      // The sampled address is 5 m away: the answer is it or one nearer still.
      if (top.distance <= 5.5) hits++;
    }
    expect(hits / samples.get(name)!.length).toBeGreaterThanOrEqual(0.95);
  });

  test.each(EXTRACTS.map((e) => [e.name, e.style] as const))('autocomplete %s: a partly typed street finds the address in the first five', async (name, style) => {
    let hits = 0;
    for (const s of samples.get(name)!) {
      const full = style === 'eu' ? `${s.number} ${s.street}` : `${s.number} ${s.street}`;
      const typed = full.slice(0, Math.max(full.indexOf(' ') + 3, full.length - 3));
      const r = await get('/v1/search/autocomplete', { query: typed, near: `${s.lat},${s.lon}`, limit: '5' });
      if (r.body.addresses.some((a: { longitude: number; latitude: number }) => haversineMeters([a.longitude, a.latitude], [s.lon, s.lat]) <= 100)) hits++;
    }
    expect(hits / samples.get(name)!.length).toBeGreaterThanOrEqual(0.9);
  });

  test('hyphenated Queens numbers and US order with state and ZIP', async () => {
    const r = await get('/v1/geocode/forward', { query: '203-06 109th Ave, Queens, NY 11412' });
    expect(r.body.addresses[0]).toMatchObject({ number: '203-06', street: '109th Avenue', postalCode: '11412', stateCode: 'NY', countryCode: 'US', confidence: 'exact' });
  });

  test('Baltimore: abbreviations, case and the issue example', async () => {
    for (const query of ['615 N Wolfe St, Baltimore, MD 21205', '615 NORTH WOLFE STREET BALTIMORE MD', '615 n. wolfe st']) {
      const r = await get('/v1/geocode/forward', { query });
      expect(r.body.addresses[0]).toMatchObject({ number: '615', street: 'North Wolfe Street', city: 'Baltimore', confidence: 'exact' });
    }
  });

  test('Liechtenstein: European order, accents folded, admin from boundaries', async () => {
    for (const query of ['Städtle 43, 9490 Vaduz', 'stadtle 43 vaduz']) {
      const r = await get('/v1/geocode/forward', { query });
      expect(r.body.addresses[0]).toMatchObject({ number: '43', street: 'Städtle', countryCode: 'LI', country: 'Liechtenstein', confidence: 'exact' });
      expect(r.body.addresses[0].addressLabel).toBe('Städtle 43');
    }
  });

  test('country filter keeps answers in the listed countries', async () => {
    const r = await get('/v1/geocode/forward', { query: 'Vaduz', country: 'LI' });
    expect(r.body.addresses.length).toBeGreaterThan(0);
    expect(r.body.addresses.every((a: { countryCode: string }) => a.countryCode === 'LI')).toBe(true);
    const none = await get('/v1/geocode/forward', { query: 'Städtle 43, Vaduz', country: 'US', layers: 'address' });
    expect(none.body.addresses).toEqual([]);
  });

  test('reverse with layers=locality answers the town, not the address', async () => {
    const r = await get('/v1/geocode/reverse', { coordinates: '39.298056,-76.590556', layers: 'locality' });
    expect(r.body.addresses[0]).toMatchObject({ layer: 'locality', city: 'Baltimore', stateCode: 'MD' });
  });
});
