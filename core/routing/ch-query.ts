// Queries on a contraction hierarchy: one-to-one (bidirectional upward Dijkstra, stopped once both
// queues pass the best meeting cost) and many-to-many (Knopp et al. 2007: backward searches from every
// target leave (target, cost) in buckets at the vertices they settle; forward searches from every
// source scan those buckets). Workspaces are reused between queries; a ChQuery is not re-entrant.
import { unpackEdge, type Hierarchy, type UpwardGraph } from './contraction';
import { MinHeap } from './min-heap';
import { finish, inChunks, type Steps } from './steps';
import type { SearchResult, SearchSeed } from './search-seed';

/**
 * One direction's labels, kept for the vertices this search has reached only: a sparse set (Briggs and
 * Torczon 1993). `slotOf[v]` says where vertex v's label is and is believed only when `vertexAt` there
 * names v back, so a new search starts by setting `count` to 0 and clears nothing. A slot's cost, metres
 * and seconds sit side by side in `label`, and a search's slots are few (thousands on a region) and
 * contiguous, so they stay in cache; the one array as long as the graph is `slotOf`, 4 bytes a vertex.
 * Before, every mode kept 32 + 12 bytes a vertex per direction, and routes all over a region made them
 * resident (Baltimore ×20: +444 MiB after 200 routes, growing towards 2 GiB).
 */
class Side {
  private slotOf = new Int32Array(0);
  private vertexAt = new Int32Array(1024);
  /** Cost, metres and seconds of each slot. */
  private label = new Float64Array(3 * 1024);
  /** Parent edge, parent vertex and seed option of each slot, kept only when `paths` (a table needs costs alone). */
  private link = new Int32Array(3 * 1024);
  private count = 0;
  paths = true;
  readonly heap = new MinHeap(1024);

  /** Room for the vertices of a graph of n (the workspace serves graphs of several sizes). */
  fit(n: number): void {
    if (n > this.slotOf.length) this.slotOf = new Int32Array(n);
  }

  get bytes(): number {
    return this.slotOf.byteLength + this.vertexAt.byteLength + this.label.byteLength + this.link.byteLength;
  }

  reset(): void {
    this.count = 0;
    this.heap.clear();
  }

  /** The vertex's slot in this search, or -1 when the search has not reached it. */
  private slot(v: number): number {
    const s = this.slotOf[v];
    return s < this.count && this.vertexAt[s] === v ? s : -1;
  }

  has(v: number): boolean {
    return this.slot(v) >= 0;
  }

  cost(v: number): number {
    return this.label[3 * this.slot(v)];
  }

  metres(v: number): number {
    return this.label[3 * this.slot(v) + 1];
  }

  seconds(v: number): number {
    return this.label[3 * this.slot(v) + 2];
  }

  /** The slot of the vertex `step` returned last: its labels without looking it up again. */
  settledSlot = -1;

  costAt(s: number): number {
    return this.label[3 * s];
  }

  metresAt(s: number): number {
    return this.label[3 * s + 1];
  }

  secondsAt(s: number): number {
    return this.label[3 * s + 2];
  }

  parentEdge(v: number): number {
    return this.link[3 * this.slot(v)];
  }

  parentVertex(v: number): number {
    return this.link[3 * this.slot(v) + 1];
  }

  seed(v: number): number {
    return this.link[3 * this.slot(v) + 2];
  }

  /** Room for `more` slots beyond those taken, so a relaxation loop's local arrays stay the ones in use. */
  private reserve(more: number): void {
    const need = this.count + more;
    if (need <= this.vertexAt.length) return;
    let size = this.vertexAt.length * 2;
    while (size < need) size *= 2;
    const vertexAt = new Int32Array(size);
    vertexAt.set(this.vertexAt.subarray(0, this.count));
    const label = new Float64Array(3 * size);
    label.set(this.label.subarray(0, 3 * this.count));
    const link = new Int32Array(3 * size);
    link.set(this.link.subarray(0, 3 * this.count));
    this.vertexAt = vertexAt;
    this.label = label;
    this.link = link;
  }

  seedWith(seeds: readonly SearchSeed[]): void {
    for (const s of seeds) {
      if (this.has(s.vertex) && this.cost(s.vertex) <= s.cost) continue;
      this.set(s.vertex, s.cost, s.metres, s.seconds, -1, -1, s.option);
    }
  }

