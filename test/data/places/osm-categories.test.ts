// The OSM → Radar category table against Radar's published taxonomy (../shared/fixtures/radar/places).
import fs from 'node:fs';
import path from 'node:path';
import { CATEGORY_ROWS, CUISINE_ROWS, RELIGION_ROWS, categoriesOfPath, categoryPathOf } from '../../../importers/osm/stages/places/osm-categories';
import { announceSkip, files } from '../../support/requires';

const TAXONOMY = path.join(__dirname, '../../../../shared/fixtures/radar/places/categories.tsv');
const have = fs.existsSync(TAXONOMY);
if (!have) announceSkip('OSM categories: the Radar taxonomy check', files(TAXONOMY));
const maybe = have ? test : test.skip;

maybe('every category path the table names is one of Radar\'s 321', () => {
  const radar = new Set(fs.readFileSync(TAXONOMY, 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t')[0]));
  expect(radar.size).toBe(321);
  const named = [...CATEGORY_ROWS.map((r) => r[2]), ...CUISINE_ROWS.map((r) => r[1]), ...RELIGION_ROWS.map((r) => r[1])];
  expect(named.filter((p) => !radar.has(p))).toEqual([]);
});

test('no OSM tag has two rows', () => {
  const keys = CATEGORY_ROWS.map(([k, v]) => `${k}=${v}`);
  expect(keys.length).toBe(new Set(keys).size);
});

test('categories are the path from the top down, so a parent is in its children\'s list', () => {
  expect(categoriesOfPath(categoryPathOf({ amenity: 'fast_food', cuisine: 'burger' })!)).toEqual(['food-beverage', 'restaurant', 'fast-food-restaurant']);
  expect(categoriesOfPath(categoryPathOf({ amenity: 'restaurant', cuisine: 'pizza;italian' })!)).toEqual(['food-beverage', 'restaurant', 'pizza-place']);
  expect(categoryPathOf({ amenity: 'restaurant', cuisine: 'unknown_thing' })).toBe('food-beverage/restaurant');
  expect(categoryPathOf({ amenity: 'place_of_worship', religion: 'christian' })).toBe('religion/church');
  expect(categoryPathOf({ aeroway: 'aerodrome', amenity: 'parking' })).toBe('travel-transportation/transportation-terminal/airport');
  expect(categoryPathOf({ amenity: 'bench' })).toBeUndefined();
  expect(categoryPathOf({ highway: 'residential' })).toBeUndefined();
});
