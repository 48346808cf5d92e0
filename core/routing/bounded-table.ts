// Road distances between nearby snapped points (map matching's transitions): from each source, a
// Dijkstra on the mode's base arcs that stops as soon as every target is decided, instead of the
// hierarchy's many-to-many, whose upward searches climb the whole hierarchy for points 50 m apart.
//
// Decided means the same answer the hierarchy gives: the metres of the least-cost path when they are
// within `maxMetres`, else Infinity. A target is decided once the queue's key passes its best cost; or,
// once no queued label is within `maxMetres` (every later path is longer, as arcs have no negative
// length), when its best path is missing or too long: any cheaper path still to come is too long too.
// A search that reaches `maxCost` first leaves the undecided targets NaN, for the caller to ask the
// hierarchy (slow roads, restricted-access penalties): the cap bounds the work, never the answer.
//
// `maxWeight` does bound the answer: a pair whose least-cost path costs more is Infinity, impossible, as
// OSRM's map matching refuses a transition over its weight bound (the straight-line distance plus a
// delta, at an assumed slowest speed; docs/routing-engine.md, map matching). Searches are in cost order,
// so once the queue's key passes it every open target is past it and the search stops there, decided,
// instead of searching on (to the cap, then the hierarchy) to learn that the only path to a target is a
// long loop, e.g. a u-turn round the block to the other side of a divided road.
//
// Each search also keeps its tree, so the path of every pair it answers can be handed back (FoundPaths):
// map matching's legs between the chosen candidates then need no search of their own. The search makes
// the same heap operations in the same order as BaseSearch.run (dijkstra.ts) up to the point where that
// one settles a single target, so the path is the one BaseSearch finds, ties included.
import type { BaseGraph } from './dijkstra';
import { MinHeap } from './min-heap';
import { grownTo } from './typed-array-growth';
import type { SearchResult, SearchSeed } from './search-seed';

/** In `pathOf`: the pair's best is the direct path along a shared segment (no arcs). */
export const DIRECT_PATH = -2;
/** In `pathOf`: no path kept (none within the bound, or the pair was left undecided). */
export const NO_PATH = -1;

/**
 * The paths a BoundedTable run answered with, in typed arrays that grow as needed: one entry per pair,
 * its arcs in one shared pool. Cleared by the caller (one map match keeps the paths of all its steps).
 */
export class FoundPaths {
  private arcs = new Int32Array(2048);
  private arcCount = 0;
  private first = new Int32Array(256);
  private length = new Int32Array(256);
  private cost = new Float64Array(256);
  private metres = new Float64Array(256);
  private seconds = new Float64Array(256);
  private sourceOption = new Int32Array(256);
  private targetOption = new Int32Array(256);
  count = 0;

  clear(): void {
    this.count = 0;
    this.arcCount = 0;
  }

  /** Room for `more` arcs; returns where they go. */
  reserveArcs(more: number): Int32Array {
    if (this.arcCount + more > this.arcs.length) {
      this.arcs = grownTo(this.arcs, Math.max(this.arcs.length * 2, this.arcCount + more));
    }
    return this.arcs;
  }

  /** Records a path whose `arcCount` arcs were written after the current end of the pool; returns its index. */
  add(arcCount: number, cost: number, metres: number, seconds: number, sourceOption: number, targetOption: number): number {
    if (this.count === this.first.length) this.grow();
    const k = this.count++;
    this.first[k] = this.arcCount;
    this.length[k] = arcCount;
    this.arcCount += arcCount;
    this.cost[k] = cost;
    this.metres[k] = metres;
    this.seconds[k] = seconds;
    this.sourceOption[k] = sourceOption;
    this.targetOption[k] = targetOption;
    return k;
  }

  /** Where the next path's arcs start in the pool. */
  get end(): number {
    return this.arcCount;
  }

  result(k: number): SearchResult {
    const arcs = Array.from(this.arcs.subarray(this.first[k], this.first[k] + this.length[k]));
    return { cost: this.cost[k], metres: this.metres[k], seconds: this.seconds[k], sourceOption: this.sourceOption[k], targetOption: this.targetOption[k], arcs };
  }

  private grow(): void {
    const size = this.first.length * 2;
    this.first = grownTo(this.first, size);
    this.length = grownTo(this.length, size);
    this.cost = grownTo(this.cost, size);
    this.metres = grownTo(this.metres, size);
    this.seconds = grownTo(this.seconds, size);
    this.sourceOption = grownTo(this.sourceOption, size);
    this.targetOption = grownTo(this.targetOption, size);
  }

}

