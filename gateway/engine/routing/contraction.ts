// Contraction hierarchies (Geisberger et al. 2008) for one mode's graph: vertices are contracted one by
// one in priority order (OSRM's: edges added over edges removed, the same counted in base arcs, plus
// the vertex's depth in the hierarchy so far), re-simulated lazily when a vertex comes up; a shortcut
// u→w replaces u→v→w unless a bounded witness search finds a path at most as short without v. The
// result is two upward CSR graphs (forward from a source, backward from a target) whose edges unpack
// to base arcs.
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

/** Vertices a witness search may settle while estimating a priority, and while contracting. */
const SIMULATE_SETTLE_LIMIT = 10;
const CONTRACT_SETTLE_LIMIT = 300;

/**
 * Per-vertex edge lists in one pool of typed arrays: a vertex's list is a slot that moves to the end of
 * the pool, twice as large, when full (the pool is compacted when it runs out). Each entry carries the
 * other end and the weight next to the edge id, so a witness search reads one contiguous run.
 */
class EdgeLists {
  private readonly start: Uint32Array;
  readonly length: Uint32Array;
  private readonly capacity: Uint32Array;
  other: Uint32Array;
  weight: Float64Array;
  edge: Uint32Array;
  private used = 0;

  constructor(vertexCount: number, degree: Uint32Array) {
    this.start = new Uint32Array(vertexCount);
    this.length = new Uint32Array(vertexCount);
    this.capacity = new Uint32Array(vertexCount);
    let total = 0;
    for (let v = 0; v < vertexCount; v++) {
      this.start[v] = total;
      this.capacity[v] = degree[v] + 2;
      total += degree[v] + 2;
    }
    this.used = total;
    const size = total * 2 + 16;
    this.other = new Uint32Array(size);
    this.weight = new Float64Array(size);
    this.edge = new Uint32Array(size);
  }

  first(v: number): number {
    return this.start[v];
  }

  end(v: number): number {
    return this.start[v] + this.length[v];
  }

  add(v: number, other: number, weight: number, edge: number): void {
    if (this.length[v] === this.capacity[v]) this.move(v);
    const i = this.start[v] + this.length[v]++;
    this.other[i] = other;
    this.weight[i] = weight;
    this.edge[i] = edge;
  }

  remove(v: number, edge: number): void {
    const first = this.start[v];
    const last = first + this.length[v] - 1;
    for (let i = first; i <= last; i++) {
      if (this.edge[i] !== edge) continue;
      this.other[i] = this.other[last];
      this.weight[i] = this.weight[last];
      this.edge[i] = this.edge[last];
      this.length[v]--;
      return;
    }
  }

  setWeight(v: number, edge: number, weight: number): void {
    for (let i = this.start[v], end = i + this.length[v]; i < end; i++) if (this.edge[i] === edge) this.weight[i] = weight;
  }

  /** Drops v's list (a contracted vertex's lists are read once more, then never). */
  clear(v: number): void {
    this.length[v] = 0;
  }

  private move(v: number): void {
    const capacity = Math.max(4, this.capacity[v] * 2);
    if (this.used + capacity > this.other.length) this.compact(capacity);
    const from = this.start[v];
    const to = this.used;
    this.other.copyWithin(to, from, from + this.length[v]);
    this.weight.copyWithin(to, from, from + this.length[v]);
    this.edge.copyWithin(to, from, from + this.length[v]);
    this.start[v] = to;
    this.capacity[v] = capacity;
    this.used += capacity;
  }

  /** Rewrites every list contiguously (slots keep their capacity), growing the pool if still short. */
  private compact(need: number): void {
    let total = need;
    for (let v = 0; v < this.start.length; v++) total += this.capacity[v];
    const size = Math.max(this.other.length, Math.ceil(total * 1.5));
    const other = new Uint32Array(size);
    const weight = new Float64Array(size);
    const edge = new Uint32Array(size);
    let at = 0;
    for (let v = 0; v < this.start.length; v++) {
      const from = this.start[v];
      other.set(this.other.subarray(from, from + this.length[v]), at);
      weight.set(this.weight.subarray(from, from + this.length[v]), at);
      edge.set(this.edge.subarray(from, from + this.length[v]), at);
      this.start[v] = at;
      at += this.capacity[v];
    }
    this.other = other;
    this.weight = weight;
    this.edge = edge;
    this.used = at;
  }
}

class DynamicGraph {
  tail: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  distance: Float64Array;
  childA: Int32Array;
  childB: Int32Array;
  /** Base arcs an edge stands for (1 for a base arc): shortcuts over long chains cost more. */
  arcs: Uint32Array;
  count = 0;
  /** Edges of the vertices not yet contracted, by tail (other = head) and by head (other = tail). */
  readonly out: EdgeLists;
  readonly in: EdgeLists;

