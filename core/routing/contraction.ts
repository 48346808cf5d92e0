// Contraction hierarchies (Geisberger et al. 2008) for one mode's graph: vertices are contracted one by
// one in priority order (OSRM's: edges added over edges removed, the same counted in base arcs, plus
// the vertex's depth in the hierarchy so far), re-simulated lazily when a vertex comes up; a shortcut
// u→w replaces u→v→w unless a bounded witness search finds a path at most as short without v. The
// result is two upward CSR graphs (forward from a source, backward from a target) whose edges unpack
// to base arcs. The graph and the witness search are contraction-graph.ts; contraction-rounds.ts
// contracts in rounds of independent vertices on several threads (opt-in, `roundsFrom`).
import { MinHeap } from './min-heap';
import {
  CONTRACT_SETTLE_LIMIT, DynamicGraph, EdgeChunk, FinishedEdgesInMemory, SIMULATE_SETTLE_LIMIT, WitnessSearch, priorityOf,
  progressClock, type BaseArcs, type ContractionProgress, type FinishedEdges,
} from './contraction-graph';
import { contractInRounds, roundControl, type ContractionHelpers, type HelperSource, type IndependenceCheck, type RoundsResult, type RoundStats } from './contraction-rounds';

export { helpRounds, type ContractionHelpers, type IndependenceCheck, type RoundArrays, type RoundStats } from './contraction-rounds';
export { EDGE_CHUNK, EdgeChunk, FinishedEdgesInMemory, type BaseArcs, type ContractionProgress, type FinishedEdges } from './contraction-graph';

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

export interface ContractionOptions {
  /** Where finished edges go; default in memory. Closed by contract(). */
  finishedEdges?: FinishedEdges;
  /**
   * Every vertex once, in the order to contract them (another graph's order over the same roads, see
   * contractionOrder): no priorities are simulated. Any order gives exact distances; a good one keeps the
   * shortcuts few, and simulating priorities is most of an ordered contraction's work.
   */
  order?: Uint32Array;
  /**
   * Graphs of at least this many vertices are contracted in rounds of independent vertices
   * (contraction-rounds.ts), which several threads share; smaller ones vertex by vertex with lazy
   * updates. Whatever `threads` is, the same graph gives the same hierarchy. Default
   * ROUNDS_FROM_VERTICES: never, for now (on Baltimore ×4×4's car graph the rounds took 24.2 CPU-s on one
   * thread against the queue's 15.4 with independence judged only near a change, and were slower in wall
   * time on two threads of a loaded machine, docs/routing-engine.md).
   */
  roundsFrom?: number;
  /**
   * Threads for a contraction in rounds, the caller's included (default 1: the caller's alone); a
   * function is asked again before every round, so a contraction takes a core that frees up meanwhile
   * (or leaves one when asked to).
   */
  threads?: number | (() => number);
  /**
   * Starts `count` helper threads running helpRounds() with `control`, numbered from `first`, each waiting
   * past the phase word `seen` (undefined: none could start, the caller does it all).
   */
  startHelpers?: (count: number, control: Int32Array, vertexCount: number, first: number, seen: number) => ContractionHelpers | undefined;
  /** A contraction in rounds: how independence is judged (contraction-rounds.ts; the same rounds either way). */
  independence?: IndependenceCheck;
  /** A contraction in rounds: told what it did when done. */
  onRounds?: (stats: RoundStats) => void;
  /**
   * Called once the graph being contracted is garbage, before the hierarchy is assembled: a worker
   * collects it then (left to V8, Baltimore ×8×8's car graph re-contracted still held its lists and
   * slots half-way through the assembling: 397 MiB of arrays where the hierarchy and arcs take ~200).
   */
  afterContracting?: () => void;
}

/** See ContractionOptions.roundsFrom. */
export const ROUNDS_FROM_VERTICES = Infinity;

/**
 * The order of `rank` (a hierarchy's rank per vertex) for a graph of `vertexCount` vertices whose first
 * `shared` vertices are the ranked graph's own: any other takes the rank of `stand(v)` (its original,
 * for a copied vertex) and comes right after it; ties in vertex order. A counting sort on 2 × rank (+1
 * for a copy): linear, where a comparator sort of a region's tens of millions of vertices took a minute.
 */
export function orderByRank(rank: Uint32Array, vertexCount: number, shared: number, stand: (v: number) => number): Uint32Array {
  const key = new Uint32Array(vertexCount);
  let top = 0;
  for (let v = 0; v < vertexCount; v++) {
    const k = v < shared ? rank[v] * 2 : rank[stand(v)] * 2 + 1;
    key[v] = k;
    if (k > top) top = k;
  }
  // at[k]: where the first vertex of key k goes.
  const at = new Uint32Array(top + 2);
  for (let v = 0; v < vertexCount; v++) at[key[v] + 1]++;
  for (let k = 0; k <= top; k++) at[k + 1] += at[k];
  const order = new Uint32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) order[at[key[v]]++] = v;
  return order;
}