export class BoundedTable {
  private readonly cost: Float64Array;
  private readonly metres: Float64Array;
  private readonly stamp: Uint32Array;
  /** Per labelled vertex: the arc it was reached by (-1 at a source seed) and the source seed it grew from. */
  private readonly parentArc: Int32Array;
  private readonly seedOf: Int32Array;
  private generation = 0;
  private readonly heap = new MinHeap(256);
  /** Target seeds waiting at a vertex: a list per vertex (stamped), in reused arrays. */
  private readonly waitStamp: Uint32Array;
  private readonly waitHead: Int32Array;
  /** Last seed of a vertex's list: seeds are listed in the targets' order, as BaseSearch looks at them. */
  private readonly waitTail: Int32Array;
  private waitNext = new Int32Array(64);
  private waitTarget = new Int32Array(64);
  private waitCost = new Float64Array(64);
  private waitMetres = new Float64Array(64);
  private waitSeconds = new Float64Array(64);
  private waitOption = new Int32Array(64);
  private best = new Float64Array(8);
  /** Per target: the vertex and the target seed (wait index) its best path ends with; -1 for none (or direct). */
  private bestVertex = new Int32Array(8);
  private bestWait = new Int32Array(8);
  private bestMetres = new Float64Array(8);
  private final = new Uint8Array(8);
  /** Vertices settled by the last `run`, all sources together (for benchmarks and tests). */
  settled = 0;

