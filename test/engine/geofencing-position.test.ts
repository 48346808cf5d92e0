import { destinationPoint } from '../../core/geo/sphere';
import {
  entryConfidence,
  exitConfidence,
  fencePosition,
  insideForEntry,
  outsideForExit,
  prepareGeofence,
} from '../../core/geofencing';
import type { Geofence, LngLat } from '../../core/types';
import { circleFence, offset, polygonFence } from './fixtures/geofencing/make-geofence';

const NYC: LngLat = [-73.98, 40.75];
const TROMSO: LngLat = [18.9553, 69.6496];

const store = circleFence('store', NYC, 100);
const kiosk = circleFence('kiosk', NYC, 10);
// A U-shaped polygon 100 × 100 m with a 40 m wide notch cut 80 m deep from the top.
const uRing: LngLat[] = [
  offset(NYC, 0, 0),
  offset(NYC, 100, 0),
  offset(NYC, 100, 100),
  offset(NYC, 70, 100),
  offset(NYC, 70, 20),
  offset(NYC, 30, 20),
  offset(NYC, 30, 100),
  offset(NYC, 0, 100),
  offset(NYC, 0, 0),
];
const uBlock = polygonFence('u-block', uRing);
const tromsoCircle = circleFence('tromso', TROMSO, 200);

interface Case {
  name: string;
  fence: Geofence;
  location: LngLat;
  accuracy: number;
  inside: boolean;
  entry: 1 | 2 | 3;
  exit: 1 | 2 | 3;
}

const cases: Case[] = [
  { name: 'circle: centre, good accuracy', fence: store, location: NYC, accuracy: 10, inside: true, entry: 3, exit: 1 },
  { name: 'circle: disk straddles the edge, mostly inside', fence: store, location: offset(NYC, 95, 0), accuracy: 10, inside: true, entry: 2, exit: 1 },
  { name: 'circle: disk straddles the edge, mostly outside', fence: store, location: offset(NYC, 105, 0), accuracy: 10, inside: false, entry: 1, exit: 2 },
  { name: 'circle: just outside, disk touching nothing', fence: store, location: offset(NYC, 130, 0), accuracy: 10, inside: false, entry: 1, exit: 3 },
  { name: 'tiny circle, poor accuracy: inside but low confidence', fence: kiosk, location: NYC, accuracy: 100, inside: true, entry: 1, exit: 2 },
  { name: 'tiny circle, disk exactly fills it', fence: kiosk, location: NYC, accuracy: 10, inside: true, entry: 3, exit: 1 },
  { name: 'polygon: in a prong, well inside', fence: uBlock, location: offset(NYC, 15, 50), accuracy: 5, inside: true, entry: 3, exit: 1 },
  { name: 'polygon: deep in the notch is outside', fence: uBlock, location: offset(NYC, 50, 60), accuracy: 10, inside: false, entry: 1, exit: 3 },
  // Notch 40 m wide, disk radius 25 m at its centre line: it reaches 5 m into each prong (~9 %).
  { name: 'polygon: notch with a disk reaching both prongs', fence: uBlock, location: offset(NYC, 50, 60), accuracy: 25, inside: false, entry: 1, exit: 2 },
  { name: 'polygon: disk centred on the bottom edge of the notch', fence: uBlock, location: offset(NYC, 50, 19), accuracy: 10, inside: true, entry: 2, exit: 1 },
  { name: 'Tromsø 69°N: 150 m east of a 200 m circle is inside', fence: tromsoCircle, location: destinationPoint(TROMSO, 150, 90), accuracy: 10, inside: true, entry: 3, exit: 1 },
  { name: 'Tromsø 69°N: 230 m north is outside', fence: tromsoCircle, location: destinationPoint(TROMSO, 230, 0), accuracy: 10, inside: false, entry: 1, exit: 3 },
];

describe('fencePosition and confidences', () => {
  test.each(cases)('$name', ({ fence, location, accuracy, inside, entry, exit }) => {
    const pos = fencePosition(prepareGeofence(fence), location, accuracy);
    expect(pos.inside).toBe(inside);
    expect(entryConfidence(pos)).toBe(entry);
    expect(exitConfidence(pos)).toBe(exit);
  });

  test('share of the disk inside a circle is exact: disk centred on the edge is about half in', () => {
    const pos = fencePosition(prepareGeofence(store), offset(NYC, 100, 0), 5);
    // Slightly under one half: the fence's edge curves away from the disk.
    expect(pos.insideShare).toBeGreaterThan(0.48);
    expect(pos.insideShare).toBeLessThan(0.5);
  });

  test('tiny fence inside a big disk: share is the area ratio', () => {
    const pos = fencePosition(prepareGeofence(kiosk), NYC, 100);
    expect(pos.insideShare).toBeCloseTo(0.01, 6);
  });
});