  set(v: number, cost: number, metres: number, seconds: number, edge: number, parent: number, seed: number): void {
    let s = this.slot(v);
    if (s < 0) {
      this.reserve(1);
      s = this.count++;
      this.vertexAt[s] = v;
      this.slotOf[v] = s;
    }
    this.write(s, v, cost, metres, seconds, edge, parent, seed);
  }

  private write(s: number, v: number, cost: number, metres: number, seconds: number, edge: number, parent: number, seed: number): void {
    const label = this.label;
    label[3 * s] = cost;
    label[3 * s + 1] = metres;
    label[3 * s + 2] = seconds;
    if (this.paths) {
      const link = this.link;
      link[3 * s] = edge;
      link[3 * s + 1] = parent;
      link[3 * s + 2] = seed;
    }
    this.heap.push(v, cost);
  }

  /** Whether the last vertex `step` returned was stalled (reached cheaper from above: not a true distance). */
  stalled = false;

  /**
   * Settles the next vertex and relaxes its upward edges; returns it, or -1 when the heap is empty.
   * With `stall` (the opposite upward graph), stall-on-demand: a vertex that a settled higher vertex
   * reaches more cheaply is not expanded (its cost is not a shortest distance).
   */
  /** `seconds`: travel seconds of g's edges in g's order, or null when they equal the weights. */
  step(g: UpwardGraph, seconds: Float32Array | null, stall?: UpwardGraph): number {
    const heap = this.heap;
    const slotOf = this.slotOf;
    while (heap.size > 0) {
      const v = heap.pop();
      const key = heap.lastKey;
      // Every vertex in the heap was reached by this search: its slot is its own.
      const sv = slotOf[v];
      if (key > this.label[3 * sv]) continue;
      this.stalled = false;
      this.settledSlot = sv;
      if (stall) {
        const label = this.label, vertexAt = this.vertexAt, count = this.count;
        for (let i = stall.first[v]; i < stall.first[v + 1]; i++) {
          const u = stall.other[i];
          const su = slotOf[u];
          if (su < count && vertexAt[su] === u && label[3 * su] + stall.weight[i] < key) {
            this.stalled = true;
            return v;
          }
        }
      }
      const first = g.first[v], last = g.first[v + 1];
      this.reserve(last - first);
      const label = this.label, vertexAt = this.vertexAt;
      const m = label[3 * sv + 1];
      const t = label[3 * sv + 2];
      const seed = this.paths ? this.link[3 * sv + 2] : -1;
      const secs = seconds ?? g.weight;
      for (let i = first; i < last; i++) {
        const w = g.other[i];
        const c = key + g.weight[i];
        let sw = slotOf[w];
        if (sw < this.count && vertexAt[sw] === w) {
          if (!(c < label[3 * sw])) continue;
        } else {
          sw = this.count++;
          vertexAt[sw] = w;
          slotOf[w] = sw;
        }
        this.write(sw, w, c, m + g.distance[i], t + secs[i], g.edge[i], v, seed);
      }
      return v;
    }
    return -1;
  }
}

/**
 * What the searches write while they run: both directions' labels and the many-to-many buckets. Queries
 * run one at a time on a thread and read nothing of it once they return, so one workspace serves every
 * mode of a network (the gateway shares it: network-loader.ts), sized by the largest graph it has served.
 */
export class SearchWorkspace {
  readonly forward = new Side();
  readonly backward = new Side();
  /** Newest bucket entry of each vertex, -1 for none; all -1 between tables. Made on the first table. */
  private heads = new Int32Array(0);
  /** Bucket entries, a linked list per vertex (newest first), in arrays reused between tables. */
  buckets = new Buckets(1024);

  fit(n: number): void {
    this.forward.fit(n);
    this.backward.fit(n);
  }

  /** What it holds, bytes (operators' figures and the tests' bound). */
  get bytes(): number {
    const b = this.buckets;
    return this.forward.bytes + this.backward.bytes + this.heads.byteLength + b.next.byteLength + b.target.byteLength + b.cost.byteLength + b.metres.byteLength + b.seconds.byteLength;
  }

  bucketHead(n: number): Int32Array {
    if (this.heads.length < n) this.heads = new Int32Array(n).fill(-1);
    return this.heads;
  }
}

export class ChQuery {
  private readonly forwardSeconds: Float32Array | null;
  private readonly backwardSeconds: Float32Array | null;