  constructor(private readonly g: BaseGraph) {
    const n = g.vertexCount;
    this.cost = new Float64Array(n);
    this.metres = new Float64Array(n);
    this.stamp = new Uint32Array(n);
    this.parentArc = new Int32Array(n);
    this.seedOf = new Int32Array(n);
    this.waitStamp = new Uint32Array(n);
    this.waitHead = new Int32Array(n);
    this.waitTail = new Int32Array(n);
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.waitStamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  /**
   * Fills `out` (row-major, sources × targets) with the metres of the least-cost path from each source
   * to each target, Infinity when it is longer than `maxMetres`, costs more than `maxWeight` or there is
   * none, NaN when undecided within `maxCost` (only when `maxCost` < `maxWeight`). `direct` (same
   * layout, Infinity where none) holds the cost and metres of going
   * straight along a shared segment, which no arc path represents; it wins when strictly cheaper, as in
   * ModeRouter.table. Returns the number of NaN entries.
   *
   * With `found`, each finite entry's path is kept there and `pathOf` (same layout) says where: an index
   * into `found`, DIRECT_PATH, or NO_PATH (Infinity and NaN entries).
   */
  run(
    sources: ReadonlyArray<readonly SearchSeed[]>, targets: ReadonlyArray<readonly SearchSeed[]>,
    directCost: Float64Array, directMetres: Float64Array, maxMetres: number, maxWeight: number, maxCost: number, out: Float64Array,
    found?: FoundPaths, pathOf?: Int32Array,
  ): number {
    const T = targets.length;
    if (this.best.length < T) {
      this.best = new Float64Array(T);
      this.bestMetres = new Float64Array(T);
      this.final = new Uint8Array(T);
      this.bestVertex = new Int32Array(T);
      this.bestWait = new Int32Array(T);
    }
    const { g, heap, cost, metres, stamp, parentArc, seedOf, best, bestMetres, final, bestVertex, bestWait } = this;
    this.settled = 0;
    // The targets' seeds, by vertex; the same for every source.
    const waitGen = this.nextGeneration();
    let seeds = 0;
    for (let j = 0; j < T; j++) for (const _ of targets[j]) seeds++;
    if (this.waitNext.length < seeds) {
      const size = Math.max(seeds, this.waitNext.length * 2);
      this.waitNext = new Int32Array(size);
      this.waitTarget = new Int32Array(size);
      this.waitCost = new Float64Array(size);
      this.waitMetres = new Float64Array(size);
      this.waitSeconds = new Float64Array(size);
      this.waitOption = new Int32Array(size);
    }
    let k = 0;
    for (let j = 0; j < T; j++) {
      for (const t of targets[j]) {
        const v = t.vertex;
        this.waitNext[k] = -1;
        if (this.waitStamp[v] === waitGen) this.waitNext[this.waitTail[v]] = k;
        else this.waitHead[v] = k;
        this.waitStamp[v] = waitGen;
        this.waitTail[v] = k;
        this.waitTarget[k] = j;
        this.waitCost[k] = t.cost;
        this.waitMetres[k] = t.metres;
        this.waitSeconds[k] = t.seconds;
        this.waitOption[k] = t.option;
        k++;
      }
    }
    // The search stops at the lower of the two: past the bound it stops decided, past the cap undecided.
    const bounded = maxWeight <= maxCost;
    const limit = bounded ? maxWeight : maxCost;
    let undecided = 0;
    for (let i = 0; i < sources.length; i++) {
      const gen = this.nextGeneration();
      heap.clear();
      // Labels in the queue whose metres are within the bound: while there are some, a target may still
      // be reached by a short enough path.
      let shortOpen = 0;
      // Of those, the ones within the limit (`maxWeight` or `maxCost`): once none is left and every open
      // target's best is past it, nothing the search can still do within it decides them (see below).
      let shortUnderCap = 0;
      const seeds = sources[i];
      for (let si = 0; si < seeds.length; si++) {
        const s = seeds[si];
        const v = s.vertex;
        if (stamp[v] === gen) {
          if (cost[v] <= s.cost) continue;
          if (metres[v] <= maxMetres) {
            shortOpen--;
            if (cost[v] <= limit) shortUnderCap--;
          }
        }
        stamp[v] = gen;
        cost[v] = s.cost;
        metres[v] = s.metres;
        parentArc[v] = -1;
        seedOf[v] = si;
        if (s.metres <= maxMetres) {
          shortOpen++;
          if (s.cost <= limit) shortUnderCap++;
        }
        heap.push(v, s.cost);
      }
      // The least best cost of the open targets: below it a key decides nothing (unless no short label is
      // left), so the targets are looked at only when it is reached, not at every vertex settled.
      let openMin = Infinity;
      for (let j = 0; j < T; j++) {
        best[j] = directCost[i * T + j];
        bestMetres[j] = directMetres[i * T + j];
        bestVertex[j] = -1;
        final[j] = 0;
        if (best[j] < openMin) openMin = best[j];
      }
      let open = T;
      let capped = false;
      while (heap.size > 0 && open > 0) {
        const key = heap.peekKey();
        // Decide what the key now settles.
        if (key >= openMin || shortOpen === 0) {
          openMin = Infinity;
          for (let j = 0; j < T; j++) {
            if (final[j] === 1) continue;
            if (best[j] <= key || (shortOpen === 0 && !(bestMetres[j] <= maxMetres))) {
              final[j] = 1;
              open--;
            } else if (best[j] < openMin) openMin = best[j];
          }
          if (open === 0) break;
        }
        // Past the cap, or (the restricted-access case: a target behind a turn onto a private road costs
        // an hour) every open target's best is past it and no short label within it is queued: a target
        // still open can then only be decided below the cap by a long path reaching it cheaper than its
        // best, which makes it Infinity, what the hierarchy answers too. Searching on to the cap would
        // settle the whole neighbourhood within `maxCost` seconds (thousands of vertices) to learn that.
        // Past the weight bound the same two tests decide instead: every open target's best, and every
        // path still to come, is then over the bound or over `maxMetres`, so the target is Infinity.
        if (key > limit || (shortUnderCap === 0 && openMin > limit)) {
          capped = !bounded;
          break;
        }
        const v = heap.pop();
        if (key > cost[v]) continue;
        this.settled++;
        const m = metres[v];
        if (m <= maxMetres) {
          shortOpen--;
          shortUnderCap--;
        }
        if (this.waitStamp[v] === waitGen) {
          for (let w = this.waitHead[v]; w >= 0; w = this.waitNext[w]) {
            const j = this.waitTarget[w];
            const c = key + this.waitCost[w];
            if (c < best[j]) {
              best[j] = c;
              bestMetres[j] = m + this.waitMetres[w];
              bestVertex[j] = v;
              bestWait[j] = w;
              if (final[j] === 0 && c < openMin) openMin = c;
            }
          }
        }
        for (let a = g.outFirst[v]; a < g.outFirst[v + 1]; a++) {
          const arc = g.outArc[a];
          const w = g.arcHead[arc];
          const c = key + g.arcWeight[arc];
          if (stamp[w] === gen) {
            if (c >= cost[w]) continue;
            if (metres[w] <= maxMetres) {
              shortOpen--;
              if (cost[w] <= limit) shortUnderCap--;
            }
          }
          const mw = m + g.arcDistance[arc];
          stamp[w] = gen;
          cost[w] = c;
          metres[w] = mw;
          parentArc[w] = arc;
          seedOf[w] = seedOf[v];
          if (mw <= maxMetres) {
            shortOpen++;
            if (c <= limit) shortUnderCap++;
          }
          heap.push(w, c);
        }
      }
      // An empty queue decides every target: nothing else is reachable.
      for (let j = 0; j < T; j++) {
        const decided = final[j] === 1 || !capped;
        if (!decided) undecided++;
        const value = !decided ? NaN : bestMetres[j] <= maxMetres && best[j] <= maxWeight && best[j] < Infinity ? bestMetres[j] : Infinity;
        out[i * T + j] = value;
        if (pathOf && found) pathOf[i * T + j] = Number.isFinite(value) ? (bestVertex[j] < 0 ? DIRECT_PATH : this.keep(found, seeds, bestVertex[j], bestWait[j])) : NO_PATH;
      }
    }
    return undecided;
  }

  /** Copies the path of the last search from its source seed to vertex v, ending with target seed w, into `found`. */
  private keep(found: FoundPaths, seeds: readonly SearchSeed[], v: number, w: number): number {
    const { g, parentArc } = this;
    let count = 0;
    for (let u = v; parentArc[u] >= 0; u = g.arcTail[parentArc[u]]) count++;
    const pool = found.reserveArcs(count);
    const start = found.end;
    let at = start + count;
    for (let u = v; parentArc[u] >= 0; u = g.arcTail[parentArc[u]]) pool[--at] = parentArc[u];
    // Travel seconds summed from the source as BaseSearch sums them, so the leg's times are the same to the bit.
    const seed = seeds[this.seedOf[v]];
    let seconds = seed.seconds;
    for (let a = start; a < start + count; a++) seconds += g.arcSeconds[pool[a]];
    return found.add(count, this.cost[v] + this.waitCost[w], this.metres[v] + this.waitMetres[w], seconds + this.waitSeconds[w], seed.option, this.waitOption[w]);
  }
}
