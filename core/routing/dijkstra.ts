// Plain Dijkstra on a mode's base arcs, for what the hierarchy cannot answer: routes that avoid some
// segments (tolls, highways, ferries, border crossings) and the penalised searches for alternatives.
// One source set to many targets; stops once every target is settled or nothing is left.
import { MinHeap } from './min-heap';
import type { SearchResult, SearchSeed } from './search-seed';

export interface BaseGraph {
  vertexCount: number;
  /** Arcs by tail, CSR. */
  outFirst: Uint32Array;
  outArc: Uint32Array;
  arcTail: Uint32Array;
  arcHead: Uint32Array;
  arcWeight: Float32Array;
  arcDistance: Float32Array;
  /** Travel seconds of each arc (its weight less routing penalties). */
  arcSeconds: Float32Array;
}

export interface ArcFilter {
  /** False drops the arc. */
  allowed?(arc: number): boolean;
  /** Multiplies the arc's weight while searching (alternatives); the result reports true costs. */
  factor?(arc: number): number;
}

export class BaseSearch {
  private readonly cost: Float64Array;
  private readonly trueCost: Float64Array;
  private readonly metres: Float64Array;
  private readonly seconds: Float64Array;
  private readonly parentArc: Int32Array;
  private readonly seed: Int32Array;
  private readonly stamp: Uint32Array;
  private generation = 0;
  private readonly heap = new MinHeap(1024);

  constructor(private readonly g: BaseGraph) {
    const n = g.vertexCount;
    this.cost = new Float64Array(n);
    this.trueCost = new Float64Array(n);
    this.metres = new Float64Array(n);
    this.seconds = new Float64Array(n);
    this.parentArc = new Int32Array(n);
    this.seed = new Int32Array(n);
    this.stamp = new Uint32Array(n);
  }

  /**
   * Best route from the sources to each target set (null where unreachable). With `maxCost`, the search
   * stops when its queue passes that cost, and a target it has not settled by then is null too.
   */
  run(sources: readonly SearchSeed[], targets: ReadonlyArray<readonly SearchSeed[]>, filter: ArcFilter = {}, withPath = true, maxCost = Infinity): Array<SearchResult | null> {
    const { g, heap, cost, trueCost, metres, seconds, parentArc, seed, stamp } = this;
    const gen = ++this.generation;
    heap.clear();
    const has = (v: number) => stamp[v] === gen;
    for (const s of sources) {
      if (has(s.vertex) && cost[s.vertex] <= s.cost) continue;
      stamp[s.vertex] = gen;
      cost[s.vertex] = s.cost;
      trueCost[s.vertex] = s.cost;
      metres[s.vertex] = s.metres;
      seconds[s.vertex] = s.seconds;
      parentArc[s.vertex] = -1;
      seed[s.vertex] = s.option;
      heap.push(s.vertex, s.cost);
    }
    // Target vertices → the target sets waiting on them.
    const waiting = new Map<number, number[]>();
    targets.forEach((set, j) => {
      for (const t of set) {
        let list = waiting.get(t.vertex);
        if (!list) waiting.set(t.vertex, (list = []));
        list.push(j);
      }
    });
    const best: Array<{ cost: number; at: SearchSeed; vertex: number } | null> = targets.map(() => null);
    let open = targets.length;
    const settledTargets = new Set<number>();
    while (heap.size > 0 && open > 0) {
      const v = heap.pop();
      const key = heap.lastKey;
      if (key > cost[v]) continue;
      if (key > maxCost) {
        for (let j = 0; j < targets.length; j++) if (!settledTargets.has(j) && !(best[j] !== null && best[j]!.cost <= key)) best[j] = null;
        break;
      }
      const js = waiting.get(v);
      if (js) {
        for (const j of js) {
          for (const t of targets[j]) {
            if (t.vertex !== v) continue;
            const c = key + t.cost;
            if (best[j] === null || c < best[j]!.cost) best[j] = { cost: c, at: t, vertex: v };
          }
        }
      }
      // A target is final once the queue passes its best cost.
      for (let j = 0; j < targets.length; j++) {
        if (!settledTargets.has(j) && best[j] !== null && best[j]!.cost <= key) {
          settledTargets.add(j);
          open--;
        }
      }
      for (let i = g.outFirst[v]; i < g.outFirst[v + 1]; i++) {
        const a = g.outArc[i];
        if (filter.allowed && !filter.allowed(a)) continue;
        const w = g.arcHead[a];
        const c = key + g.arcWeight[a] * (filter.factor ? filter.factor(a) : 1);
        if (!has(w) || c < cost[w]) {
          stamp[w] = gen;
          cost[w] = c;
          trueCost[w] = trueCost[v] + g.arcWeight[a];
          metres[w] = metres[v] + g.arcDistance[a];
          seconds[w] = seconds[v] + g.arcSeconds[a];
          parentArc[w] = a;
          seed[w] = seed[v];
          heap.push(w, c);
        }
      }
    }
    return best.map((b) => {
      if (b === null) return null;
      const arcs: number[] = [];
      if (withPath) {
        for (let v = b.vertex; parentArc[v] >= 0; ) {
          const a = parentArc[v];
          arcs.push(a);
          v = g.arcTail[a];
        }
        arcs.reverse();
      }
      return { cost: trueCost[b.vertex] + b.at.cost, metres: metres[b.vertex] + b.at.metres, seconds: seconds[b.vertex] + b.at.seconds, sourceOption: seed[b.vertex], targetOption: b.at.option, arcs };
    });
  }

  /**
   * Every vertex a search from `sources` labels without passing `maxCost` travel seconds (isochrones):
   * settled ones cost at most `maxCost`; the others are the arcs the time runs out on, labelled with
   * what they would cost in full. Travel seconds, not weights: routing penalties do not shrink the area.
   * Same arc filter as `run`.
   */
  within(sources: readonly SearchSeed[], maxCost: number, filter: ArcFilter = {}): { vertices: number[]; costs: number[] } {
    const { g, heap, cost, stamp } = this;
    const gen = ++this.generation;
    heap.clear();
    const labelled: number[] = [];
    const label = (v: number, c: number) => {
      if (stamp[v] !== gen) labelled.push(v);
      stamp[v] = gen;
      cost[v] = c;
      heap.push(v, c);
    };
    for (const s of sources) if (stamp[s.vertex] !== gen || s.seconds < cost[s.vertex]) label(s.vertex, s.seconds);
    while (heap.size > 0) {
      const v = heap.pop();
      const key = heap.lastKey;
      if (key > cost[v]) continue;
      if (key > maxCost) break;
      for (let i = g.outFirst[v]; i < g.outFirst[v + 1]; i++) {
        const a = g.outArc[i];
        if (filter.allowed && !filter.allowed(a)) continue;
        const w = g.arcHead[a];
        const c = key + g.arcSeconds[a];
        if (stamp[w] !== gen || c < cost[w]) label(w, c);
      }
    }
    return { vertices: labelled, costs: labelled.map((v) => cost[v]) };
  }
}