  constructor(vertexCount: number, arcs: BaseArcs) {
    const capacity = arcs.tail.length * 2 + 16;
    this.tail = new Uint32Array(capacity);
    this.head = new Uint32Array(capacity);
    this.weight = new Float64Array(capacity);
    this.distance = new Float64Array(capacity);
    this.childA = new Int32Array(capacity);
    this.childB = new Int32Array(capacity);
    this.arcs = new Uint32Array(capacity);
    const outDegree = new Uint32Array(vertexCount);
    const inDegree = new Uint32Array(vertexCount);
    for (let i = 0; i < arcs.tail.length; i++) {
      outDegree[arcs.tail[i]]++;
      inDegree[arcs.head[i]]++;
    }
    this.out = new EdgeLists(vertexCount, outDegree);
    this.in = new EdgeLists(vertexCount, inDegree);
  }

  /** Adds u→w or improves an existing one; returns whether anything changed. */
  addOrImprove(u: number, w: number, weight: number, distance: number, a: number, b: number, arcs: number): boolean {
    const out = this.out;
    for (let i = out.first(u), end = out.end(u); i < end; i++) {
      if (out.other[i] !== w) continue;
      const e = out.edge[i];
      if (this.weight[e] <= weight) return false;
      this.weight[e] = weight;
      this.distance[e] = distance;
      this.childA[e] = a;
      this.childB[e] = b;
      this.arcs[e] = arcs;
      out.weight[i] = weight;
      this.in.setWeight(w, e, weight);
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
    this.arcs[e] = arcs;
    out.add(u, w, weight, e);
    this.in.add(w, u, weight, e);
    return true;
  }

  /** Takes a contracted vertex's edges out of its neighbours' lists (they stay in the edge arrays). */
  detach(v: number): void {
    for (let i = this.in.first(v), end = this.in.end(v); i < end; i++) this.out.remove(this.in.other[i], this.in.edge[i]);
    for (let i = this.out.first(v), end = this.out.end(v); i < end; i++) this.in.remove(this.out.other[i], this.out.edge[i]);
    this.in.clear(v);
    this.out.clear(v);
  }

  private grow(): void {
    const n = Math.ceil(this.tail.length * 1.5) + 16;
    const t = new Uint32Array(n); t.set(this.tail); this.tail = t;
    const h = new Uint32Array(n); h.set(this.head); this.head = h;
    const w = new Float64Array(n); w.set(this.weight); this.weight = w;
    const d = new Float64Array(n); d.set(this.distance); this.distance = d;
    const a = new Int32Array(n); a.set(this.childA); this.childA = a;
    const b = new Int32Array(n); b.set(this.childB); this.childB = b;
    const c = new Uint32Array(n); c.set(this.arcs); this.arcs = c;
  }
}

/**
 * A Dijkstra from one vertex over the remaining graph, skipping the vertex being contracted, bounded in
 * cost and in settled vertices, and stopped once every target is settled. A distance it leaves is the
 * cost of a real path, so it may prove a shortcut unnecessary but never wrongly: a search cut short only
 * adds shortcuts, and the hierarchy stays exact.
 */
class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly stamp: Uint32Array;
  /** Generation in which the vertex is a target still without a witness. */
  private readonly open: Uint32Array;
  /** A target's cost through the contracted vertex: a path at most this long is its witness. */
  private readonly bound: Float64Array;
  private readonly targets: number[] = [];
  private generation = 0;
  private readonly heap = new MinHeap(256);

  constructor(vertexCount: number, private readonly g: DynamicGraph) {
    this.dist = new Float64Array(vertexCount);
    this.stamp = new Uint32Array(vertexCount);
    this.open = new Uint32Array(vertexCount);
    this.bound = new Float64Array(vertexCount);
  }

  distanceTo(v: number): number {
    return this.stamp[v] === this.generation ? this.dist[v] : Infinity;
  }