  /**
   * `seconds`: travel seconds of the upward graphs' edges (upwardSeconds); null when they equal the weights.
   * `workspace`: shared with other queries of this thread (never one running at the same time); its own by default.
   */
  constructor(private readonly h: Hierarchy, private readonly vertexCount: number, seconds: UpwardSeconds | null = null, private readonly workspace = new SearchWorkspace()) {
    this.forwardSeconds = seconds && seconds.forward;
    this.backwardSeconds = seconds && seconds.backward;
  }

  /** The workspace's two sides, with room for this graph. */
  private sides(): { f: Side; b: Side } {
    this.workspace.fit(this.vertexCount);
    return { f: this.workspace.forward, b: this.workspace.backward };
  }

  shortest(sources: readonly SearchSeed[], targets: readonly SearchSeed[]): SearchResult | null {
    const { f, b } = this.sides();
    f.reset();
    b.reset();
    f.paths = b.paths = true;
    f.seedWith(sources);
    b.seedWith(targets);
    let best = Infinity;
    let meet = -1;
    const consider = (v: number) => {
      if (f.has(v) && b.has(v)) {
        const c = f.cost(v) + b.cost(v);
        if (c < best) {
          best = c;
          meet = v;
        }
      }
    };
    for (const s of sources) consider(s.vertex);
    let turnForward = true;
    for (;;) {
      const fMin = f.heap.size > 0 ? f.heap.peekKey() : Infinity;
      const bMin = b.heap.size > 0 ? b.heap.peekKey() : Infinity;
      if (Math.min(fMin, bMin) >= best || (fMin === Infinity && bMin === Infinity)) break;
      const useForward = fMin === Infinity ? false : bMin === Infinity ? true : turnForward;
      turnForward = !turnForward;
      const v = useForward ? f.step(this.h.forward, this.forwardSeconds) : b.step(this.h.backward, this.backwardSeconds);
      if (v < 0) continue;
      consider(v);
      // Vertices reached (not only settled) by the step can meet too.
      const g = useForward ? this.h.forward : this.h.backward;
      for (let i = g.first[v]; i < g.first[v + 1]; i++) consider(g.other[i]);
    }
    if (meet < 0) return null;
    const arcs: number[] = [];
    const up: number[] = [];
    for (let v = meet; f.parentEdge(v) >= 0; v = f.parentVertex(v)) up.push(f.parentEdge(v));
    for (let i = up.length - 1; i >= 0; i--) unpackEdge(this.h, up[i], arcs);
    for (let v = meet; b.parentEdge(v) >= 0; v = b.parentVertex(v)) unpackEdge(this.h, b.parentEdge(v), arcs);
    return { cost: best, metres: f.metres(meet) + b.metres(meet), seconds: f.seconds(meet) + b.seconds(meet), sourceOption: f.seed(meet), targetOption: b.seed(meet), arcs };
  }

  /** Costs, metres and travel seconds of every (source, target) pair, row-major; Infinity where none. */
  table(sources: ReadonlyArray<readonly SearchSeed[]>, targets: ReadonlyArray<readonly SearchSeed[]>): { cost: Float64Array; metres: Float64Array; seconds: Float64Array } {
    const cost = new Float64Array(sources.length * targets.length).fill(Infinity);
    const metres = new Float64Array(sources.length * targets.length).fill(Infinity);
    const seconds = new Float64Array(sources.length * targets.length).fill(Infinity);
    const { f, b } = this.sides();
    f.paths = b.paths = false;
    const head = this.workspace.bucketHead(this.vertexCount);
    let buckets = this.workspace.buckets;
    buckets.size = 0;
    const used: number[] = [];
    const up = this.h.forward, down = this.h.backward;
    for (let j = 0; j < targets.length; j++) {
      b.reset();
      b.seedWith(targets[j]);
      for (let v = b.step(down, this.backwardSeconds, up); v >= 0; v = b.step(down, this.backwardSeconds, up)) {
        if (b.stalled) continue;
        if (head[v] < 0) used.push(v);
        if (buckets.size === buckets.next.length) this.workspace.buckets = buckets = buckets.grown();
        const e = buckets.size++;
        buckets.next[e] = head[v];
        head[v] = e;
        buckets.target[e] = j;
        const sv = b.settledSlot;
        buckets.cost[e] = b.costAt(sv);
        buckets.metres[e] = b.metresAt(sv);
        buckets.seconds[e] = b.secondsAt(sv);
      }
    }
    const T = targets.length;
    const { next, target, cost: bCost, metres: bMetres, seconds: bSeconds } = buckets;
    for (let i = 0; i < sources.length; i++) {
      f.reset();
      f.seedWith(sources[i]);
      const row = i * T;
      for (let v = f.step(up, this.forwardSeconds, down); v >= 0; v = f.step(up, this.forwardSeconds, down)) {
        if (f.stalled) continue;
        const sv = f.settledSlot;
        const c0 = f.costAt(sv);
        const m0 = f.metresAt(sv);
        const s0 = f.secondsAt(sv);
        for (let e = head[v]; e >= 0; e = next[e]) {
          const k = row + target[e];
          const c = c0 + bCost[e];
          if (c < cost[k]) {
            cost[k] = c;
            metres[k] = m0 + bMetres[e];
            seconds[k] = s0 + bSeconds[e];
          }
        }
      }
    }
    for (const v of used) head[v] = -1;
    return { cost, metres, seconds };
  }
}

