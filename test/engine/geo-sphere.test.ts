import { EARTH_RADIUS_M, destinationPoint, haversineMeters, normalizeLongitude } from '../../core/geo/sphere';
import { localProjection, projectRing, projectX, projectY, unproject } from '../../core/geo/planar';
import type { LngLat } from '../../core/types';

describe('haversineMeters', () => {
  const cases: Array<{ name: string; a: LngLat; b: LngLat; metres: number; tolerance: number }> = [
    { name: 'same point', a: [-73.98, 40.75], b: [-73.98, 40.75], metres: 0, tolerance: 0 },
    { name: 'one degree of latitude', a: [0, 0], b: [0, 1], metres: (EARTH_RADIUS_M * Math.PI) / 180, tolerance: 1e-6 },
    // JFK to LAX, the textbook example: about 3974 km on a 6371 km sphere.
    { name: 'JFK to LAX', a: [-73.7781, 40.6413], b: [-118.4085, 33.9416], metres: 3974000, tolerance: 3000 },
    { name: 'across the antimeridian', a: [179.999, 0], b: [-179.999, 0], metres: 222.4, tolerance: 0.1 },
    { name: 'antipodes', a: [0, 0], b: [180, 0], metres: Math.PI * EARTH_RADIUS_M, tolerance: 1e-6 },
  ];
  test.each(cases)('$name', ({ a, b, metres, tolerance }) => {
    expect(Math.abs(haversineMeters(a, b) - metres)).toBeLessThanOrEqual(tolerance);
  });
});

describe('destinationPoint', () => {
  test.each([
    { name: 'north from New York', from: [-73.98, 40.75] as LngLat, distance: 500, bearing: 0 },
    { name: 'east from Tromsø', from: [18.9553, 69.6496] as LngLat, distance: 1234, bearing: 90 },
    { name: 'south-west from Sydney', from: [151.21, -33.87] as LngLat, distance: 10000, bearing: 225 },
    { name: 'east across the antimeridian', from: [179.999, 10] as LngLat, distance: 1000, bearing: 90 },
  ])('$name lands at the requested distance', ({ from, distance, bearing }) => {
    const to = destinationPoint(from, distance, bearing);
    expect(haversineMeters(from, to)).toBeCloseTo(distance, 6);
    expect(to[0]).toBeGreaterThanOrEqual(-180);
    expect(to[0]).toBeLessThan(180);
  });

  test('due north keeps the longitude', () => {
    const to = destinationPoint([10, 50], 1000, 0);
    expect(to[0]).toBeCloseTo(10, 12);
    expect(to[1]).toBeGreaterThan(50);
  });
});

describe('normalizeLongitude', () => {
  test.each([
    [190, -170],
    [-190, 170],
    [180, -180],
    [45, 45],
    [540, -180],
  ])('%d → %d', (input, expected) => {
    expect(normalizeLongitude(input)).toBeCloseTo(expected, 12);
  });
});

describe('local projection', () => {
  test('distances near the reference match great-circle distances within 0.1 %', () => {
    const ref: LngLat = [18.9553, 69.6496];
    const p = localProjection(ref);
    const other: LngLat = [18.99, 69.66];
    const planar = Math.hypot(projectX(p, other[0]), projectY(p, other[1]));
    const sphere = haversineMeters(ref, other);
    expect(Math.abs(planar - sphere) / sphere).toBeLessThan(0.001);
  });

  test('projectRing and unproject round-trip', () => {
    const p = localProjection([-73.98, 40.75]);
    const ring: LngLat[] = [[-73.98, 40.75], [-73.97, 40.76], [-73.99, 40.74]];
    const xy = projectRing(p, ring);
    ring.forEach((c, i) => {
      const back = unproject(p, xy[2 * i], xy[2 * i + 1]);
      expect(back[0]).toBeCloseTo(c[0], 12);
      expect(back[1]).toBeCloseTo(c[1], 12);
    });
  });
});
