import { GeofenceIndex, distanceTo, prepareGeofence } from '../../core/geofencing';
import { destinationPoint } from '../../core/geo/sphere';
import { validateRing } from '../../core/geofence-shape';
import type { Geofence, LngLat } from '../../core/types';
import { circleFence, offset, polygonFence, rectangleRing } from './fixtures/geofencing/make-geofence';
import { prng } from '../../bench/support/prng';

const NYC: LngLat = [-73.98, 40.75];

function randomFences(center: LngLat, spreadM: number, count: number, seed: number): Geofence[] {
  const rnd = prng(seed);
  const out: Geofence[] = [];
  for (let i = 0; i < count; i++) {
    const at = destinationPoint(center, rnd() * spreadM, rnd() * 360);
    const id = `g${String(i).padStart(4, '0')}`;
    const circle = circleFence(id, at, 20 + rnd() * 300);
    const ring = rectangleRing(at, 30 + rnd() * 300, 30 + rnd() * 300);
    // Rings over the antimeridian are refused at creation, so the index never holds them.
    out.push(rnd() < 0.6 || validateRing(ring) !== undefined ? circle : polygonFence(id, ring));
  }
  return out;
}

describe('GeofenceIndex: content', () => {
  test('set, get, replace, delete, size', () => {
    const index = new GeofenceIndex();
    const a = circleFence('a', NYC, 100);
    index.set(a);
    index.set(circleFence('b', offset(NYC, 1000, 0), 100));
    expect(index.size).toBe(2);
    expect(index.get('a')).toEqual(a);

    const moved = circleFence('a', offset(NYC, 5000, 0), 100);
    index.set(moved);
    expect(index.size).toBe(2);
    expect(index.get('a')).toEqual(moved);
    expect(index.near(NYC, 50).map((g) => g._id)).toEqual([]);
    expect(index.near(offset(NYC, 5000, 0), 50).map((g) => g._id)).toEqual(['a']);

    expect(index.delete('a')).toBe(true);
    expect(index.delete('a')).toBe(false);
    expect(index.get('a')).toBeUndefined();
    expect(index.size).toBe(1);
    expect(index.near(offset(NYC, 5000, 0), 50)).toEqual([]);
  });

  test('load replaces everything; a repeated _id keeps the last', () => {
    const index = new GeofenceIndex();
    index.set(circleFence('old', NYC, 100));
    const last = circleFence('x', offset(NYC, 300, 0), 50);
    index.load([circleFence('x', NYC, 50), circleFence('y', NYC, 50), last]);
    expect(index.size).toBe(2);
    expect(index.get('old')).toBeUndefined();
    expect(index.get('x')).toEqual(last);
  });

  test('drawn circles are kept without their ring and given back whole; other rings are kept', () => {
    const index = new GeofenceIndex();
    const drawn = circleFence('drawn', NYC, 150);
    const odd = circleFence('odd', offset(NYC, 2000, 0), 150);
    odd.geometry = { type: 'Polygon', coordinates: [odd.geometry.coordinates[0].slice(0, 9).concat([odd.geometry.coordinates[0][0]])] };
    index.load([drawn, odd]);
    expect(index.getPrepared('drawn')?.geofence.geometry).toBeUndefined();
    expect(index.getPrepared('drawn')?.geometryOmitted).toBe(true);
    expect(index.getPrepared('odd')?.geofence.geometry).toEqual(odd.geometry);
    expect(index.get('drawn')).toEqual(drawn);
    expect(index.get('odd')).toEqual(odd);
    expect(index.nearest(NYC, { limit: 2 }).map((n) => n.geofence)).toEqual([drawn, odd]);
    expect(index.near(NYC, 10)).toEqual([drawn]);
  });

  test('set() re-derives a mutated geofence object', () => {
    const index = new GeofenceIndex();
    const g = circleFence('m', NYC, 100);
    index.set(g);
    g.geometryCenter = { type: 'Point', coordinates: offset(NYC, 3000, 0) };
    index.set(g);
    expect(index.near(NYC, 10)).toEqual([]);
    expect(prepareGeofence(g).minX).toBeGreaterThan(NYC[0]);
  });
});