/** Bucket entries of a many-to-many table: (target, cost, metres, seconds) and the next entry of the same vertex. */
class Buckets {
  size = 0;
  readonly next: Int32Array;
  readonly target: Int32Array;
  readonly cost: Float64Array;
  readonly metres: Float64Array;
  readonly seconds: Float64Array;

  constructor(capacity: number) {
    this.next = new Int32Array(capacity);
    this.target = new Int32Array(capacity);
    this.cost = new Float64Array(capacity);
    this.metres = new Float64Array(capacity);
    this.seconds = new Float64Array(capacity);
  }

  /** Twice the room, the entries so far kept. */
  grown(): Buckets {
    const g = new Buckets(this.next.length * 2);
    g.next.set(this.next);
    g.target.set(this.target);
    g.cost.set(this.cost);
    g.metres.set(this.metres);
    g.seconds.set(this.seconds);
    g.size = this.size;
    return g;
  }
}

/** Travel seconds of the upward graphs' edges, laid out as their weights so a search reads them side by side. */
export interface UpwardSeconds {
  forward: Float32Array;
  backward: Float32Array;
}

/** values[index[i]] for every i; a plain loop (Float32Array.from with a mapping function took seconds on a region). */
function* gather(values: Float64Array, index: Uint32Array): Steps<Float32Array> {
  const out = new Float32Array(index.length);
  yield* inChunks(index.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = values[index[i]];
  });
  return out;
}

/** The upward graphs' edge seconds from those of every hierarchy edge (hierarchySeconds). */
export function* upwardSeconds(h: Pick<Hierarchy, 'forward' | 'backward'>, edgeSeconds: Float64Array): Steps<UpwardSeconds> {
  return { forward: yield* gather(edgeSeconds, h.forward.edge), backward: yield* gather(edgeSeconds, h.backward.edge) };
}

/**
 * Travel seconds of every hierarchy edge from those of the base arcs: a shortcut's are its two
 * children's. Children may be newer edges (a shortcut improved in place), hence the explicit stack.
 */
export function* hierarchySecondsInSteps(h: Pick<Hierarchy, 'childA' | 'childB'>, arcSeconds: Float32Array): Steps<Float64Array> {
  const m = h.childA.length;
  const out = new Float64Array(m).fill(-1);
  const { childA, childB } = h;
  let stack = new Int32Array(64);
  yield* inChunks(m, (from, to) => {
    for (let e0 = from; e0 < to; e0++) {
      if (out[e0] >= 0) continue;
      let top = 0;
      stack[top++] = e0;
      while (top > 0) {
        const e = stack[top - 1];
        const a = childA[e];
        if (a < 0) {
          out[e] = arcSeconds[childB[e]];
          top--;
          continue;
        }
        const b = childB[e];
        const next = out[a] < 0 ? a : out[b] < 0 ? b : -1;
        if (next < 0) {
          out[e] = out[a] + out[b];
          top--;
          continue;
        }
        if (top === stack.length) {
          const grown = new Int32Array(stack.length * 2);
          grown.set(stack);
          stack = grown;
        }
        stack[top++] = next;
      }
    }
  });
  return out;
}

/** hierarchySecondsInSteps at once. */
export function hierarchySeconds(h: Pick<Hierarchy, 'childA' | 'childB'>, arcSeconds: Float32Array): Float64Array {
  return finish(hierarchySecondsInSteps(h, arcSeconds));
}
