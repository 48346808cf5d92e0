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
  weight: Float32Array;
  edge: Uint32Array;
  private used = 0;

  constructor(vertexCount: number, degree: Uint32Array) {
    this.start = new Uint32Array(vertexCount);
    this.length = new Uint32Array(vertexCount);
    this.capacity = new Uint32Array(vertexCount);
    let total = 0;
    for (let v = 0; v < vertexCount; v++) {
      // Room for two shortcuts before the list moves; none for a vertex without edges (a closed road's
      // direction), which never gets any.
      const room = degree[v] === 0 ? 0 : degree[v] + 2;
      this.start[v] = total;
      this.capacity[v] = room;
      total += room;
    }
    this.used = total;
    // A quarter more for the lists that move as shortcuts fill them; compaction makes more room.
    const size = Math.ceil(total * 1.25) + 16;
    this.other = new Uint32Array(size);
    this.weight = new Float32Array(size);
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
    // Its slot is left to the next compaction.
    this.capacity[v] = 0;
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
    const weight = new Float32Array(size);
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

/**
 * Where the contraction puts the edges that will change no more: an edge is finished once one of its
 * ends is contracted. Edges come in chunks (parallel arrays, `count` entries used); the hierarchy is
 * assembled from them at the end. Kept in memory here; importers/osm/stages/routing/edge-spill.ts writes them to a
 * file, so the contraction holds only the edges still among uncontracted vertices.
 */
export interface FinishedEdges {
  add(chunk: EdgeChunk): void;
  /** Every chunk added, in order; may be called more than once, after the last add. */
  forEach(visit: (chunk: EdgeChunk) => void): void;
  /** Lets go of what the store holds. */
  close(): void;
}

export class EdgeChunk {
  count = 0;
  readonly id: Uint32Array;
  readonly tail: Uint32Array;
  readonly head: Uint32Array;
  /** As written in the hierarchy (32-bit). */
  readonly weight: Float32Array;
  readonly distance: Float32Array;
  readonly childA: Int32Array;
  readonly childB: Int32Array;

  constructor(readonly capacity: number) {
    this.id = new Uint32Array(capacity);
    this.tail = new Uint32Array(capacity);
    this.head = new Uint32Array(capacity);
    this.weight = new Float32Array(capacity);
    this.distance = new Float32Array(capacity);
    this.childA = new Int32Array(capacity);
    this.childB = new Int32Array(capacity);
  }

  /** The arrays in file order (edge-spill.ts). */
  arrays(): Array<Uint32Array | Float32Array | Int32Array> {
    return [this.id, this.tail, this.head, this.weight, this.distance, this.childA, this.childB];
  }
}

/** Entries of a chunk: 64 Ki edges, 1.75 MiB. */
export const EDGE_CHUNK = 1 << 16;

export class FinishedEdgesInMemory implements FinishedEdges {
  private chunks: EdgeChunk[] = [];

  add(chunk: EdgeChunk): void {
    this.chunks.push(chunk);
  }

  forEach(visit: (chunk: EdgeChunk) => void): void {
    for (const c of this.chunks) visit(c);
  }

  close(): void {
    this.chunks = [];
  }
}

/**
 * The graph being contracted. Edge ids are given in order of creation (childA/childB name them); the
 * fields of an edge live in a slot only while both its ends are uncontracted, then go to FinishedEdges
 * and the slot is reused. The per-vertex lists hold slots.
 */
class DynamicGraph {
  id: Uint32Array;
  tail: Uint32Array;
  head: Uint32Array;
  /**
   * 32-bit, as the hierarchy keeps them: a shortcut's weight is rounded when made, and its witness
   * searches read the rounded weights the queries will. No overflow (a day is 86,400 s; a float's step
   * there is 0.008 s); 64-bit kept 40 % more bytes per live edge for digits no answer used.
   */
  weight: Float32Array;
  distance: Float32Array;
  childA: Int32Array;
  childB: Int32Array;
  /** Base arcs an edge stands for (1 for a base arc): shortcuts over long chains cost more. */
  arcs: Uint32Array;
  /** Edge ids given so far. */
  count = 0;
  private slotsUsed = 0;
  private free = new Uint32Array(1024);
  private freeCount = 0;
  private chunk = new EdgeChunk(EDGE_CHUNK);
  /** Edges of the vertices not yet contracted, by tail (other = head) and by head (other = tail). */
  readonly out: EdgeLists;
  readonly in: EdgeLists;

  constructor(vertexCount: number, arcs: BaseArcs, private readonly finished: FinishedEdges) {
    const capacity = arcs.tail.length + 16;
    this.id = new Uint32Array(capacity);
    this.tail = new Uint32Array(capacity);
    this.head = new Uint32Array(capacity);
    this.weight = new Float32Array(capacity);
    this.distance = new Float32Array(capacity);
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
  addOrImprove(u: number, w: number, weight64: number, distance: number, a: number, b: number, arcs: number): boolean {
    const weight = Math.fround(weight64);
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
    const e = this.freeCount > 0 ? this.free[--this.freeCount] : this.newSlot();
    this.id[e] = this.count++;
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

  /** Takes a contracted vertex's edges out of its neighbours' lists and hands them over as finished. */
  detach(v: number): void {
    for (let i = this.in.first(v), end = this.in.end(v); i < end; i++) {
      this.out.remove(this.in.other[i], this.in.edge[i]);
      this.finish(this.in.edge[i]);
    }
    for (let i = this.out.first(v), end = this.out.end(v); i < end; i++) {
      this.in.remove(this.out.other[i], this.out.edge[i]);
      this.finish(this.out.edge[i]);
    }
    this.in.clear(v);
    this.out.clear(v);
  }

  /** Hands over the last chunk; no edge may be added after. */
  close(): void {
    if (this.chunk.count > 0) this.finished.add(this.chunk);
    this.chunk = new EdgeChunk(0);
  }

  private finish(slot: number): void {
    let c = this.chunk;
    if (c.count === c.capacity) {
      this.finished.add(c);
      c = this.chunk = new EdgeChunk(EDGE_CHUNK);
    }
    const i = c.count++;
    c.id[i] = this.id[slot];
    c.tail[i] = this.tail[slot];
    c.head[i] = this.head[slot];
    c.weight[i] = this.weight[slot];
    c.distance[i] = this.distance[slot];
    c.childA[i] = this.childA[slot];
    c.childB[i] = this.childB[slot];
    if (this.freeCount === this.free.length) {
      const f = new Uint32Array(this.free.length * 2);
      f.set(this.free);
      this.free = f;
    }
    this.free[this.freeCount++] = slot;
  }

  private newSlot(): number {
    if (this.slotsUsed === this.tail.length) this.grow();
    return this.slotsUsed++;
  }

  private grow(): void {
    const n = Math.ceil(this.tail.length * 1.5) + 16;
    const i = new Uint32Array(n); i.set(this.id); this.id = i;
    const t = new Uint32Array(n); t.set(this.tail); this.tail = t;
    const h = new Uint32Array(n); h.set(this.head); this.head = h;
    const w = new Float32Array(n); w.set(this.weight); this.weight = w;
    const d = new Float32Array(n); d.set(this.distance); this.distance = d;
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

/**
 * `ordering`: first priorities, vertex by vertex; `contraction`: vertices contracted; `assembling`:
 * finished edges put into the hierarchy. `shortcuts`: made so far.
 */
export interface ContractionProgress {
  (step: 'ordering' | 'contraction' | 'assembling', done: number, total: number, shortcuts: number): void;
}

/** Least time between two progress calls: the last vertices of a large graph take long each, so counts alone would go quiet. */
const PROGRESS_EVERY_MS = 1000;

export interface ContractionOptions {
  /** Where finished edges go; default in memory. Closed by contract(). */
  finishedEdges?: FinishedEdges;
  /**
   * Every vertex once, in the order to contract them (another graph's order over the same roads, see
   * contractionOrder): no priorities are simulated. Any order gives exact distances; a good one keeps the
   * shortcuts few, and simulating priorities is most of an ordered contraction's work.
   */
  order?: Uint32Array;
}

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
    return contractInto(arcs, n, finished, onProgress, options.order);
  } finally {
    finished.close();
  }
}

function contractInto(arcs: BaseArcs, n: number, finished: FinishedEdges, onProgress: ContractionProgress | undefined, order: Uint32Array | undefined): Hierarchy {
  // The graph being contracted, its lists and search tables live only inside contractVertices: they
  // are garbage by the time the hierarchy is assembled (a region's bike graph held both at once, most of
  // its worker's memory).
  const { rank, count, shortcuts } = contractVertices(arcs, n, finished, onProgress, order);
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
  const witness = new WitnessSearch(n, g);
  const gOut = g.out;
  const gIn = g.in;

  // v's lists are copied first: adding a shortcut may compact the pool and move every slot.
  let outOther = new Uint32Array(64), outWeight = new Float32Array(64), outEdge = new Uint32Array(64);
  let inOther = new Uint32Array(64), inWeight = new Float32Array(64), inEdge = new Uint32Array(64);
  // Priority as OSRM's contractor weighs it: edges added over edges removed, the same for the base
  // arcs those edges stand for, and the vertex's depth in the hierarchy so far (spreads contraction
  // evenly instead of growing one region's core). Lower goes first.
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
        if (apply) g.addOrImprove(u, w, via, g.distance[ein] + g.distance[eout], g.id[ein], g.id[eout], through);
      }
    }
    const removed = ins + outs;
    return 2 * (added / Math.max(1, removed)) + 4 * (arcsAdded / Math.max(1, arcsRemoved)) + depth[v];
  };

  let lastReport = Date.now();
  const due = (): boolean => {
    const now = Date.now();
    if (now - lastReport < PROGRESS_EVERY_MS) return false;
    lastReport = now;
    return true;
  };
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
  let lastReport = Date.now();
  const chunkRead = (c: EdgeChunk): void => {
    read += c.count;
    const now = Date.now();
    if (onProgress && now - lastReport >= PROGRESS_EVERY_MS) {
      lastReport = now;
      onProgress(read, 2 * count);
    }
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
