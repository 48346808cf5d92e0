// Contraction in rounds, on several threads (after OSRM's parallel contractor, graph_contractor.cpp):
// every vertex's priority is simulated once, spread over the threads; then, round after round, the
// vertices whose priority is lower than that of every vertex within two hops (ties broken by a hash of
// the vertex id, then the id) are contracted together: each thread finds the shortcuts of its share of
// them by witness searches over the graph as it stands (nobody writes it meanwhile), the caller's thread
// applies them and takes the vertices out, in vertex order, and the threads re-simulate the neighbours'
// priorities. Two vertices of a round are at least three hops apart, so their neighbourhoods, their
// shortcuts and the priorities they change are disjoint, and what each thread computes does not depend
// on what another computes or when: the hierarchy is the same on any number of threads.
//
// The graph, its lists and the round's tables live in SharedArrayBuffers; helper threads (started by
// the caller, e.g. importers/osm/stages/routing/contraction-helpers.ts) run helpRounds() over them. A
// phase starts when the caller bumps the control word the helpers wait on (Atomics); work is claimed
// in chunks from a shared counter, so a thread the machine leaves waiting costs no more than its chunk.
// Arrays are replaced (the edge pool grows or compacts, the edge store grows) only between phases,
// on the caller's thread; the helpers are sent the new set before the next phase.
import {
  CONTRACT_SETTLE_LIMIT, DynamicGraph, progressClock, SIMULATE_SETTLE_LIMIT, WitnessSearch, priorityOf, sharedArrays,
  type BaseArcs, type ContractionProgress, type FinishedEdges, type ListArrays,
} from './contraction-graph';

/** Threads that help the caller's: they run helpRounds() and are sent every set of arrays. */
export interface ContractionHelpers {
  readonly count: number;
  /** Hands every helper the current arrays (shared memory: nothing is copied). */
  send(arrays: RoundArrays): void;
  /** Ends the helpers (after the last phase). */
  close(): void;
}

/** Everything a phase reads or writes, as shared memory. */
export interface RoundArrays {
  generation: number;
  control: Int32Array;
  out: ListArrays;
  in: ListArrays;
  /** Per edge slot: id, metres, base arcs (DynamicGraph). */
  id: Uint32Array;
  distance: Float32Array;
  arcs: Uint32Array;
  /** Per vertex. */
  depth: Uint32Array;
  priority: Float64Array;
  /** 1 for the vertices being contracted this round: no witness passes them. */
  blocked: Uint8Array;
  /** The vertices not yet contracted, in id order (independence phase). */
  remaining: Uint32Array;
  /** Per entry of the list the independence phase went over: 1 when independent. */
  independent: Uint8Array;
  /** The round's vertices (shortcut phase) or the vertices to re-simulate (simulation phase). */
  items: Uint32Array;
  /** Per round vertex: where its shortcuts go in the shortcut table, and how many it made. */
  offset: Uint32Array;
  made: Uint32Array;
  /** The shortcut table: u→w, weight (rounded as stored), metres, children's ids, base arcs. */
  scFrom: Uint32Array;
  scTo: Uint32Array;
  scWeight: Float32Array;
  scDistance: Float32Array;
  scA: Int32Array;
  scB: Int32Array;
  scArcs: Uint32Array;
}

// Control words.
const SEQ = 0;
const KIND = 1;
const COUNT = 2;
const NEXT = 3;
const DONE = 4;
const GENERATION = 5;
/** Set by a helper whose share failed: the caller throws after the phase. */
const FAILED = 6;
/** Independence phase: 0 over `remaining`, 1 over `items`. */
const LIST = 7;
const CONTROL_WORDS = 9;
/** A word nobody writes: a helper waiting for its arrays sleeps on it. */
const IDLE = 8;

const SIMULATE = 1;
const INDEPENDENT = 2;
const SHORTCUTS = 3;
const STOP = 9;

/** Items a thread claims at once: small enough to balance, large enough that claiming costs nothing. */
const CHUNK = 32;

/** Entries the shortcut table starts with; it grows when a round's bound needs more. */
const TABLE_START = 1 << 16;
/** A round takes vertices (in order) only while their shortcuts' bound fits this many entries (≥ 1 vertex). */
const TABLE_MOST = 1 << 20;

