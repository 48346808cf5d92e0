// Contraction hierarchies (Geisberger et al. 2008) for one mode's graph: vertices are contracted one by
// one in order of an edge-difference priority (shortcuts added minus edges removed, plus contracted
// neighbours, kept current for the neighbours of each contracted vertex); a shortcut u→w replaces
// u→v→w unless a bounded witness search finds a path at most as short without v. The result is two
// upward CSR graphs (forward from a source, backward from a target) whose edges unpack to base arcs.
import { MinHeap } from './min-heap';

export interface BaseArcs {
  /** Number of vertices. */
  vertexCount: number;
  tail: Uint32Array;
  head: Uint32Array;
  /** Seconds. */
  weight: Float32Array;
  /** Metres. */
  distance: Float32Array;
}

/** Upward edges of each vertex in CSR form: `first[v] … first[v+1]-1`. */
export interface UpwardGraph {
  first: Uint32Array;
  /** The other end (a higher-ranked vertex). */
  other: Uint32Array;
  weight: Float32Array;
  distance: Float32Array;
  /** Edge id, for unpacking. */
  edge: Uint32Array;
}

export interface Hierarchy {
  rank: Uint32Array;
  forward: UpwardGraph;
  backward: UpwardGraph;
  /** Shortcut: first child edge; base edge: -1. */
  childA: Int32Array;
  /** Shortcut: second child edge; base edge: its base arc. */
  childB: Int32Array;
}

const SIMULATE_SETTLE_LIMIT = 40;
const CONTRACT_SETTLE_LIMIT = 200;
/** in × out degree above which a vertex's priority is estimated, not simulated. */
const DENSE_ESTIMATE = 400;

class DynamicGraph {
  tail: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  distance: Float64Array;
  childA: Int32Array;
  childB: Int32Array;
  count = 0;
  readonly out: number[][];
  readonly in: number[][];

  constructor(vertexCount: number, capacity: number) {
    this.tail = new Uint32Array(capacity);
    this.head = new Uint32Array(capacity);
    this.weight = new Float64Array(capacity);
    this.distance = new Float64Array(capacity);
    this.childA = new Int32Array(capacity);
    this.childB = new Int32Array(capacity);
    this.out = Array.from({ length: vertexCount }, () => []);
    this.in = Array.from({ length: vertexCount }, () => []);
  }

  /** Adds u→w or improves an existing one; returns whether anything changed. */
  addOrImprove(u: number, w: number, weight: number, distance: number, a: number, b: number): boolean {
    for (const e of this.out[u]) {
      if (this.head[e] !== w) continue;
      if (this.weight[e] <= weight) return false;
      this.weight[e] = weight;
      this.distance[e] = distance;
      this.childA[e] = a;
      this.childB[e] = b;
      return true;
    }
    if (this.count === this.tail.length) this.grow();
    const e = this.count++;
    this.tail[e] = u;
    this.head[e] = w;
    this.weight[e] = weight;
    this.distance[e] = distance;
    this.childA[e] = a;
    this.childB[e] = b;
    this.out[u].push(e);
    this.in[w].push(e);
    return true;
  }

  /** Takes a contracted vertex's edges out of its neighbours' lists (they stay in the edge arrays). */
  detach(v: number): void {
    for (const e of this.in[v]) removeFrom(this.out[this.tail[e]], e);
    for (const e of this.out[v]) removeFrom(this.in[this.head[e]], e);
  }

  private grow(): void {
    const n = Math.ceil(this.tail.length * 1.5) + 16;
    const t = new Uint32Array(n); t.set(this.tail); this.tail = t;
    const h = new Uint32Array(n); h.set(this.head); this.head = h;
    const w = new Float64Array(n); w.set(this.weight); this.weight = w;
    const d = new Float64Array(n); d.set(this.distance); this.distance = d;
    const a = new Int32Array(n); a.set(this.childA); this.childA = a;
    const b = new Int32Array(n); b.set(this.childB); this.childB = b;
  }
}

function removeFrom(list: number[], e: number): void {
  const i = list.indexOf(e);
  if (i < 0) return;
  list[i] = list[list.length - 1];
  list.pop();
}

