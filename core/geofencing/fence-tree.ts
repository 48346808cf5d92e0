// The bounding-box tree behind GeofenceIndex: a packed, static R-tree (flatbush: boxes and node
// entries in two typed arrays) over the geofences at the last build, beside a small dynamic R-tree
// (rbush) of those set since and a set of the built ones removed or replaced since.
//
// Why two trees: almost every query is a track update's candidate search, and geofences change rarely
// between rebuilds. rbush keeps a node object per entry and walks pointers scattered over the heap;
// the packed tree reads consecutive doubles. In bench/engine-geofencing.ts (100,000 metro geofences)
// near() went from 14.3 to 2.6 µs, and a bulk load from 1,190 to 822 ms. But a packed tree cannot
// change once built, so changes go to the small tree until they outgrow a fraction of the built set;
// then both are folded into a new packed tree: ~50 ms at 100,000 geofences, on the event loop, paid
// once per REBUILD_FRACTION of them changed (docs/track-path.md, Known limits).
import Flatbush from 'flatbush';
import RBush from 'rbush';
import type { PreparedGeofence } from './prepared-geofence';

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Entries per node of the packed tree (flatbush's default). */
const NODE_SIZE = 16;
/** Changes since the build, as a share of the built set, that make the next change rebuild. */
const REBUILD_FRACTION = 1 / 8;
/** Below this many changes the small tree is cheap whatever the built set's size. */
const REBUILD_MIN_CHANGES = 512;

export class FenceTree {
  /** The packed tree and the fences its item numbers stand for; none while empty. */
  private packed: Flatbush | undefined;
  private built: PreparedGeofence[] = [];
  /** Built fences removed (deleted or replaced) since the build: skipped by searches. */
  private readonly retired = new Set<PreparedGeofence>();
  /** Fences inserted since the build, as a tree and as a set (which tells them from built ones). */
  private readonly added = new RBush<PreparedGeofence>();
  private readonly addedSet = new Set<PreparedGeofence>();

  /** Replaces the content; `fences` is kept as it is (the caller gives up the array). */
  load(fences: PreparedGeofence[]): void {
    // Packed first: should it throw, the tree keeps its item numbers and their fences together.
    this.packed = pack(fences);
    this.built = fences;
    this.retired.clear();
    this.added.clear();
    this.addedSet.clear();
  }

  insert(fence: PreparedGeofence): void {
    this.added.insert(fence);
    this.addedSet.add(fence);
    this.maybeRebuild();
  }

  /** `fence` must be in the tree (the one inserted or loaded, not an equal copy). */
  remove(fence: PreparedGeofence): void {
    if (this.addedSet.delete(fence)) this.added.remove(fence);
    else this.retired.add(fence);
    this.maybeRebuild();
  }

  /** The fences whose box intersects `box` (edges included), in no particular order. */
  search(box: Box): PreparedGeofence[] {
    const out: PreparedGeofence[] = [];
    if (this.packed !== undefined) {
      const { built, retired } = this;
      const hits = this.packed.search(box.minX, box.minY, box.maxX, box.maxY);
      for (let i = 0; i < hits.length; i++) {
        const fence = built[hits[i]];
        if (retired.size === 0 || !retired.has(fence)) out.push(fence);
      }
    }
    if (this.addedSet.size !== 0) for (const fence of this.added.search(box)) out.push(fence);
    return out;
  }

  /**
   * Calls `visit` with each fence whose box intersects `box` and that box, like search() without
   * building the list: a crowded map view counts 100,000 fences this way. The box comes from the packed
   * tree's arrays; reading it from the fences (objects of several shapes) made counting ten times slower.
   */
  visit(box: Box, visit: (fence: PreparedGeofence, minX: number, minY: number, maxX: number, maxY: number) => void): void {
    if (this.packed !== undefined) {
      const { built, retired } = this;
      // The filter sees every hit and keeps none: flatbush then builds no result array.
      this.packed.search(box.minX, box.minY, box.maxX, box.maxY, (i: number, minX: number, minY: number, maxX: number, maxY: number) => {
        const fence = built[i];
        if (retired.size === 0 || !retired.has(fence)) visit(fence, minX, minY, maxX, maxY);
        return false;
      });
    }
    if (this.addedSet.size !== 0) for (const fence of this.added.search(box)) visit(fence, fence.minX, fence.minY, fence.maxX, fence.maxY);
  }

  private maybeRebuild(): void {
    const changes = this.retired.size + this.addedSet.size;
    if (changes < Math.max(REBUILD_MIN_CHANGES, this.built.length * REBUILD_FRACTION)) return;
    const fences: PreparedGeofence[] = [];
    for (const fence of this.built) if (!this.retired.has(fence)) fences.push(fence);
    for (const fence of this.added.all()) fences.push(fence);
    this.load(fences);
  }
}

function pack(fences: readonly PreparedGeofence[]): Flatbush | undefined {
  if (fences.length === 0) return undefined;
  const tree = new Flatbush(fences.length, NODE_SIZE);
  for (const fence of fences) tree.add(fence.minX, fence.minY, fence.maxX, fence.maxY);
  tree.finish();
  return tree;
}
