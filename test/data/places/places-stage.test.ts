// The places stage fed OSM entities directly (the import pipeline feeds it the same way), with the real
// name-suggestion-index data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { placeIdOf, readPlacesFile, type PlaceRecord } from '../../../core/formats/places/places-file';
import { runPlacesStage } from '../../support/places-extract';
import { MUSEUM, neighbourhood } from '../../support/places-neighbourhood';

let dir: string;
let byName: Map<string, PlaceRecord>;
let summary: Record<string, unknown>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-places-stage-'));
  summary = await runPlacesStage(neighbourhood(), dir);
  byName = new Map(readPlacesFile(dir).places.map((p) => [p.name, p]));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('named POIs with a category become places; unnamed ones and benches do not', () => {
  expect([...byName.keys()].sort()).toEqual(
    ["Joe's Pizza", "McDonald's", '7-Eleven', 'Sara D. Roosevelt Park', 'Shop A', 'Shop B', 'Starbucks', 'Target', 'Tenement Museum', 'Test Airfield'].sort(),
  );
  expect(summary).toEqual({ places: 10, chains: 3, outlines: 4, airports: 1 });
});

test('chains: by brand:wikidata, else by name; a name of another kind of brand is no chain', () => {
  expect(byName.get('Starbucks')!.chain).toEqual({ slug: 'starbucks', name: 'Starbucks' });
  expect(byName.get("McDonald's")!.chain).toEqual({ slug: 'mcdonalds', name: "McDonald's" });
  expect(byName.get('7-Eleven')!.chain).toEqual({ slug: '7-eleven', name: '7-Eleven' });
  expect(byName.get('Target')!.chain).toBeUndefined();
  expect(byName.get("Joe's Pizza")!.chain).toBeUndefined();
});

test('categories from the top of the taxonomy down', () => {
  expect(byName.get("McDonald's")!.categories).toEqual(['food-beverage', 'restaurant', 'fast-food-restaurant']);
  expect(byName.get("Joe's Pizza")!.categories).toEqual(['food-beverage', 'restaurant', 'pizza-place']);
  expect(byName.get('Starbucks')!.categories).toEqual(['food-beverage', 'cafe']);
});

test('outlines: a node alone in its building takes it; two in one building take none; ways and multipolygons keep their own', () => {
  expect(byName.get('Starbucks')!.outline).toHaveLength(5);
  expect(byName.get('Shop A')!.outline).toBeUndefined();
  expect(byName.get('Shop B')!.outline).toBeUndefined();
  expect(byName.get("McDonald's")!.outline).toBeUndefined();
  expect(byName.get('Sara D. Roosevelt Park')!.outline).toHaveLength(5);
  const museum = byName.get('Tenement Museum')!;
  expect(museum.outline).toHaveLength(5);
  expect(museum.lng).toBeCloseTo(MUSEUM[0], 5);
  expect(museum.lat).toBeCloseTo(MUSEUM[1], 5);
});

test('ids are stable per OSM object, and airports keep their IATA code upper-cased', () => {
  expect(byName.get('Starbucks')!._id).toBe(placeIdOf('n', 1));
  expect(byName.get('Starbucks')!._id).toMatch(/^[0-9a-f]{24}$/);
  expect(byName.get('Sara D. Roosevelt Park')!.osm).toBe('w200');
  expect(byName.get('Test Airfield')!.iata).toBe('ZZQ');
  expect(byName.get('Test Airfield')!._id).toBe(placeIdOf('r', 11));
});

test('a brand tag the index does not know makes a chain of its own', async () => {
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-places-stage-local-'));
  try {
    await runPlacesStage({ nodes: [{ id: 1, at: [0, 0], tags: { amenity: 'cafe', name: 'Zz Local Roasters', brand: 'Zz Local Roasters & Co' } }] }, own);
    expect(readPlacesFile(own).places[0].chain).toEqual({ slug: 'zz-local-roasters-and-co', name: 'Zz Local Roasters & Co' });
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
});