/** A hash of the vertex id (a 32-bit mix): ties in priority fall evenly, not by id across the map. */
function mix(v: number): number {
  let h = Math.imul(v ^ (v >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Whether a goes before b: lower priority, then lower hash, then lower id. */
function before(priority: Float64Array, a: number, b: number): boolean {
  const pa = priority[a];
  const pb = priority[b];
  if (pa !== pb) return pa < pb;
  const ha = mix(a);
  const hb = mix(b);
  return ha !== hb ? ha < hb : a < b;
}

/** Whether v goes before every vertex within two hops (over edges either way). */
function isIndependent(a: RoundArrays, v: number): boolean {
  const { priority } = a;
  for (const lists of [a.out, a.in]) {
    const { start, length, other } = lists;
    for (let i = start[v], end = i + length[v]; i < end; i++) {
      const u = other[i];
      if (!before(priority, v, u)) return false;
      for (const second of [a.out, a.in]) {
        const s2 = second.start, l2 = second.length, o2 = second.other;
        for (let j = s2[u], e2 = j + l2[u]; j < e2; j++) {
          const x = o2[j];
          if (x !== v && !before(priority, v, x)) return false;
        }
      }
    }
  }
  return true;
}

/**
 * v's shortcuts (write) or its priority (simulate), over the graph as it stands. The same search limits
 * as the contraction on one thread.
 */
function visit(a: RoundArrays, witness: WitnessSearch, v: number, write: number): number {
  const out = a.out;
  const into = a.in;
  const outFirst = out.start[v], outs = out.length[v];
  const inFirst = into.start[v], ins = into.length[v];
  const { id, distance, arcs } = a;
  let added = 0;
  let arcsAdded = 0;
  let arcsRemoved = 0;
  for (let i = 0; i < outs; i++) arcsRemoved += arcs[out.edge[outFirst + i]];
  const limit = write < 0 ? SIMULATE_SETTLE_LIMIT : CONTRACT_SETTLE_LIMIT;
  const blocked = write < 0 ? undefined : a.blocked;
  for (let j = 0; j < ins; j++) {
    const u = into.other[inFirst + j];
    const ein = into.edge[inFirst + j];
    arcsRemoved += arcs[ein];
    const wIn = into.weight[inFirst + j];
    witness.run(out, u, v, wIn, limit, blocked);
    for (let i = 0; i < outs; i++) {
      const w = out.other[outFirst + i];
      if (w === u) continue;
      const via = wIn + out.weight[outFirst + i];
      if (witness.distanceTo(w) <= via) continue;
      const eout = out.edge[outFirst + i];
      const through = arcs[ein] + arcs[eout];
      if (write >= 0) {
        const at = write + added;
        a.scFrom[at] = u;
        a.scTo[at] = w;
        a.scWeight[at] = via;
        a.scDistance[at] = distance[ein] + distance[eout];
        a.scA[at] = id[ein];
        a.scB[at] = id[eout];
        a.scArcs[at] = through;
      }
      added++;
      arcsAdded += through;
    }
  }
  return write >= 0 ? added : priorityOf(added, ins + outs, arcsAdded, arcsRemoved, a.depth[v]);
}

/** This thread's part of the current phase: chunks claimed until none is left. */
function share(a: RoundArrays, witness: WitnessSearch, onChunk?: (done: number) => void): void {
  const c = a.control;
  const kind = c[KIND];
  const count = c[COUNT];
  for (;;) {
    const from = Atomics.add(c, NEXT, CHUNK);
    if (from >= count) return;
    const to = Math.min(count, from + CHUNK);
    if (kind === SIMULATE) {
      for (let k = from; k < to; k++) a.priority[a.items[k]] = visit(a, witness, a.items[k], -1);
    } else if (kind === INDEPENDENT) {
      const list = c[LIST] === 0 ? a.remaining : a.items;
      for (let k = from; k < to; k++) a.independent[k] = isIndependent(a, list[k]) ? 1 : 0;
    } else {
      for (let k = from; k < to; k++) a.made[k] = visit(a, witness, a.items[k], a.offset[k]);
    }
    onChunk?.(to);
  }
}

/**
 * A helper thread's loop: waits for a phase, does its share, reports it done; returns at the stop.
 * `receive` gives the next set of arrays the caller sent (undefined while none has arrived).
 */
export function helpRounds(control: Int32Array, vertexCount: number, receive: () => RoundArrays | undefined): void {
  const witness = new WitnessSearch(vertexCount);
  let arrays: RoundArrays | undefined;
  let seen = 0;
  for (;;) {
    Atomics.wait(control, SEQ, seen);
    seen = Atomics.load(control, SEQ);
    if (control[KIND] === STOP) return;
    const generation = Atomics.load(control, GENERATION);
    while (arrays === undefined || arrays.generation !== generation) {
      const next = receive();
      if (next !== undefined) arrays = next;
      // Posted before the phase began, so it is on its way.
      else Atomics.wait(control, IDLE, 0, 1);
    }
    try {
      share(arrays, witness);
    } catch {
      Atomics.store(control, FAILED, 1);
    }
    Atomics.add(control, DONE, 1);
    Atomics.notify(control, DONE);
  }
}

/** The control words helpers wait on; made before they start, so each is handed it when started. */
export function roundControl(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
}

const sharedU32 = (n: number) => new Uint32Array(new SharedArrayBuffer(Math.max(1, n) * 4));

export interface RoundsResult {
  rank: Uint32Array;
  count: number;
  shortcuts: number;
  /** Rounds run. */
  rounds: number;
}

/**
 * Contracts `arcs` in rounds on the caller's thread and `helpers`' (none: the caller alone, the same
 * result). `control` is the one the helpers were started with.
 */
export function contractInRounds(
  arcs: BaseArcs, finished: FinishedEdges, control: Int32Array, helpers: ContractionHelpers | undefined, onProgress?: ContractionProgress,
): RoundsResult {
  const n = arcs.vertexCount;
  const make = sharedArrays();
  const g = new DynamicGraph(n, arcs, finished, make);
  for (let i = 0; i < arcs.tail.length; i++) {
    // A negative weight is a closed arc (a node-based graph keeps one per segment direction, open or not).
    if (arcs.tail[i] === arcs.head[i] || !(arcs.weight[i] >= 0)) continue;
    g.addOrImprove(arcs.tail[i], arcs.head[i], arcs.weight[i], arcs.distance[i], -1, i, 1);
  }
  const baseEdges = g.count;
  const helperCount = helpers?.count ?? 0;
  const remaining = sharedU32(n);
  for (let v = 0; v < n; v++) remaining[v] = v;
  let remainingCount = n;
  let tableSize = TABLE_START;
  const table = () => ({
    scFrom: sharedU32(tableSize), scTo: sharedU32(tableSize), scWeight: new Float32Array(new SharedArrayBuffer(tableSize * 4)),
    scDistance: new Float32Array(new SharedArrayBuffer(tableSize * 4)), scA: new Int32Array(new SharedArrayBuffer(tableSize * 4)),
    scB: new Int32Array(new SharedArrayBuffer(tableSize * 4)), scArcs: sharedU32(tableSize),
  });
  let arrays: RoundArrays = {
    generation: 0, control, out: g.out, in: g.in, id: g.id, distance: g.distance, arcs: g.arcs,
    depth: sharedU32(n), priority: new Float64Array(new SharedArrayBuffer(Math.max(1, n) * 8)), blocked: new Uint8Array(new SharedArrayBuffer(Math.max(1, n))),
    remaining, independent: new Uint8Array(new SharedArrayBuffer(Math.max(1, n))), items: sharedU32(n), offset: sharedU32(n), made: sharedU32(n),
    ...table(),
  };
  let madeSeen = make.made;
  let generation = 0;
  // The helpers read views of their own; these are the caller's, refreshed when an array is replaced.
  const refresh = (tableGrew: boolean): void => {
    if (make.made === madeSeen && !tableGrew && generation > 0) return;
    madeSeen = make.made;
    generation++;
    arrays = {
      ...arrays, generation,
      out: { start: g.out.start, length: g.out.length, other: g.out.other, weight: g.out.weight, edge: g.out.edge },
      in: { start: g.in.start, length: g.in.length, other: g.in.other, weight: g.in.weight, edge: g.in.edge },
      id: g.id, distance: g.distance, arcs: g.arcs,
    };
    if (helperCount > 0) {
      helpers!.send(arrays);
      Atomics.store(control, GENERATION, generation);
    }
  };
  const witness = new WitnessSearch(n);
  const phase = (kind: number, count: number, onChunk?: (done: number) => void, list = 0): void => {
    if (count === 0) return;
    control[KIND] = kind;
    control[LIST] = list;
    control[COUNT] = count;
    Atomics.store(control, NEXT, 0);
    Atomics.store(control, DONE, 0);
    if (helperCount > 0) {
      Atomics.add(control, SEQ, 1);
      Atomics.notify(control, SEQ);
    }
    share(arrays, witness, onChunk);
    for (;;) {
      const done = Atomics.load(control, DONE);
      if (done >= helperCount) break;
      Atomics.wait(control, DONE, done);
    }
    if (Atomics.load(control, FAILED) !== 0) throw new Error('a contraction helper thread failed');
  };

  const due = progressClock();
  const rank = new Uint32Array(n);
  // Vertices whose priority is out of date (a neighbour was contracted), the round's candidates, and
  // the vertices contracted.
  const dirty = new Uint8Array(n);
  const candidateList = new Uint32Array(Math.max(1, n));
  const taken = new Uint8Array(n);
  let contracted = 0;
  try {
    // Every priority, once.
    refresh(false);
    arrays.items.set(remaining.subarray(0, n));
    phase(SIMULATE, n, onProgress && ((done) => {
      if (due()) onProgress('ordering', done, n, 0);
    }));
    let rounds = 0;
    while (remainingCount > 0) {
      rounds++;
      refresh(false);
      phase(INDEPENDENT, remainingCount);
      // Lazy updates, as the one-thread contraction's queue: a vertex whose neighbourhood changed is
      // re-simulated only when its old priority makes it a candidate; the candidates are then judged
      // again, all on the same priorities, so two of a round are never within two hops.
      const { independent, items, offset, out, in: into } = arrays;
      let candidates = 0;
      for (let k = 0; k < remainingCount; k++) if (independent[k] === 1) candidateList[candidates++] = remaining[k];
      let stale = 0;
      for (let k = 0; k < candidates; k++) if (dirty[candidateList[k]] === 1) items[stale++] = candidateList[k];
      for (let k = 0; k < stale; k++) dirty[items[k]] = 0;
      phase(SIMULATE, stale);
      items.set(candidateList.subarray(0, candidates));
      if (stale > 0) phase(INDEPENDENT, candidates, undefined, 1);
      else independent.fill(1, 0, candidates);
      // The round: the candidates still independent, in id order, as many as the shortcut table's bound allows.
      let setCount = 0;
      let bound = 0;
      for (let k = 0; k < candidates; k++) {
        const v = candidateList[k];
        if (independent[k] !== 1) continue;
        const need = out.length[v] * into.length[v];
        if (setCount > 0 && bound + need > Math.max(tableSize, TABLE_MOST)) break;
        items[setCount] = v;
        offset[setCount++] = bound;
        bound += need;
        taken[v] = 1;
      }
      let kept = 0;
      for (let k = 0; k < remainingCount; k++) if (taken[remaining[k]] === 0) remaining[kept++] = remaining[k];
      remainingCount = kept;
      let grew = false;
      if (bound > tableSize) {
        while (tableSize < bound) tableSize *= 2;
        Object.assign(arrays, table());
        grew = true;
      }
      refresh(grew);
      const { blocked } = arrays;
      for (let k = 0; k < setCount; k++) blocked[items[k]] = 1;
      phase(SHORTCUTS, setCount);
      for (let k = 0; k < setCount; k++) blocked[items[k]] = 0;

      // Applied in vertex order on this thread: edge ids, list order and slots the same on any threads.
      const { made, depth, scFrom, scTo, scWeight, scDistance, scA, scB, scArcs } = arrays;
      const set = items.slice(0, setCount);
      const setOffset = offset.slice(0, setCount);
      const setMade = made.slice(0, setCount);
      for (let k = 0; k < setCount; k++) {
        const v = set[k];
        rank[v] = contracted++;
        const below = depth[v] + 1;
        for (const lists of [g.out, g.in]) {
          for (let i = lists.start[v], end = i + lists.length[v]; i < end; i++) {
            const x = lists.other[i];
            if (depth[x] < below) depth[x] = below;
            dirty[x] = 1;
          }
        }
        for (let j = setOffset[k], end = j + setMade[k]; j < end; j++) g.addOrImprove(scFrom[j], scTo[j], scWeight[j], scDistance[j], scA[j], scB[j], scArcs[j]);
        g.detach(v);
      }
      if (onProgress && due()) onProgress('contraction', contracted, n, g.count - baseEdges);
    }
    onProgress?.('contraction', n, n, g.count - baseEdges);
    g.close();
    return { rank, count: g.count, shortcuts: g.count - baseEdges, rounds };
  } finally {
    if (helperCount > 0) {
      control[KIND] = STOP;
      Atomics.add(control, SEQ, 1);
      Atomics.notify(control, SEQ);
    }
  }
}
