// The graph a contraction works on (contraction.ts, contraction-rounds.ts): per-vertex edge lists in
// one pool, the edges still among uncontracted vertices, where finished edges go, and the bounded witness
// search. Its arrays come from an ArrayMaker: plain typed arrays for a contraction on one thread, shared
// memory when helper threads read the graph (contraction-rounds.ts), so the same code serves both.

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

/** Makes the graph's arrays; `made` counts them, so a reader of shared memory knows when one was replaced. */
export interface ArrayMaker {
  u32(length: number): Uint32Array;
  i32(length: number): Int32Array;
  f32(length: number): Float32Array;
  made: number;
}

export const plainArrays = (): ArrayMaker => ({
  u32: (n) => new Uint32Array(n), i32: (n) => new Int32Array(n), f32: (n) => new Float32Array(n), made: 0,
});

/** Arrays on SharedArrayBuffers, which worker threads read without a copy. */
export function sharedArrays(): ArrayMaker {
  const maker: ArrayMaker = {
    u32: (n) => { maker.made++; return new Uint32Array(new SharedArrayBuffer(n * 4)); },
    i32: (n) => { maker.made++; return new Int32Array(new SharedArrayBuffer(n * 4)); },
    f32: (n) => { maker.made++; return new Float32Array(new SharedArrayBuffer(n * 4)); },
    made: 0,
  };
  return maker;
}

/** The arrays of one direction's edge lists a search reads: v's entries are `start[v] … start[v]+length[v]-1`. */
export interface ListArrays {
  start: Uint32Array;
  length: Uint32Array;
  other: Uint32Array;
  weight: Float32Array;
  edge: Uint32Array;
}

import { MinHeap } from './min-heap';

/**
 * `ordering`: first priorities, vertex by vertex; `contraction`: vertices contracted; `assembling`:
 * finished edges put into the hierarchy. `shortcuts`: made so far.
 */
export interface ContractionProgress {
  (step: 'ordering' | 'contraction' | 'assembling', done: number, total: number, shortcuts: number): void;
}

/** Least time between two progress calls: the last vertices of a large graph take long each, so counts alone would go quiet. */
const PROGRESS_EVERY_MS = 1000;

/** True at most once every PROGRESS_EVERY_MS: whether a progress call is due now. */
export function progressClock(): () => boolean {
  let last = Date.now();
  return (): boolean => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return false;
    last = now;
    return true;
  };
}


/** Vertices a witness search may settle while estimating a priority, and while contracting. */
export const SIMULATE_SETTLE_LIMIT = 10;
export const CONTRACT_SETTLE_LIMIT = 300;

/**
 * Per-vertex edge lists in one pool of typed arrays: a vertex's list is a slot that moves to the end of
 * the pool, twice as large, when full. When the pool runs out it is compacted in place, and grown only
 * if still short: a compaction into new arrays held old and new at once (2.5 times the live lists), the
 * largest moment of a region's contraction. Each entry carries the other end and the weight next to the
 * edge id, so a witness search reads one contiguous run.
 */
export class EdgeLists implements ListArrays {
  readonly start: Uint32Array;
  readonly length: Uint32Array;
  private readonly capacity: Uint32Array;
  other: Uint32Array;
  weight: Float32Array;
  edge: Uint32Array;
  private used = 0;
  /**
   * The slots below `laidOut` hold the lists of `order[0 … laidCount-1]` in that order (as the last
   * compaction left them); the lists moved since are above it, in the order they moved, each logged in
   * `moved` with its start: a compaction visits every slot in the order of its start without sorting.
   */
  private laidOut = 0;
  private readonly order: Uint32Array;
  private laidCount = 0;
  private moved = new Uint32Array(2048);
  private movedCount = 0;

