// The place index: radius queries against a brute-force scan over seeded random places, across cell
// borders, the antimeridian and near a pole; filters and limits.
import { prng } from '../../bench/support/prng';
import { haversineMeters } from '../../core/geo/sphere';
import type { Place, PlaceKind } from '../../core/places/place';
import { PlaceIndex } from '../../core/places/place-index';

function placesAround(center: [number, number], spreadDeg: number, n: number, seed: number): Place[] {
  const rnd = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    let lng = center[0] + (rnd() * 2 - 1) * spreadDeg;
    if (lng > 180) lng -= 360;
    if (lng < -180) lng += 360;
    const lat = Math.max(-89.999, Math.min(89.999, center[1] + (rnd() * 2 - 1) * spreadDeg));
    return { _id: i.toString(16).padStart(24, '0'), name: `p${i}`, lng, lat, categories: [i % 2 ? 'odd' : 'even'], osm: `n${i}` };
  });
}

function brute(places: Place[], at: [number, number], radiusM: number, filter: (p: Place) => boolean = () => true): string[] {
  return places
    .map((p) => ({ p, d: haversineMeters(at, [p.lng, p.lat]) }))
    .filter(({ p, d }) => d <= radiusM && filter(p))
    .sort((a, b) => a.d - b.d || (a.p._id < b.p._id ? -1 : 1))
    .map(({ p }) => p._id);
}

test.each([
  { name: 'Manhattan', center: [-73.99, 40.72] as [number, number], spread: 0.05, radius: 1000 },
  { name: 'across the antimeridian', center: [179.995, -16.5] as [number, number], spread: 0.05, radius: 3000 },
  { name: 'near the north pole', center: [10, 89.99] as [number, number], spread: 0.01, radius: 2000 },
  { name: 'a 10 km radius', center: [7.42, 43.73] as [number, number], spread: 0.2, radius: 10_000 },
])('$name: the same places as a full scan, nearest first', ({ center, spread, radius }) => {
  const places = placesAround(center, spread, 3000, 1);
  const index = new PlaceIndex(places);
  const rnd = prng(2);
  for (let q = 0; q < 50; q++) {
    const at: [number, number] = [center[0] + (rnd() * 2 - 1) * spread * 0.5, center[1] + (rnd() * 2 - 1) * spread * 0.5];
    if (at[0] > 180) at[0] -= 360;
    if (at[1] > 90) at[1] = 89.9999;
    const found = index.near(at, { radiusM: radius, limit: 10_000 });
    // The same set; order by distance (ties within rounding may swap between the two formulas).
    expect(found.map((r) => r.place._id).sort()).toEqual(brute(places, at, radius).sort());
    expect(found.every((r, i) => i === 0 || r.distanceM >= found[i - 1].distanceM)).toBe(true);
  }
});

test('filter and limit', () => {
  const places = placesAround([-73.99, 40.72], 0.02, 500, 3);
  const index = new PlaceIndex(places);
  const even = (p: PlaceKind) => p.categories[0] === 'even';
  const got = index.near([-73.99, 40.72], { radiusM: 1500, limit: 7, filter: even });
  expect(got.map((r) => r.place._id)).toEqual(brute(places, [-73.99, 40.72], 1500, even).slice(0, 7));
  expect(got.every((r, i) => i === 0 || r.distanceM >= got[i - 1].distanceM)).toBe(true);
});

test('lookup by id; places without coordinates are left out', () => {
  const index = new PlaceIndex([
    { _id: 'a'.repeat(24), name: 'A', lng: 1, lat: 2, categories: [], osm: 'n1' },
    { _id: 'b'.repeat(24), name: 'B', lng: NaN, lat: NaN, categories: [], osm: 'r2' },
  ]);
  expect(index.size).toBe(1);
  expect(index.get('a'.repeat(24))?.name).toBe('A');
  expect(index.get('b'.repeat(24))).toBeUndefined();
  expect(new PlaceIndex([]).near([0, 0], { radiusM: 10_000, limit: 10 })).toEqual([]);
});
