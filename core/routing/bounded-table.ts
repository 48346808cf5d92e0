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
import type { BaseGraph } from './dijkstra';
import { MinHeap } from './min-heap';
import type { SearchSeed } from './search-seed';

export class BoundedTable {
  private readonly cost: Float64Array;
  private readonly metres: Float64Array;
  private readonly stamp: Uint32Array;
  private generation = 0;
  private readonly heap = new MinHeap(256);
  /** Target seeds waiting at a vertex: a list per vertex (stamped), in reused arrays. */
  private readonly waitStamp: Uint32Array;
  private readonly waitHead: Int32Array;
  private waitNext = new Int32Array(64);
  private waitTarget = new Int32Array(64);
  private waitCost = new Float64Array(64);
  private waitMetres = new Float64Array(64);
  private best = new Float64Array(8);
  private bestMetres = new Float64Array(8);
  private final = new Uint8Array(8);
  /** Vertices settled by the last `run`, all sources together (for benchmarks and tests). */
  settled = 0;

  constructor(private readonly g: BaseGraph) {
    const n = g.vertexCount;
    this.cost = new Float64Array(n);
    this.metres = new Float64Array(n);
    this.stamp = new Uint32Array(n);
    this.waitStamp = new Uint32Array(n);
    this.waitHead = new Int32Array(n);
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
   * to each target, Infinity when it is longer than `maxMetres` or there is none, NaN when undecided
   * within `maxCost`. `direct` (same layout, Infinity where none) holds the cost and metres of going
   * straight along a shared segment, which no arc path represents; it wins when strictly cheaper, as in
   * ModeRouter.table. Returns the number of NaN entries.
   */
  run(
    sources: ReadonlyArray<readonly SearchSeed[]>, targets: ReadonlyArray<readonly SearchSeed[]>,
    directCost: Float64Array, directMetres: Float64Array, maxMetres: number, maxCost: number, out: Float64Array,
  ): number {
    const T = targets.length;
    if (this.best.length < T) {
      this.best = new Float64Array(T);
      this.bestMetres = new Float64Array(T);
      this.final = new Uint8Array(T);
    }
    const { g, heap, cost, metres, stamp, best, bestMetres, final } = this;
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
    }
    let k = 0;
    for (let j = 0; j < T; j++) {
      for (const t of targets[j]) {
        const v = t.vertex;
        this.waitNext[k] = this.waitStamp[v] === waitGen ? this.waitHead[v] : -1;
        this.waitStamp[v] = waitGen;
        this.waitHead[v] = k;
        this.waitTarget[k] = j;
        this.waitCost[k] = t.cost;
        this.waitMetres[k] = t.metres;
        k++;
      }
    }
    let undecided = 0;
    for (let i = 0; i < sources.length; i++) {
      const gen = this.nextGeneration();
      heap.clear();
      // Labels in the queue whose metres are within the bound: while there are some, a target may still
      // be reached by a short enough path.
      let shortOpen = 0;
      for (const s of sources[i]) {
        const v = s.vertex;
        if (stamp[v] === gen) {
          if (cost[v] <= s.cost) continue;
          if (metres[v] <= maxMetres) shortOpen--;
        }
        stamp[v] = gen;
        cost[v] = s.cost;
        metres[v] = s.metres;
        if (s.metres <= maxMetres) shortOpen++;
        heap.push(v, s.cost);
      }
      // The least best cost of the open targets: below it a key decides nothing (unless no short label is
      // left), so the targets are looked at only when it is reached, not at every vertex settled.
      let openMin = Infinity;
      for (let j = 0; j < T; j++) {
        best[j] = directCost[i * T + j];
        bestMetres[j] = directMetres[i * T + j];
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
        if (key > maxCost) {
          capped = true;
          break;
        }
        const v = heap.pop();
        if (key > cost[v]) continue;
        this.settled++;
        const m = metres[v];
        if (m <= maxMetres) shortOpen--;
        if (this.waitStamp[v] === waitGen) {
          for (let w = this.waitHead[v]; w >= 0; w = this.waitNext[w]) {
            const j = this.waitTarget[w];
            const c = key + this.waitCost[w];
            if (c < best[j]) {
              best[j] = c;
              bestMetres[j] = m + this.waitMetres[w];
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
            if (metres[w] <= maxMetres) shortOpen--;
          }
          const mw = m + g.arcDistance[arc];
          stamp[w] = gen;
          cost[w] = c;
          metres[w] = mw;
          if (mw <= maxMetres) shortOpen++;
          heap.push(w, c);
        }
      }
      // An empty queue decides every target: nothing else is reachable.
      for (let j = 0; j < T; j++) {
        const decided = final[j] === 1 || !capped;
        if (!decided) undecided++;
        out[i * T + j] = !decided ? NaN : bestMetres[j] <= maxMetres && best[j] < Infinity ? bestMetres[j] : Infinity;
      }
    }
    return undecided;
  }
}