export function contract(arcs: BaseArcs, onProgress?: ContractionProgress, options: ContractionOptions = {}): Hierarchy {
  const n = arcs.vertexCount;
  const finished = options.finishedEdges ?? new FinishedEdgesInMemory();
  try {
    if (options.order !== undefined && options.order.length !== n) throw new RangeError(`contraction order has ${options.order.length} vertices, the graph ${n}`);
    if (options.order === undefined && n >= (options.roundsFrom ?? ROUNDS_FROM_VERTICES)) return contractByRounds(arcs, n, finished, onProgress, options);
    return contractInto(arcs, n, finished, onProgress, options.order, options.afterContracting);
  } finally {
    finished.close();
  }
}

function contractByRounds(arcs: BaseArcs, n: number, finished: FinishedEdges, onProgress: ContractionProgress | undefined, options: ContractionOptions): Hierarchy {
  const control = roundControl();
  const { threads = 1, startHelpers } = options;
  const source: HelperSource | undefined = startHelpers === undefined ? undefined : {
    threads: typeof threads === 'number' ? () => threads : threads,
    start: startHelpers,
  };
  const result: RoundsResult = contractInRounds(arcs, finished, control, source, onProgress, options.independence);
  options.onRounds?.(result.stats);
  options.afterContracting?.();
  const { rank, count, shortcuts } = result;
  return assemble(finished, count, rank, n, onProgress && ((done, total) => onProgress('assembling', done, total, shortcuts)));
}

function contractInto(
  arcs: BaseArcs, n: number, finished: FinishedEdges, onProgress: ContractionProgress | undefined, order: Uint32Array | undefined, afterContracting?: () => void,
): Hierarchy {
  // The graph being contracted, its lists and search tables live only inside contractVertices: they
  // are garbage by the time the hierarchy is assembled (a region's bike graph held both at once, most of
  // its worker's memory).
  const { rank, count, shortcuts } = contractVertices(arcs, n, finished, onProgress, order);
  afterContracting?.();
  return assemble(finished, count, rank, n, onProgress && ((done, total) => onProgress('assembling', done, total, shortcuts)));
}

function contractVertices(
  arcs: BaseArcs, n: number, finished: FinishedEdges, onProgress: ContractionProgress | undefined, order: Uint32Array | undefined,
): { rank: Uint32Array; count: number; shortcuts: number } {
  const g = new DynamicGraph(n, arcs, finished);
  for (let i = 0; i < arcs.tail.length; i++) {
    // A negative weight is a closed arc (a node-based graph keeps one per segment direction, open or not).
    if (arcs.tail[i] === arcs.head[i] || !(arcs.weight[i] >= 0)) continue;
    g.addOrImprove(arcs.tail[i], arcs.head[i], arcs.weight[i], arcs.distance[i], -1, i, 1);
  }
  const baseEdges = g.count;
  const report = onProgress && ((step: 'ordering' | 'contraction', done: number): void => onProgress(step, done, n, g.count - baseEdges));
  const contracted = new Uint8Array(n);
  const depth = new Uint32Array(n);
  const priority = new Float64Array(n);
  const witness = new WitnessSearch(n);
  const gOut = g.out;
  const gIn = g.in;

  // v's lists are copied first: adding a shortcut may compact the pool and move every slot.
  let outOther = new Uint32Array(64), outWeight = new Float32Array(64), outEdge = new Uint32Array(64);
  let inOther = new Uint32Array(64), inWeight = new Float32Array(64), inEdge = new Uint32Array(64);
  const visit = (v: number, apply: boolean): number => {
    const outs = gOut.length[v];
    const ins = gIn.length[v];
    if (outs > outOther.length) [outOther, outWeight, outEdge] = [new Uint32Array(outs * 2), new Float32Array(outs * 2), new Uint32Array(outs * 2)];
    if (ins > inOther.length) [inOther, inWeight, inEdge] = [new Uint32Array(ins * 2), new Float32Array(ins * 2), new Uint32Array(ins * 2)];
    const of = gOut.first(v);
    outOther.set(gOut.other.subarray(of, of + outs));
    outWeight.set(gOut.weight.subarray(of, of + outs));
    outEdge.set(gOut.edge.subarray(of, of + outs));
    const inf = gIn.first(v);
    inOther.set(gIn.other.subarray(inf, inf + ins));
    inWeight.set(gIn.weight.subarray(inf, inf + ins));
    inEdge.set(gIn.edge.subarray(inf, inf + ins));
    let added = 0;
    let arcsAdded = 0;
    let arcsRemoved = 0;
    for (let i = 0; i < outs; i++) arcsRemoved += g.arcs[outEdge[i]];
    for (let j = 0; j < ins; j++) {
      const u = inOther[j];
      const ein = inEdge[j];
      arcsRemoved += g.arcs[ein];
      const wIn = inWeight[j];
      witness.run(gOut, u, v, wIn, apply ? CONTRACT_SETTLE_LIMIT : SIMULATE_SETTLE_LIMIT);
      for (let i = 0; i < outs; i++) {
        const w = outOther[i];
        if (w === u) continue;
        const via = wIn + outWeight[i];
        if (witness.distanceTo(w) <= via) continue;
        added++;
        const eout = outEdge[i];
        const through = g.arcs[ein] + g.arcs[eout];
        arcsAdded += through;
        if (apply) g.addOrImprove(u, w, via, g.distance[ein] + g.distance[eout], g.id[ein], g.id[eout], through);
      }
    }
    return priorityOf(added, ins + outs, arcsAdded, arcsRemoved, depth[v]);
  };

  const due = progressClock();
  const rank = new Uint32Array(n);
  let done = 0;
  const contractNow = (v: number): void => {
    visit(v, true);
    contracted[v] = 1;
    rank[v] = done++;
    const below = depth[v] + 1;
    for (let i = gOut.first(v), end = gOut.end(v); i < end; i++) depth[gOut.other[i]] = Math.max(depth[gOut.other[i]], below);
    for (let i = gIn.first(v), end = gIn.end(v); i < end; i++) depth[gIn.other[i]] = Math.max(depth[gIn.other[i]], below);
    g.detach(v);
  };
  if (order !== undefined) {
    for (let k = 0; k < n; k++) {
      const v = order[k];
      if (contracted[v]) throw new RangeError(`contraction order names vertex ${v} twice`);
      contractNow(v);
      if (report && (k & 63) === 0 && due()) report('contraction', done);
    }
    report?.('contraction', n);
    g.close();
    return { rank, count: g.count, shortcuts: g.count - baseEdges };
  }
  const queue = new MinHeap(n + 16);
  for (let v = 0; v < n; v++) {
    priority[v] = visit(v, false);
    queue.push(v, priority[v]);
    if (report && (v & 1023) === 0 && due()) report('ordering', v);
  }
  let pops = 0;
  while (queue.size > 0) {
    if (report && (++pops & 63) === 0 && due()) report('contraction', done);
    const v = queue.pop();
    if (contracted[v] || queue.lastKey !== priority[v]) continue;
    // Lazy update: the priority may have grown since it was queued (its neighbours were contracted).
    const fresh = visit(v, false);
    if (queue.size > 0 && fresh > queue.peekKey()) {
      priority[v] = fresh;
      queue.push(v, fresh);
      continue;
    }
    contractNow(v);
  }
  report?.('contraction', n);
  g.close();
  return { rank, count: g.count, shortcuts: g.count - baseEdges };
}