  constructor(vertexCount: number, degree: Uint32Array, private readonly make: ArrayMaker) {
    this.start = make.u32(vertexCount);
    this.length = make.u32(vertexCount);
    this.capacity = new Uint32Array(vertexCount);
    this.order = new Uint32Array(vertexCount);
    let total = 0;
    for (let v = 0; v < vertexCount; v++) {
      // No room for shortcuts: a list that gets one moves to the end of the pool, and the compaction
      // takes its old slot back. Two more a list, as before, made the pools 2.4 times a car graph's arcs,
      // where the edges among uncontracted vertices never outnumbered the arcs (Baltimore ×4×4).
      const room = degree[v];
      this.start[v] = total;
      this.capacity[v] = room;
      total += room;
      if (room > 0) this.order[this.laidCount++] = v;
    }
    this.used = total;
    this.laidOut = total;
    // A quarter more for the lists that move as shortcuts fill them; compaction makes more room.
    const size = Math.ceil(total * 1.25) + 16;
    this.other = make.u32(size);
    this.weight = make.f32(size);
    this.edge = make.u32(size);
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
    if (this.movedCount + 2 > this.moved.length) {
      const m = new Uint32Array(this.moved.length * 2);
      m.set(this.moved);
      this.moved = m;
    }
    this.moved[this.movedCount++] = v;
    this.moved[this.movedCount++] = to;
  }