/** A Dijkstra from one vertex over not-yet-contracted vertices, skipping one, bounded in cost and size. */
class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly stamp: Uint32Array;
  private generation = 0;
  private readonly heap = new MinHeap(256);
  /** Vertices marked with the current target generation; the search ends once all are settled. */
  private readonly target: Uint32Array;
  private targetGeneration = 0;
  private targetCount = 0;

  constructor(vertexCount: number, private readonly g: DynamicGraph, private readonly contracted: Uint8Array) {
    this.dist = new Float64Array(vertexCount);
    this.stamp = new Uint32Array(vertexCount);
    this.target = new Uint32Array(vertexCount);
  }

  /** The vertices the next searches need distances to: past them, nothing is learned. */
  setTargets(targets: readonly number[]): void {
    this.targetGeneration++;
    this.targetCount = 0;
    for (const t of targets) {
      if (this.target[t] === this.targetGeneration) continue;
      this.target[t] = this.targetGeneration;
      this.targetCount++;
    }
  }

  distanceTo(v: number): number {
    return this.stamp[v] === this.generation ? this.dist[v] : Infinity;
  }

  run(source: number, skip: number, maxCost: number, settleLimit: number): void {
    this.generation++;
    const { dist, stamp, heap, g, contracted, target } = this;
    heap.clear();
    dist[source] = 0;
    stamp[source] = this.generation;
    heap.push(source, 0);
    let settled = 0;
    let targetsLeft = this.targetCount - (target[source] === this.targetGeneration ? 1 : 0);
    while (heap.size > 0 && targetsLeft > 0) {
      const u = heap.pop();
      const key = heap.lastKey;
      if (key > dist[u]) continue;
      if (key > maxCost || ++settled > settleLimit) break;
      if (u !== source && target[u] === this.targetGeneration && --targetsLeft === 0) break;
      for (const e of g.out[u]) {
        const w = g.head[e];
        if (w === skip || contracted[w]) continue;
        const nd = key + g.weight[e];
        if (stamp[w] !== this.generation || nd < dist[w]) {
          dist[w] = nd;
          stamp[w] = this.generation;
          heap.push(w, nd);
        }
      }
    }
  }
}

export interface ContractionProgress {
  (contracted: number, total: number): void;
}