/**
 * The hierarchy from the finished edges: each edge goes up from its lower-ranked end, into the forward
 * graph when that is its tail, the backward graph when its head; within a vertex in edge id order.
 * Progress in edges read, over the two passes (2 × count); a region's edges come back from a spill
 * file and take a while.
 */
function assemble(finished: FinishedEdges, count: number, rank: Uint32Array, n: number, onProgress?: (done: number, total: number) => void): Hierarchy {
  let read = 0;
  const due = progressClock();
  const chunkRead = (c: EdgeChunk): void => {
    read += c.count;
    if (onProgress && due()) onProgress(read, 2 * count);
  };
  const childA = new Int32Array(count);
  const childB = new Int32Array(count);
  const fwdCount = new Uint32Array(n + 1);
  const bwdCount = new Uint32Array(n + 1);
  finished.forEach((c) => {
    for (let i = 0; i < c.count; i++) {
      const e = c.id[i];
      childA[e] = c.childA[i];
      childB[e] = c.childB[i];
      const a = c.tail[i];
      const b = c.head[i];
      if (rank[a] < rank[b]) fwdCount[a + 1]++;
      else bwdCount[b + 1]++;
    }
    chunkRead(c);
  });
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
  finished.forEach((c) => {
    for (let i = 0; i < c.count; i++) {
      const a = c.tail[i];
      const b = c.head[i];
      let graph: UpwardGraph, at: number;
      if (rank[a] < rank[b]) {
        graph = forward;
        at = fPos[a]++;
        graph.other[at] = b;
      } else {
        graph = backward;
        at = bPos[b]++;
        graph.other[at] = a;
      }
      graph.weight[at] = c.weight[i];
      graph.distance[at] = c.distance[i];
      graph.edge[at] = c.id[i];
    }
    chunkRead(c);
  });
  sortRunsByEdge(forward, n);
  sortRunsByEdge(backward, n);
  return { rank, forward, backward, childA, childB };
}

/** Edges come finished in contraction order; each vertex's run is put in edge id order (insertion sort: runs are short). */
function sortRunsByEdge(g: UpwardGraph, n: number): void {
  const { first, other, weight, distance, edge } = g;
  for (let v = 0; v < n; v++) {
    const start = first[v];
    const end = first[v + 1];
    for (let i = start + 1; i < end; i++) {
      const e = edge[i];
      if (edge[i - 1] <= e) continue;
      const o = other[i], w = weight[i], d = distance[i];
      let j = i - 1;
      while (j >= start && edge[j] > e) {
        edge[j + 1] = edge[j];
        other[j + 1] = other[j];
        weight[j + 1] = weight[j];
        distance[j + 1] = distance[j];
        j--;
      }
      edge[j + 1] = e;
      other[j + 1] = o;
      weight[j + 1] = w;
      distance[j + 1] = d;
    }
  }
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