  /**
   * Targets: the heads w of `skip`'s out-edges other than `source`, each with a bound `toSkip` +
   * weight(skip→w). Stops once every target has a path within its bound, or past the largest bound
   * still open, or after `settleLimit` vertices.
   */
  run(source: number, skip: number, toSkip: number, settleLimit: number): void {
    const gen = ++this.generation;
    const { dist, stamp, open, bound, targets, heap } = this;
    const out = this.g.out;
    const other = out.other;
    const weight = out.weight;
    targets.length = 0;
    let maxCost = 0;
    for (let i = out.first(skip), end = out.end(skip); i < end; i++) {
      const w = other[i];
      if (w === source) continue;
      const b = toSkip + weight[i];
      if (open[w] !== gen) {
        open[w] = gen;
        bound[w] = b;
        targets.push(w);
      } else if (b < bound[w]) bound[w] = b;
      if (b > maxCost) maxCost = b;
    }
    let remaining = targets.length;
    heap.clear();
    dist[source] = 0;
    stamp[source] = gen;
    heap.push(source, 0);
    let settled = 0;
    while (heap.size > 0 && remaining > 0) {
      const u = heap.pop();
      const key = heap.lastKey;
      if (key > dist[u]) continue;
      if (key > maxCost || ++settled > settleLimit) break;
      for (let i = out.first(u), end = out.end(u); i < end; i++) {
        const w = other[i];
        if (w === skip) continue;
        const nd = key + weight[i];
        if (nd > maxCost) continue;
        if (stamp[w] !== gen || nd < dist[w]) {
          dist[w] = nd;
          stamp[w] = gen;
          heap.push(w, nd);
          if (open[w] === gen && nd <= bound[w]) {
            open[w] = 0;
            if (--remaining === 0) break;
            if (bound[w] >= maxCost) {
              maxCost = 0;
              for (const t of targets) if (open[t] === gen && bound[t] > maxCost) maxCost = bound[t];
            }
          }
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
  const g = new DynamicGraph(n, arcs);
  for (let i = 0; i < arcs.tail.length; i++) {
    if (arcs.tail[i] === arcs.head[i]) continue;
    g.addOrImprove(arcs.tail[i], arcs.head[i], arcs.weight[i], arcs.distance[i], -1, i, 1);
  }
  const contracted = new Uint8Array(n);
  const depth = new Uint32Array(n);
  const priority = new Float64Array(n);
  const witness = new WitnessSearch(n, g);
  const gOut = g.out;
  const gIn = g.in;

  // v's lists are copied first: adding a shortcut may compact the pool and move every slot.
  let outOther = new Uint32Array(64), outWeight = new Float64Array(64), outEdge = new Uint32Array(64);
  let inOther = new Uint32Array(64), inWeight = new Float64Array(64), inEdge = new Uint32Array(64);
  // Priority as OSRM's contractor weighs it: edges added over edges removed, the same for the base
  // arcs those edges stand for, and the vertex's depth in the hierarchy so far (spreads contraction
  // evenly instead of growing one region's core). Lower goes first.
  const visit = (v: number, apply: boolean): number => {
    const outs = gOut.length[v];
    const ins = gIn.length[v];
    if (outs > outOther.length) [outOther, outWeight, outEdge] = [new Uint32Array(outs * 2), new Float64Array(outs * 2), new Uint32Array(outs * 2)];
    if (ins > inOther.length) [inOther, inWeight, inEdge] = [new Uint32Array(ins * 2), new Float64Array(ins * 2), new Uint32Array(ins * 2)];
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
      witness.run(u, v, wIn, apply ? CONTRACT_SETTLE_LIMIT : SIMULATE_SETTLE_LIMIT);
      for (let i = 0; i < outs; i++) {
        const w = outOther[i];
        if (w === u) continue;
        const via = wIn + outWeight[i];
        if (witness.distanceTo(w) <= via) continue;
        added++;
        const eout = outEdge[i];
        const through = g.arcs[ein] + g.arcs[eout];
        arcsAdded += through;
        if (apply) g.addOrImprove(u, w, via, g.distance[ein] + g.distance[eout], ein, eout, through);
      }
    }
    const removed = ins + outs;
    return 2 * (added / Math.max(1, removed)) + 4 * (arcsAdded / Math.max(1, arcsRemoved)) + depth[v];
  };

  const queue = new MinHeap(n + 16);
  for (let v = 0; v < n; v++) {
    priority[v] = visit(v, false);
    queue.push(v, priority[v]);
  }
  const rank = new Uint32Array(n);
  let done = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    if (contracted[v] || queue.lastKey !== priority[v]) continue;
    // Lazy update: the priority may have grown since it was queued (its neighbours were contracted).
    const fresh = visit(v, false);
    if (queue.size > 0 && fresh > queue.peekKey()) {
      priority[v] = fresh;
      queue.push(v, fresh);
      continue;
    }
    visit(v, true);
    contracted[v] = 1;
    rank[v] = done++;
    const below = depth[v] + 1;
    for (let i = gOut.first(v), end = gOut.end(v); i < end; i++) depth[gOut.other[i]] = Math.max(depth[gOut.other[i]], below);
    for (let i = gIn.first(v), end = gIn.end(v); i < end; i++) depth[gIn.other[i]] = Math.max(depth[gIn.other[i]], below);
    g.detach(v);
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
