// The index's tree is a packed tree of the geofences at the last build plus a small tree of changes
// since (fence-tree.ts). These tests change the index through thousands of sets and deletes, across
// several rebuilds, and compare every search with a scan of what the index should hold.
import { GeofenceIndex, distanceTo, prepareGeofence } from '../../core/geofencing';
import { FenceTree } from '../../core/geofencing/fence-tree';
import { prepareForIndex } from '../../core/geofencing/geofence-index';
import { destinationPoint } from '../../core/geo/sphere';
import type { Geofence, LngLat } from '../../core/types';
import { circleFence } from './fixtures/geofencing/make-geofence';
import { prng } from '../../bench/support/prng';

const NYC: LngLat = [-73.98, 40.75];

function fenceAt(id: string, rnd: () => number): Geofence {
  return circleFence(id, destinationPoint(NYC, rnd() * 4000, rnd() * 360), 20 + rnd() * 300);
}

/** Ids of `held` within `radiusM` of `point`, by scanning them all. */
function scan(held: Map<string, Geofence>, point: LngLat, radiusM: number): string[] {
  return [...held.values()].filter((g) => distanceTo(prepareGeofence(g), point) <= radiusM).map((g) => g._id).sort();
}

describe('GeofenceIndex through many changes (packed tree plus changes since)', () => {
  test('sets, replacements and deletes across rebuilds: every search finds exactly what a scan finds', () => {
    const rnd = prng(23);
    const held = new Map<string, Geofence>();
    const initial: Geofence[] = [];
    for (let i = 0; i < 2000; i++) initial.push(fenceAt(`g${i}`, rnd));
    const index = new GeofenceIndex();
    index.load(initial);
    for (const g of initial) held.set(g._id, g);
    let next = initial.length;
    // 6,000 changes: far more than one rebuild's worth (512 at this size), so the packed tree is rebuilt
    // several times with changes pending in both parts between rebuilds.
    for (let step = 0; step < 6000; step++) {
      const r = rnd();
      const ids = [...held.keys()];
      if (r < 0.4) {
        const g = fenceAt(`g${next++}`, rnd);
        index.set(g);
        held.set(g._id, g);
      } else if (r < 0.7 && ids.length > 0) {
        const g = fenceAt(ids[Math.floor(rnd() * ids.length)], rnd);
        index.set(g);
        held.set(g._id, g);
      } else if (ids.length > 0) {
        const id = ids[Math.floor(rnd() * ids.length)];
        expect(index.delete(id)).toBe(true);
        held.delete(id);
      }
      if (step % 50 === 0) {
        const point = destinationPoint(NYC, rnd() * 4000, rnd() * 360);
        const radius = 5 + rnd() * 500;
        const found = index.near(point, radius).filter((g) => distanceTo(prepareGeofence(g), point) <= radius).map((g) => g._id).sort();
        expect([step, found]).toEqual([step, scan(held, point, radius)]);
        // near() is a superset of the exact answer; it must never return a geofence that is gone or replaced.
        for (const g of index.near(point, radius)) expect([g._id, g.geometryCenter]).toEqual([g._id, held.get(g._id)?.geometryCenter]);
        // A map view's visit sees exactly what its search lists, each with its own box.
        const view = { minX: point[0] - 0.01, minY: point[1] - 0.01, maxX: point[0] + 0.01, maxY: point[1] + 0.01 };
        const visited: string[] = [];
        index.forEachInBox(view, (f, minX, minY, maxX, maxY) => {
          expect([minX, minY, maxX, maxY]).toEqual([f.minX, f.minY, f.maxX, f.maxY]);
          visited.push(f._id);
        });
        expect([step, visited.sort()]).toEqual([step, index.inBox(view).map((f) => f._id).sort()]);
      }
    }
    expect(index.size).toBe(held.size);
  });
});

describe('FenceTree', () => {
  const box = (f: { minX: number; minY: number; maxX: number; maxY: number }) => ({ minX: f.minX, minY: f.minY, maxX: f.maxX, maxY: f.maxY });

  test('an empty tree, and a tree emptied by removals, find nothing', () => {
    const tree = new FenceTree();
    const whole = { minX: -180, minY: -90, maxX: 180, maxY: 90 };
    expect(tree.search(whole)).toEqual([]);
    const fences = [prepareForIndex(circleFence('a', NYC, 100)), prepareForIndex(circleFence('b', NYC, 200))];
    tree.load(fences.slice());
    expect(tree.search(whole)).toHaveLength(2);
    for (const f of fences) tree.remove(f);
    expect(tree.search(whole)).toEqual([]);
    tree.load([]);
    expect(tree.search(whole)).toEqual([]);
  });

  test('a fence inserted after the build, then removed, is found and then not; a removed built fence stays gone', () => {
    const tree = new FenceTree();
    const built = prepareForIndex(circleFence('built', NYC, 100));
    tree.load([built]);
    const added = prepareForIndex(circleFence('added', NYC, 50));
    tree.insert(added);
    expect(tree.search(box(added)).map((f) => f._id).sort()).toEqual(['added', 'built']);
    tree.remove(added);
    expect(tree.search(box(added)).map((f) => f._id)).toEqual(['built']);
    tree.remove(built);
    expect(tree.search(box(built))).toEqual([]);
    // A replacement of the built fence (a new object with the same id) is found, the old one is not.
    const again = prepareForIndex(circleFence('built', NYC, 100));
    tree.insert(again);
    expect(tree.search(box(again))).toEqual([again]);
  });
});