  /**
   * Moves every list down over the free space in the order of their starts (slots keep their capacity,
   * lists their order), then grows the pool by half if `need` more entries still do not fit.
   */
  private compact(need: number): void {
    const { start, length, capacity, laidOut, moved, order } = this;
    let at = 0;
    let laid = 0;
    const place = (v: number): void => {
      order[laid++] = v;
      const from = start[v];
      const n = length[v];
      if (from !== at && n > 0) {
        this.other.copyWithin(at, from, from + n);
        this.weight.copyWithin(at, from, from + n);
        this.edge.copyWithin(at, from, from + n);
      }
      start[v] = at;
      at += capacity[v];
    };
    // A list still below laidOut has not moved since; one cleared is dropped.
    for (let k = 0, laidCount = this.laidCount; k < laidCount; k++) {
      const v = order[k];
      if (capacity[v] > 0 && start[v] < laidOut) place(v);
    }
    // A list moved twice since is placed at its last start only; a cleared one not at all.
    for (let k = 0; k < this.movedCount; k += 2) {
      const v = moved[k];
      if (capacity[v] > 0 && start[v] === moved[k + 1]) place(v);
    }
    this.used = at;
    this.laidOut = at;
    this.laidCount = laid;
    this.movedCount = 0;
    if (at + need <= this.other.length) return;
    const size = Math.ceil((at + need) * 1.5);
    const other = this.make.u32(size);
    const weight = this.make.f32(size);
    const edge = this.make.u32(size);
    other.set(this.other.subarray(0, at));
    weight.set(this.weight.subarray(0, at));
    edge.set(this.edge.subarray(0, at));
    this.other = other;
    this.weight = weight;
    this.edge = edge;
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
  /**
   * True when add() is done with the chunk once it returns (it copies it out, to a file): the caller
   * refills the one chunk. A region's contraction finishes tens of millions of edges, and a fresh chunk
   * for every 64 Ki of them left garbage the collector was slow to take (about 45 MiB of a Baltimore
   * ×4×4 bike graph's contraction).
   */
  readonly copiesChunks?: boolean;
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
 * and the slot is reused. The per-vertex lists hold slots. An edge's ends and weight are not in its
 * slot: both lists hold them (the other end, the weight), and an edge is finished from the list of the
 * vertex being contracted, which is its one end (20 bytes a slot where 32 were).
 *
 * Weights are 32-bit, as the hierarchy keeps them: a shortcut's weight is rounded when made, and its
 * witness searches read the rounded weights the queries will. No overflow (a day is 86,400 s; a float's
 * step there is 0.008 s); 64-bit kept 40 % more bytes per live edge for digits no answer used.
 */
export class DynamicGraph {
  id: Uint32Array;
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

  constructor(vertexCount: number, arcs: BaseArcs, private readonly finished: FinishedEdges, private readonly make: ArrayMaker = plainArrays()) {
    const capacity = arcs.tail.length + 16;
    // Only what a helper thread reads (contraction-rounds.ts) comes from `make`.
    this.id = make.u32(capacity);
    this.distance = make.f32(capacity);
    this.childA = new Int32Array(capacity);
    this.childB = new Int32Array(capacity);
    this.arcs = make.u32(capacity);
    const outDegree = new Uint32Array(vertexCount);
    const inDegree = new Uint32Array(vertexCount);
    for (let i = 0; i < arcs.tail.length; i++) {
      outDegree[arcs.tail[i]]++;
      inDegree[arcs.head[i]]++;
    }
    this.out = new EdgeLists(vertexCount, outDegree, make);
    this.in = new EdgeLists(vertexCount, inDegree, make);
  }

  /** Adds u→w or improves an existing one; returns whether anything changed. */
  addOrImprove(u: number, w: number, weight64: number, distance: number, a: number, b: number, arcs: number): boolean {
    const weight = Math.fround(weight64);
    const out = this.out;
    for (let i = out.first(u), end = out.end(u); i < end; i++) {
      if (out.other[i] !== w) continue;
      const e = out.edge[i];
      if (out.weight[i] <= weight) return false;
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
      this.finish(this.in.edge[i], this.in.other[i], v, this.in.weight[i]);
    }
    for (let i = this.out.first(v), end = this.out.end(v); i < end; i++) {
      this.in.remove(this.out.other[i], this.out.edge[i]);
      this.finish(this.out.edge[i], v, this.out.other[i], this.out.weight[i]);
    }
    this.in.clear(v);
    this.out.clear(v);
  }

  /** Hands over the last chunk; no edge may be added after. */
  close(): void {
    if (this.chunk.count > 0) this.finished.add(this.chunk);
    this.chunk = new EdgeChunk(0);
  }

  private finish(slot: number, tail: number, head: number, weight: number): void {
    let c = this.chunk;
    if (c.count === c.capacity) {
      this.finished.add(c);
      if (this.finished.copiesChunks === true) c.count = 0;
      else c = this.chunk = new EdgeChunk(EDGE_CHUNK);
    }
    const i = c.count++;
    c.id[i] = this.id[slot];
    c.tail[i] = tail;
    c.head[i] = head;
    c.weight[i] = weight;
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
    if (this.slotsUsed === this.id.length) this.grow();
    return this.slotsUsed++;
  }

  private grow(): void {
    const n = Math.ceil(this.id.length * 1.5) + 16;
    const i = this.make.u32(n); i.set(this.id); this.id = i;
    const d = this.make.f32(n); d.set(this.distance); this.distance = d;
    const a = new Int32Array(n); a.set(this.childA); this.childA = a;
    const b = new Int32Array(n); b.set(this.childB); this.childB = b;
    const c = this.make.u32(n); c.set(this.arcs); this.arcs = c;
  }
}

/**
 * A Dijkstra from one vertex over the remaining graph, skipping the vertex being contracted, bounded in
 * cost and in settled vertices, and stopped once every target is settled. A distance it leaves is the
 * cost of a real path, so it may prove a shortcut unnecessary but never wrongly: a search cut short only
 * adds shortcuts, and the hierarchy stays exact.
 */
export class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly stamp: Uint32Array;
  /** Generation in which the vertex is a target still without a witness. */
  private readonly open: Uint32Array;
  /** A target's cost through the contracted vertex: a path at most this long is its witness. */
  private readonly bound: Float64Array;
  private readonly targets: number[] = [];
  private generation = 0;
  private readonly heap = new MinHeap(256);

  constructor(vertexCount: number) {
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
   * still open, or after `settleLimit` vertices. `out`: the out-edge lists searched. `blocked`: vertices
   * the search may not pass either (those contracted in the same round, contraction-rounds.ts).
   */
  run(out: ListArrays, source: number, skip: number, toSkip: number, settleLimit: number, blocked?: Uint8Array): void {
    const gen = ++this.generation;
    const { dist, stamp, open, bound, targets, heap } = this;
    const { start, length, other, weight } = out;
    targets.length = 0;
    let maxCost = 0;
    for (let i = start[skip], end = i + length[skip]; i < end; i++) {
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
      for (let i = start[u], end = i + length[u]; i < end; i++) {
        const w = other[i];
        if (w === skip || (blocked !== undefined && blocked[w] !== 0)) continue;
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
 * Priority as OSRM's contractor weighs it: edges added over edges removed, the same for the base arcs
 * those edges stand for, and the vertex's depth in the hierarchy so far (spreads contraction evenly
 * instead of growing one region's core). Lower goes first.
 */
export function priorityOf(added: number, removed: number, arcsAdded: number, arcsRemoved: number, depth: number): number {
  return 2 * (added / Math.max(1, removed)) + 4 * (arcsAdded / Math.max(1, arcsRemoved)) + depth;
}