describe('GeofenceIndex.near never misses a geofence within the radius', () => {
  const places: Array<{ name: string; center: LngLat }> = [
    { name: 'New York', center: NYC },
    { name: 'Tromsø, 69°N', center: [18.9553, 69.6496] },
    { name: 'Longyearbyen, 78°N', center: [15.6356, 78.2232] },
    { name: 'Ushuaia, 54°S', center: [-68.303, -54.8019] },
    { name: 'Taveuni, on the antimeridian', center: [179.999, -16.8] },
  ];
  test.each(places)('$name', ({ center }) => {
    const fences = randomFences(center, 3000, 400, 7);
    const index = new GeofenceIndex();
    index.load(fences);
    const rnd = prng(11);
    for (let q = 0; q < 200; q++) {
      const point = destinationPoint(center, rnd() * 3000, rnd() * 360);
      const radius = 5 + rnd() * 400;
      const got = new Set(index.near(point, radius).map((g) => g._id));
      const expected = fences.filter((g) => distanceTo(prepareGeofence(g), point) <= radius).map((g) => g._id);
      for (const id of expected) expect([q, id, got.has(id)]).toEqual([q, id, true]);
    }
  });

  test('a circle over the antimeridian is found from both sides', () => {
    const index = new GeofenceIndex();
    index.set(circleFence('date-line', [179.9995, 0], 500));
    expect(index.near([-179.999, 0], 10).map((g) => g._id)).toEqual(['date-line']);
    expect(index.near([179.998, 0], 10).map((g) => g._id)).toEqual(['date-line']);
  });

  test('a query near the pole covers all longitudes', () => {
    const index = new GeofenceIndex();
    index.set(circleFence('polar', [120, 89.995], 100));
    expect(index.near([-60, 89.996], 500).map((g) => g._id)).toEqual(['polar']);
  });
});

describe('GeofenceIndex.nearest', () => {
  const fences = [
    circleFence('inside', NYC, 200),
    circleFence('near', offset(NYC, 500, 0), 100), // edge 400 m away
    polygonFence('poly', rectangleRing(offset(NYC, 0, 1000), 200, 200)), // edge 900 m away
    circleFence('far', offset(NYC, 30000, 0), 100), // 29.9 km
    circleFence('other-tag', offset(NYC, 600, 0), 100, { tag: 'other' }),
  ];
  const index = new GeofenceIndex();
  index.load(fences);

  test('sorted by distance to the shape, 0 inside', () => {
    const got = index.nearest(NYC, { limit: 10 });
    expect(got.map((n) => n.geofence._id)).toEqual(['inside', 'near', 'other-tag', 'poly', 'far']);
    expect(got[0].distanceM).toBe(0);
    expect(got[1].distanceM).toBeCloseTo(400, 0);
    expect(got[3].distanceM).toBeCloseTo(900, 0);
    expect(got[4].distanceM).toBeCloseTo(29900, -1);
  });

  test('radius bounds the search', () => {
    expect(index.nearest(NYC, { limit: 10, radiusM: 800 }).map((n) => n.geofence._id)).toEqual(['inside', 'near', 'other-tag']);
  });

  test('limit and filter', () => {
    expect(index.nearest(NYC, { limit: 2, filter: (g) => g.tag === 'test' }).map((n) => n.geofence._id)).toEqual(['inside', 'near']);
  });

  test('widens until it has enough, far beyond the first radius', () => {
    const got = index.nearest(offset(NYC, 200000, 0), { limit: 1 });
    expect(got[0].geofence._id).toBe('far');
  });

  test('empty index and zero limit', () => {
    expect(new GeofenceIndex().nearest(NYC, { limit: 5 })).toEqual([]);
    expect(index.nearest(NYC, { limit: 0 })).toEqual([]);
  });
});

describe('GeofenceIndex.near at the antimeridian', () => {
  test('a circle spanning all longitudes is returned once when the query box is split', () => {
    const index = new GeofenceIndex();
    index.set(circleFence('date-line', [179.9995, 0], 500)); // over 180°: its box is the full range
    const got = index.near([179.99999, 0], 50); // query box crosses 180° too
    expect(got.map((g) => g._id)).toEqual(['date-line']);
    expect(index.nearPrepared([179.99999, 0], 50)).toHaveLength(1);
  });

  test('a polygon touching 180° from the west is found from the east side', () => {
    const index = new GeofenceIndex();
    index.set(polygonFence('west-of-180', [[179.999, -1e-3], [180, -1e-3], [180, 1e-3], [179.999, 1e-3], [179.999, -1e-3]]));
    expect(index.near([-179.9995, 0], 100).map((g) => g._id)).toEqual(['west-of-180']);
  });
});
