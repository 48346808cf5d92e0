// A few blocks of the Lower East Side as OSM would map them, for places tests: chains with and without
// brand:wikidata, a POI in its own building, two in one building, a park outline, a multipolygon, an
// airport with an IATA code and a restaurant whose name is a brand of another kind.
import { square, type TestEntities } from './places-extract';

export const STARBUCKS: [number, number] = [-73.98800, 40.72000];
export const MCDONALDS: [number, number] = [-73.98700, 40.72100];
export const PIZZA: [number, number] = [-73.98900, 40.72050];
export const SEVEN_ELEVEN: [number, number] = [-73.98600, 40.71900];
export const PARK: [number, number] = [-73.99200, 40.72200];
export const MALL_SHOP_A: [number, number] = [-73.98400, 40.72000];
export const MALL_SHOP_B: [number, number] = [-73.98405, 40.72005];
export const TARGET_DINER: [number, number] = [-73.98500, 40.72150];
export const MUSEUM: [number, number] = [-73.98300, 40.71800];
export const AIRFIELD: [number, number] = [-73.90000, 40.78000];

export function neighbourhood(): TestEntities {
  const starbucksBuilding = square(1000, STARBUCKS, 12);
  const park = square(2000, PARK, 80);
  const mall = square(3000, MALL_SHOP_A, 30);
  const museum = square(4000, MUSEUM, 25);
  const airfield = square(5000, AIRFIELD, 600);
  return {
    nodes: [
      ...starbucksBuilding.nodes, ...park.nodes, ...mall.nodes, ...museum.nodes, ...airfield.nodes,
      { id: 1, at: STARBUCKS, tags: { amenity: 'cafe', name: 'Starbucks', brand: 'Starbucks', 'brand:wikidata': 'Q37158', cuisine: 'coffee_shop' } },
      { id: 2, at: MCDONALDS, tags: { amenity: 'fast_food', name: "McDonald's", cuisine: 'burger' } },
      { id: 3, at: PIZZA, tags: { amenity: 'restaurant', name: "Joe's Pizza", cuisine: 'pizza' } },
      { id: 4, at: SEVEN_ELEVEN, tags: { shop: 'convenience', name: '7-Eleven' } },
      { id: 5, at: MALL_SHOP_A, tags: { shop: 'clothes', name: 'Shop A' } },
      { id: 6, at: MALL_SHOP_B, tags: { shop: 'shoes', name: 'Shop B' } },
      { id: 7, at: TARGET_DINER, tags: { amenity: 'restaurant', name: 'Target' } },
      { id: 8, at: [-73.98750, 40.72020], tags: { amenity: 'bench' } },
      { id: 9, at: [-73.98760, 40.72030], tags: { shop: 'bakery' } },
    ],
    ways: [
      { id: 100, refs: starbucksBuilding.refs, tags: { building: 'yes' } },
      { id: 200, refs: park.refs, tags: { leisure: 'park', name: 'Sara D. Roosevelt Park' } },
      { id: 300, refs: mall.refs, tags: { building: 'retail' } },
      { id: 400, refs: museum.refs, tags: { building: 'yes' } },
      { id: 500, refs: airfield.refs, tags: {} },
    ],
    relations: [
      { id: 10, members: [{ type: 'way', ref: 400, role: 'outer' }], tags: { type: 'multipolygon', tourism: 'museum', name: 'Tenement Museum' } },
      { id: 11, members: [{ type: 'way', ref: 500, role: 'outer' }], tags: { type: 'multipolygon', aeroway: 'aerodrome', name: 'Test Airfield', iata: 'zzq' } },
    ],
  };
}