export function contract(arcs: BaseArcs, onProgress?: ContractionProgress): Hierarchy {
  const n = arcs.vertexCount;
  const g = new DynamicGraph(n, arcs.tail.length * 2 + 16);
  for (let i = 0; i < arcs.tail.length; i++) {
    if (arcs.tail[i] === arcs.head[i]) continue;
    g.addOrImprove(arcs.tail[i], arcs.head[i], arcs.weight[i], arcs.distance[i], -1, i);
  }
  const contracted = new Uint8Array(n);
  const deletedNeighbours = new Uint32Array(n);
  const priority = new Float64Array(n);
  const witness = new WitnessSearch(n, g, contracted);

  // The pairs (in edge, out edge) that the last simulation of a popped vertex found no witness for:
  // contracting it searches further for those only (a witness found stays one: edges are only added).
  const pending: number[] = [];
  let pendingFor = -1;
  const targets: number[] = [];

  /** Priority of contracting v (edge difference and contracted neighbours); `record` keeps its open pairs. */
  const simulate = (v: number, record: boolean): number => {
    pendingFor = -1;
    let shortcuts = 0;
    let removed = 0;
    let maxOut = 0;
    targets.length = 0;
    for (const e of g.out[v]) if (!contracted[g.head[e]]) { targets.push(g.head[e]); if (g.weight[e] > maxOut) maxOut = g.weight[e]; }
    const outs = targets.length;
    removed += outs;
    // A dense vertex (late in the order, in the core) is estimated without witness searches: it
    // comes last anyway, and simulating it after every neighbour's contraction is quadratic.
    if (outs * g.in[v].length > DENSE_ESTIMATE) {
      const ins = g.in[v].length;
      return 2 * (ins * outs - ins - outs) + deletedNeighbours[v];
    }
    witness.setTargets(targets);
    pending.length = 0;
    for (const ein of g.in[v]) {
      const u = g.tail[ein];
      if (contracted[u]) continue;
      removed++;
      const wIn = g.weight[ein];
      witness.run(u, v, wIn + maxOut, SIMULATE_SETTLE_LIMIT);
      for (const eout of g.out[v]) {
        const w = g.head[eout];
        if (w === u || contracted[w]) continue;
        if (witness.distanceTo(w) <= wIn + g.weight[eout]) continue;
        shortcuts++;
        if (record) pending.push(ein, eout);
      }
    }
    if (record) pendingFor = v;
    return 2 * (shortcuts - removed) + deletedNeighbours[v];
  };

  /** Adds v's shortcuts: the pairs its recorded simulation left open (all pairs after an estimate), searched further. */
  const contractVertex = (v: number): void => {
    if (pendingFor !== v) {
      pending.length = 0;
      for (const ein of g.in[v]) {
        if (contracted[g.tail[ein]]) continue;
        for (const eout of g.out[v]) if (!contracted[g.head[eout]] && g.tail[ein] !== g.head[eout]) pending.push(ein, eout);
      }
    }
    // Pairs come grouped by in edge: one search per in-neighbour, towards its open targets only.
    for (let i = 0; i < pending.length;) {
      const ein = pending[i];
      const u = g.tail[ein];
      const wIn = g.weight[ein];
      let maxOut = 0;
      let j = i;
      targets.length = 0;
      for (; j < pending.length && pending[j] === ein; j += 2) {
        const eout = pending[j + 1];
        targets.push(g.head[eout]);
        if (g.weight[eout] > maxOut) maxOut = g.weight[eout];
      }
      witness.setTargets(targets);
      witness.run(u, v, wIn + maxOut, CONTRACT_SETTLE_LIMIT);
      for (let k = i; k < j; k += 2) {
        const eout = pending[k + 1];
        const via = wIn + g.weight[eout];
        if (witness.distanceTo(g.head[eout]) <= via) continue;
        g.addOrImprove(u, g.head[eout], via, g.distance[ein] + g.distance[eout], ein, eout);
      }
      i = j;
    }
    pendingFor = -1;
  };

  const queue = new MinHeap(n + 16);
  for (let v = 0; v < n; v++) {
    priority[v] = simulate(v, false);
    queue.push(v, priority[v]);
  }
  const rank = new Uint32Array(n);
  let done = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    const key = queue.lastKey;
    if (contracted[v] || key !== priority[v]) continue;
    // Neighbours of contracted vertices are re-evaluated here, when they come up, not after each contraction.
    // Lazy update: the priority may have grown since it was queued.
    const fresh = simulate(v, true);
    if (queue.size > 0 && fresh > queue.peekKey()) {
      priority[v] = fresh;
      queue.push(v, fresh);
      continue;
    }
    contractVertex(v);
    contracted[v] = 1;
    rank[v] = done++;
    const neighbours = new Set<number>();
    for (const e of g.out[v]) if (!contracted[g.head[e]]) neighbours.add(g.head[e]);
    for (const e of g.in[v]) if (!contracted[g.tail[e]]) neighbours.add(g.tail[e]);
    g.detach(v);
    for (const x of neighbours) {
      deletedNeighbours[x]++;
    }
    if (onProgress && (done & 4095) === 0) onProgress(done, n);
  }
  onProgress?.(n, n);
  return finish(g, rank, n);
}

function finish(g: DynamicGraph, rank: Uint32Array, n: number): Hierarchy {
  const fwdCount = new Uint32Array(n + 1);
  const bwdCount = new Uint32Array(n + 1);
  for (let e = 0; e < g.count; e++) {
    const a = g.tail[e];
    const b = g.head[e];
    if (rank[a] < rank[b]) fwdCount[a + 1]++;
    else bwdCount[b + 1]++;
  }
  for (let v = 0; v < n; v++) {
    fwdCount[v + 1] += fwdCount[v];
    bwdCount[v + 1] += bwdCount[v];
  }
  const make = (first: Uint32Array): UpwardGraph => {
    const m = first[n];
    return { first, other: new Uint32Array(m), weight: new Float32Array(m), distance: new Float32Array(m), edge: new Uint32Array(m) };
  };
  const forward = make(fwdCount);
  const backward = make(bwdCount);
  const fPos = forward.first.slice(0, n);
  const bPos = backward.first.slice(0, n);
  for (let e = 0; e < g.count; e++) {
    const a = g.tail[e];
    const b = g.head[e];
    const [graph, at, other] = rank[a] < rank[b] ? [forward, fPos[a]++, b] : [backward, bPos[b]++, a];
    graph.other[at] = other;
    graph.weight[at] = g.weight[e];
    graph.distance[at] = g.distance[e];
    graph.edge[at] = e;
  }
  return { rank, forward, backward, childA: g.childA.slice(0, g.count), childB: g.childB.slice(0, g.count) };
}

/** The base arcs of an edge, in path order. */
export function unpackEdge(h: Pick<Hierarchy, 'childA' | 'childB'>, edge: number, out: number[]): void {
  const stack = [edge];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const a = h.childA[e];
    if (a < 0) out.push(h.childB[e]);
    else {
      stack.push(h.childB[e]);
      stack.push(a);
    }
  }
}
