import fs from 'fs';
import path from 'path';
import {
  circleGeometry,
  crossesAntimeridian,
  polygonApproxRadius,
  polygonCentroid,
  validateRing,
} from '../../core/geofence-shape';
import { haversineMeters } from '../../core/geo/sphere';
import type { LngLat } from '../../core/types';
import { files, requires } from '../support/requires';

const radarGeofence = path.resolve(__dirname, '../../../shared/fixtures/radar/radar-python/geofence.json');
const withRadarFixture = requires('geofence shapes of the Radar python SDK fixture', files(radarGeofence));

withRadarFixture('circleGeometry against Radar’s stored circle', () => {
  test('reproduces the 33-point ring of the radar-python sample', () => {
    const sample = JSON.parse(fs.readFileSync(radarGeofence, 'utf8')) as {
      geometryCenter: { coordinates: LngLat };
      geometryRadius: number;
      geometry: { coordinates: LngLat[][] };
    };
    const ours = circleGeometry(sample.geometryCenter.coordinates, sample.geometryRadius).coordinates[0];
    const theirs = sample.geometry.coordinates[0];
    expect(ours).toHaveLength(theirs.length);
    ours.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(theirs[i][0], 11);
      expect(p[1]).toBeCloseTo(theirs[i][1], 11);
    });
  });
});

describe('circleGeometry', () => {
  const center: LngLat = [18.9553, 69.6496]; // Tromsø
  const ring = circleGeometry(center, 250).coordinates[0];

  test('is closed, 32 segments, first point due east, counter-clockwise', () => {
    expect(ring).toHaveLength(33);
    expect(ring[32]).toEqual(ring[0]);
    expect(ring[0][1]).toBe(center[1]);
    expect(ring[0][0]).toBeGreaterThan(center[0]);
    expect(ring[8][1]).toBeGreaterThan(center[1]); // a quarter turn later: north
    let twiceArea = 0;
    for (let i = 0; i + 1 < ring.length; i++) twiceArea += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
    expect(twiceArea).toBeGreaterThan(0);
  });

  test('every vertex lies at the radius, even at 69°N', () => {
    for (const p of ring) expect(haversineMeters(center, p)).toBeCloseTo(250, 0);
  });
});

describe('polygonCentroid', () => {
  const cases: Array<{ name: string; ring: LngLat[]; expected: LngLat }> = [
    { name: 'unit square', ring: [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]], expected: [0.5, 0.5] },
    {
      // An L shape: the vertex mean would be pulled towards the many vertices of the corner.
      name: 'concave L shape follows the area',
      ring: [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]],
      expected: [5 / 6, 5 / 6],
    },
    { name: 'clockwise ring gives the same centre', ring: [[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]], expected: [0.5, 0.5] },
    { name: 'degenerate ring falls back to the vertex mean', ring: [[0, 0], [1, 0], [2, 0], [0, 0]], expected: [1, 0] },
  ];
  test.each(cases)('$name', ({ ring, expected }) => {
    const c = polygonCentroid(ring);
    expect(c[0]).toBeCloseTo(expected[0], 12);
    expect(c[1]).toBeCloseTo(expected[1], 12);
  });
});

describe('polygonApproxRadius', () => {
  test('is the farthest vertex, rounded up to a metre', () => {
    const center: LngLat = [-73.98, 40.75];
    const ring = circleGeometry(center, 123.4).coordinates[0];
    expect(polygonApproxRadius(ring, center)).toBe(124);
  });
});

describe('validateRing', () => {
  const square: LngLat[] = [[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]];
  const cases: Array<{ name: string; ring: unknown; message: RegExp | undefined }> = [
    { name: 'a valid square', ring: square, message: undefined },
    { name: 'a valid clockwise square', ring: [...square].reverse(), message: undefined },
    { name: 'repeated consecutive vertices are tolerated', ring: [[0, 0], [0.01, 0], [0.01, 0], [0.01, 0.01], [0, 0]], message: undefined },
    { name: 'not an array', ring: 'nope', message: /array/ },
    { name: 'three coordinates', ring: [[0, 0], [1, 0], [0, 0]], message: /at least 4 coordinates, got 3/ },
    {
      name: '2001 coordinates',
      ring: [...circleGeometry([0, 0], 1000).coordinates[0].slice(0, 1), ...Array.from({ length: 2000 }, () => [0, 0] as LngLat)],
      message: /at most 2000 coordinates, got 2001/,
    },
    { name: 'open ring', ring: [[0, 0], [1, 0], [1, 1], [0, 1]], message: /closed/ },
    { name: 'longitude out of range', ring: [[0, 0], [181, 0], [1, 1], [0, 0]], message: /coordinate 1 has longitude 181/ },
    { name: 'latitude out of range', ring: [[0, 0], [1, 0], [1, 91], [0, 0]], message: /coordinate 2 has latitude 91/ },
    { name: 'non-numeric coordinate', ring: [[0, 0], [1, '0'], [1, 1], [0, 0]], message: /coordinate 1 must hold two finite numbers/ },
    { name: 'NaN coordinate', ring: [[0, 0], [1, NaN], [1, 1], [0, 0]], message: /finite/ },
    { name: 'zero area (collinear)', ring: [[0, 0], [1, 0], [2, 0], [0, 0]], message: /enclose an area/ },
    { name: 'bow tie', ring: [[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]], message: /intersect itself/ },
    { name: 'figure eight touching at a vertex', ring: [[0, 0], [1, 1], [2, 0], [2, 2], [1, 1], [0, 2], [0, 0]], message: /intersect itself/ },
    { name: 'spike folding back on itself', ring: [[0, 0], [2, 0], [1, 0], [1, 1], [0, 0]], message: /intersect itself/ },
    {
      name: 'ring across the antimeridian',
      ring: [[179.99, 10], [-179.99, 10], [-179.99, 10.01], [179.99, 10.01], [179.99, 10]],
      message: /antimeridian/,
    },
  ];
  test.each(cases)('$name', ({ ring, message }) => {
    const got = validateRing(ring);
    if (message === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(message);
  });
});

describe('crossesAntimeridian', () => {
  test.each([
    { name: 'Fiji-style ring drawn across 180°', ring: [[179.5, -17], [-179.5, -17], [-179.5, -16], [179.5, -16], [179.5, -17]] as LngLat[], expected: true },
    { name: 'ring touching 180° from the west', ring: [[179, 0], [180, 0], [180, 1], [179, 1], [179, 0]] as LngLat[], expected: false },
    { name: 'ordinary ring in New York', ring: circleGeometry([-73.98, 40.75], 100).coordinates[0], expected: false },
  ])('$name', ({ ring, expected }) => {
    expect(crossesAntimeridian(ring)).toBe(expected);
  });
});
