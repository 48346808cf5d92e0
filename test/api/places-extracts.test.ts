// Places from the shared real OSM extracts, imported by the real pipeline with the places stage:
// Lower Manhattan's LES (brands with brand:wikidata), Camp Hill PA (8 branded POIs) and Monaco (brand
// names, no wikidata). Search by chain and category, and a visit through track.
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { PlacesStage } from '../../importers/osm/stages/places/places-stage';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { announceSkip, files } from '../support/requires';

const OSM = path.resolve(__dirname, '../../../shared/fixtures/osm');
const EXTRACTS = [
  ['les', 'us-ny-manhattan-les-valhalla.osm.pbf'],
  // SOURCES.md: Camp Hill is the "pa-access-restriction" file, not the Harrisburg corridor (no brands).
  ['camp-hill', 'us-pa-access-restriction-valhalla.osm.pbf'],
  ['monaco', 'monaco-osrm.osm.pbf'],
  ['baltimore', 'us-md-baltimore-valhalla.osm.pbf'],
] as const;
const present = EXTRACTS.every(([, file]) => fs.existsSync(path.join(OSM, file)));
if (!present) announceSkip('places from OSM extracts', files(...EXTRACTS.map(([, file]) => path.join(OSM, file))));
const withFixtures = present ? describe : describe.skip;

withFixtures('places imported from real extracts', () => {
  let s: TestServer;
  const summaries: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    const dataDir = tempDataDir();
    for (const [name, file] of EXTRACTS) {
      const r = await runImport({ file: path.join(OSM, file), name, dataDir, stages: [new PlacesStage()] });
      summaries[name] = r.manifest.stages.places;
    }
    s = await startTestServer({ dataDir });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  async function search(query: Record<string, string | number>) {
    const r = await s.request('GET', '/v1/search/places', { key: s.keys.testPk, query });
    expect(r.status).toBe(200);
    return r.body.places as Array<Record<string, any>>;
  }

  test('the stage summaries count places, chains and outlines', () => {
    expect(summaries.les).toMatchObject({ places: expect.any(Number), chains: expect.any(Number) });
    expect(summaries.les.places as number).toBeGreaterThan(300);
    expect(summaries.les.chains as number).toBeGreaterThanOrEqual(25);
    expect(summaries['camp-hill'].chains).toBe(8);
    expect(summaries.monaco.chains as number).toBeGreaterThanOrEqual(20);
  });

  test('LES: chains by slug, with Radar\'s slugs', async () => {
    const near = '40.7195,-73.9880';
    const places = await search({ near, chains: 'starbucks,mcdonalds,whole-foods-market,duane-reade', limit: 20 });
    const slugs = places.map((p) => p.chain.slug);
    expect(new Set(slugs)).toEqual(new Set(['starbucks', 'mcdonalds', 'whole-foods-market', 'duane-reade']));
    expect(slugs.filter((x) => x === 'duane-reade')).toHaveLength(2);
    const mcd = places.find((p) => p.chain.slug === 'mcdonalds')!;
    expect(mcd).toMatchObject({ name: "McDonald's", categories: ['food-beverage', 'restaurant', 'fast-food-restaurant'], chain: { name: "McDonald's", slug: 'mcdonalds' } });
    const distances = places.map((p) => Math.hypot((p.location.coordinates[0] + 73.988) * Math.cos((40.7195 * Math.PI) / 180), p.location.coordinates[1] - 40.7195));
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  test('LES: a parent category holds its children', async () => {
    const near = '40.7195,-73.9880';
    const food = await search({ near, categories: 'food-beverage', limit: 100 });
    const cafes = await search({ near, categories: 'cafe', limit: 100 });
    expect(cafes.length).toBeGreaterThan(5);
    expect(food.length).toBeGreaterThan(cafes.length);
    for (const c of cafes) expect(c.categories).toEqual(['food-beverage', 'cafe']);
    const foodIds = new Set(food.map((p) => p._id));
    // limit 100 may cut food places off; the nearest cafés are among them.
    expect(cafes.slice(0, 5).every((c) => foodIds.has(c._id))).toBe(true);
  });

  test('Camp Hill: all eight branded POIs by chain', async () => {
    const chains = 'barnes-and-noble,five-below,at-and-t,staples,arbys,wells-fargo,first-national-bank,panera-bread';
    const places = await search({ near: '40.2360,-76.9350', chains, radius: 2000, limit: 20 });
    expect(places.map((p) => p.chain.slug).sort()).toEqual(chains.split(',').sort());
  });

  test('Monaco: chains matched by name alone (no brand:wikidata in the file)', async () => {
    const places = await search({ near: '43.7384,7.4246', chains: 'mcdonalds', radius: 5000 });
    expect(places).toHaveLength(2);
    expect(places.every((p) => p.name === "McDonald's")).toBe(true);
  });

  test('east Baltimore: a hospital mapped as a point and as its outline is listed once (issue 32)', async () => {
    const places = await search({ near: '39.2975,-76.5925', categories: 'hospital', radius: 1000, limit: 50 });
    const hopkins = places.filter((p) => p.name === 'Johns Hopkins Hospital');
    expect(hopkins).toHaveLength(1);
    expect(places.map((p) => p.name)).toContain('The Johns Hopkins Outpatient Center');
  });

  test('LES: track enters McDonald\'s at its door and exits it a block away', async () => {
    const keys = s.keys;
    expect((await s.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: { places: true } })).status).toBe(200);
    const [mcd] = await search({ near: '40.7188,-73.9883', chains: 'mcdonalds' });
    const [lng, lat] = mcd.location.coordinates;
    const track = async (la: number, ln: number, updatedAt: string) => {
      const r = await s.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'les-1', userId: 'les-1', latitude: la, longitude: ln, accuracy: 5, foreground: true, updatedAt } });
      expect(r.status).toBe(200);
      return r.body;
    };
    const inside = await track(lat, lng, new Date(Date.now() - 20 * 60_000).toISOString());
    const entered = inside.events.find((e: any) => e.type === 'user.entered_place');
    expect(entered.place).toMatchObject({ _id: mcd._id, name: "McDonald's", chain: { slug: 'mcdonalds' } });
    expect(entered.confidence).toBeGreaterThanOrEqual(2);
    expect(Array.isArray(entered.alternatePlaces)).toBe(true);
    expect(inside.user.place._id).toBe(mcd._id);
    const away = await track(lat + 0.004, lng, new Date().toISOString());
    const exited = away.events.find((e: any) => e.type === 'user.exited_place');
    expect(exited.place._id).toBe(mcd._id);
    expect(exited.duration).toBeGreaterThan(19);
    expect(exited.duration).toBeLessThan(21);
  });
});