describe('circles are true circles, not their stored 32-gon', () => {
  // Between two vertices of the stored ring the chord lies ~0.5 % inside the circle: 199.5 m from the
  // centre is inside the circle but outside the polygon.
  const bearingBetweenVertices = 90 - 360 / 32 / 2;
  const nearEdge = destinationPoint(TROMSO, 199.5, bearingBetweenVertices);

  test('the true circle contains the point', () => {
    expect(fencePosition(prepareGeofence(tromsoCircle), nearEdge, 0.1).inside).toBe(true);
  });

  test('the same ring as a polygon does not (so the circle test is not the polygon test)', () => {
    const asPolygon = polygonFence('tromso-ring', tromsoCircle.geometry.coordinates[0]);
    expect(fencePosition(prepareGeofence(asPolygon), nearEdge, 0.1).inside).toBe(false);
  });

  test('distance at 69°N is measured on the sphere: boundary 50 m from a point 150 m east', () => {
    const pos = fencePosition(prepareGeofence(tromsoCircle), destinationPoint(TROMSO, 150, 90), 1);
    expect(pos.boundaryDistanceM).toBeCloseTo(50, 3);
  });
});

describe('buffer entries and exits', () => {
  // Location outside a 100 m circle, `outsideBy` metres beyond the edge; accuracy 10 m.
  const cases = [
    { name: '5 m outside', outsideBy: 5, entry: false, entryBuffered: true, exit: true, exitBuffered: false },
    { name: '9.9 m outside', outsideBy: 9.9, entry: false, entryBuffered: true, exit: true, exitBuffered: false },
    { name: '10.5 m outside', outsideBy: 10.5, entry: false, entryBuffered: false, exit: true, exitBuffered: true },
    { name: '50 m outside', outsideBy: 50, entry: false, entryBuffered: false, exit: true, exitBuffered: true },
    { name: '5 m inside', outsideBy: -5, entry: true, entryBuffered: true, exit: false, exitBuffered: false },
  ];
  test.each(cases)('$name', ({ outsideBy, entry, entryBuffered, exit, exitBuffered }) => {
    const pos = fencePosition(prepareGeofence(store), destinationPoint(NYC, 100 + outsideBy, 45), 10);
    expect(insideForEntry(pos, false)).toBe(entry);
    expect(insideForEntry(pos, true)).toBe(entryBuffered);
    expect(outsideForExit(pos, false)).toBe(exit);
    expect(outsideForExit(pos, true)).toBe(exitBuffered);
  });

  test('polygon: buffer entry within r of an edge', () => {
    const pos = fencePosition(prepareGeofence(uBlock), offset(NYC, 50, 25), 10); // 5 m above the notch floor
    expect(pos.inside).toBe(false);
    expect(insideForEntry(pos, true)).toBe(true);
    expect(outsideForExit(pos, true)).toBe(false);
  });
});

describe('across the antimeridian', () => {
  test('a user just east of 180° is measured against a polygon just west of it', () => {
    const ring: LngLat[] = [[179.999, -1e-3], [180, -1e-3], [180, 1e-3], [179.999, 1e-3], [179.999, -1e-3]];
    const pos = fencePosition(prepareGeofence(polygonFence('west-of-180', ring)), [-179.9995, 0], 100);
    expect(pos.inside).toBe(false);
    expect(pos.boundaryDistanceM).toBeCloseTo(55.6, 0); // 0.0005° of longitude at the equator
    expect(pos.insideShare).toBeGreaterThan(0);
  });

  test('a circle over 180° contains a point on the other side', () => {
    const pos = fencePosition(prepareGeofence(circleFence('c', [179.9995, 0], 200)), [-179.9995, 0], 5);
    expect(pos.inside).toBe(true);
    expect(pos.boundaryDistanceM).toBeCloseTo(200 - 111.2, 0);
  });
});
