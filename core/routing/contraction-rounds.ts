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
// Independence is judged again only where it can have changed. A vertex not independent keeps the
// vertex that stopped it (its blocker: lower priority, within two hops). Its verdict can change only
// when that blocker is contracted, when the blocker's priority changes, or when the path between them
// goes (a vertex next to a contracted one); new shortcuts only add vertices within two hops, which
// can stop a vertex but not free it. An independent vertex is never within two hops of another
// independent one (each would go before the other), so neither a contraction nor a candidate's new
// priority reaches one. So after a round only the contracted vertices' neighbours and the vertices
// whose blocker was contracted are checked again, and after re-simulations only the re-simulated
// vertices and those they blocked: the verdicts are those a check of every vertex would give (the
// `independence: 'full'` option does that, for the tests and the bench).
//
// The graph, its lists and the round's tables live in SharedArrayBuffers; helper threads (started by
// the caller, e.g. importers/osm/stages/routing/contraction-helpers.ts) run helpRounds() over them. A
// phase starts when the caller bumps the control word the helpers wait on (Atomics); work is claimed
// in chunks from a shared counter, so a thread the machine leaves waiting costs no more than its chunk.
// Arrays are replaced (the edge pool or the edge store grows) or compacted only between phases,
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

/**
 * Where helpers come from: `threads()` is read before every round (the import lends a mode's
 * contraction a core another mode left free, mode-graphs.ts), and helpers are started when it asks for
 * more than are running; when it asks for fewer, the extra ones sit the phases out.
 */
export interface HelperSource {
  threads(): number;
  /** Starts `count` helpers numbered from `first`, each to run helpRounds(control, vertexCount, …, first + i, seen). */
  start(count: number, control: Int32Array, vertexCount: number, first: number, seen: number): ContractionHelpers | undefined;
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
  /**
   * Per vertex, as the independence phase last judged it: -1 when independent, else a vertex within
   * two hops that goes before it.
   */
  blocker: Int32Array;
  /** The round's vertices (shortcut phase), the vertices to re-simulate (simulation) or to judge (independence). */
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

// Control words. SEQ: the phase's number times 64 plus the helpers taking part (the first so many by
// number), in one word so that a helper reads both at once.
const SEQ = 0;
const MEMBERS = 64;
const KIND = 1;
const COUNT = 2;
const NEXT = 3;
const DONE = 4;
const GENERATION = 5;
/** Set by a helper whose share failed: the caller throws after the phase. */
const FAILED = 6;
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

/** -1 when v goes before u and every vertex next to u (but v) in `lists`, else the first found that does not. */
function blockerNear(priority: Float64Array, lists: ListArrays, v: number, u: number): number {
  const { start, length, other } = lists;
  for (let j = start[u], end = j + length[u]; j < end; j++) {
    const x = other[j];
    if (x !== v && !before(priority, v, x)) return x;
  }
  return -1;
}

/** -1 when v goes before every vertex within two hops (over edges either way), else the first found that does not. */
function blockerOf(a: RoundArrays, v: number): number {
  const { priority, out, in: into } = a;
  for (let side = 0; side < 2; side++) {
    const { start, length, other } = side === 0 ? out : into;
    for (let i = start[v], end = i + length[v]; i < end; i++) {
      const u = other[i];
      if (!before(priority, v, u)) return u;
      const b = blockerNear(priority, out, v, u);
      if (b >= 0) return b;
      const c = blockerNear(priority, into, v, u);
      if (c >= 0) return c;
    }
  }
  return -1;
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
      // Each item is a vertex of its own: no two threads write one entry.
      for (let k = from; k < to; k++) a.blocker[a.items[k]] = blockerOf(a, a.items[k]);
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
export function helpRounds(control: Int32Array, vertexCount: number, receive: () => RoundArrays | undefined, index = 0, seen = 0): void {
  const witness = new WitnessSearch(vertexCount);
  let arrays: RoundArrays | undefined;
  for (;;) {
    Atomics.wait(control, SEQ, seen);
    seen = Atomics.load(control, SEQ);
    if (control[KIND] === STOP) return;
    // Not taking part: the caller does not wait for this thread.
    if (index >= seen % MEMBERS) continue;
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

/** The helpers' control words' phase word now: what a helper started between phases waits past. */
export function controlSeen(control: Int32Array): number {
  return Atomics.load(control, SEQ);
}

/** Helpers a contraction runs at most (the phase word keeps their count below MEMBERS). */
export const MOST_HELPERS = MEMBERS - 1;

/** The control words helpers wait on; made before they start, so each is handed it when started. */
export function roundControl(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
}

const sharedU32 = (n: number) => new Uint32Array(new SharedArrayBuffer(Math.max(1, n) * 4));

export interface RoundsResult {
  rank: Uint32Array;
  count: number;
  shortcuts: number;
  stats: RoundStats;
}

/** What a contraction in rounds did (bench/contraction-file.ts prints it). */
export interface RoundStats {
  rounds: number;
  /** Vertices judged for independence. */
  checks: number;
  /** Priorities simulated (the first of every vertex included). */
  simulations: number;
}

/**
 * `incremental` (default): independence judged again only where it can have changed (see the top of
 * this file); `full`: every vertex left, every round (the same rounds, much dearer: for tests and the bench).
 */
export type IndependenceCheck = 'incremental' | 'full';

/**
 * Contracts `arcs` in rounds on the caller's thread and `helpers`' (none: the caller alone, the same
 * result). `control` is the one the helpers were started with.
 */
export function contractInRounds(
  arcs: BaseArcs, finished: FinishedEdges, control: Int32Array, source: HelperSource | undefined, onProgress?: ContractionProgress,
  independence: IndependenceCheck = 'incremental',
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
  // Helpers started (in groups), and how many take part in the phases now.
  const groups: ContractionHelpers[] = [];
  let started = 0;
  let members = 0;
  let tableSize = TABLE_START;
  const table = () => ({
    scFrom: sharedU32(tableSize), scTo: sharedU32(tableSize), scWeight: new Float32Array(new SharedArrayBuffer(tableSize * 4)),
    scDistance: new Float32Array(new SharedArrayBuffer(tableSize * 4)), scA: new Int32Array(new SharedArrayBuffer(tableSize * 4)),
    scB: new Int32Array(new SharedArrayBuffer(tableSize * 4)), scArcs: sharedU32(tableSize),
  });
  let arrays: RoundArrays = {
    generation: 0, control, out: g.out, in: g.in, id: g.id, distance: g.distance, arcs: g.arcs,
    depth: sharedU32(n), priority: new Float64Array(new SharedArrayBuffer(Math.max(1, n) * 8)), blocked: new Uint8Array(new SharedArrayBuffer(Math.max(1, n))),
    blocker: new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4)), items: sharedU32(n), offset: sharedU32(n), made: sharedU32(n),
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
    Atomics.store(control, GENERATION, generation);
    for (const h of groups) h.send(arrays);
  };
  // Between phases: as many helpers taking part as `source` allows now, started if need be.
  let canStart = true;
  const enlist = (): void => {
    if (source === undefined) return;
    const want = Math.min(MOST_HELPERS, Math.max(0, Math.floor(source.threads()) - 1));
    if (want > started && canStart) {
      const more = source.start(want - started, control, n, started, Atomics.load(control, SEQ));
      // None could start (no compiled worker): not asked again.
      if (more === undefined) canStart = false;
      else {
        more.send(arrays);
        groups.push(more);
        started += more.count;
      }
    }
    members = Math.min(want, started);
  };
  const witness = new WitnessSearch(n);
  const phase = (kind: number, count: number, onChunk?: (done: number) => void): void => {
    if (count === 0) return;
    control[KIND] = kind;
    control[COUNT] = count;
    Atomics.store(control, NEXT, 0);
    Atomics.store(control, DONE, 0);
    if (started > 0) {
      const seq = Math.floor(Atomics.load(control, SEQ) / MEMBERS) + 1;
      Atomics.store(control, SEQ, seq * MEMBERS + members);
      Atomics.notify(control, SEQ);
    }
    share(arrays, witness, onChunk);
    for (;;) {
      const done = Atomics.load(control, DONE);
      if (done >= members) break;
      Atomics.wait(control, DONE, done);
    }
    if (Atomics.load(control, FAILED) !== 0) throw new Error('a contraction helper thread failed');
  };

  const due = progressClock();
  const rank = new Uint32Array(n);
  const stats: RoundStats = { rounds: 0, checks: 0, simulations: 0 };
  // Vertices whose priority is out of date (a neighbour was contracted), and those contracted.
  const dirty = new Uint8Array(n);
  const taken = new Uint8Array(n);
  // The vertices judged independent (some perhaps no longer: dropped when the list is next read), once each.
  let candidates = new Uint32Array(1024);
  let candidateCount = 0;
  const listed = new Uint8Array(n);
  // The vertices to judge again, once each (`queued` holds the pass that listed a vertex).
  const recheck = new Uint32Array(Math.max(1, n));
  let recheckCount = 0;
  const queued = new Uint32Array(n);
  let pass = 0;
  // The vertices each vertex blocks, as the last judging found them: a list per blocker through `next`
  // and `prev` (each vertex has one blocker at most, `under`), so what a contracted or re-simulated
  // vertex blocked is found without searching its two hops.
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const under = new Int32Array(n).fill(-1);
  const file = (v: number, b: number): void => {
    const was = under[v];
    if (was === b) return;
    if (was >= 0) {
      if (prev[v] >= 0) next[prev[v]] = next[v];
      else head[was] = next[v];
      if (next[v] >= 0) prev[next[v]] = prev[v];
    }
    under[v] = b;
    if (b >= 0) {
      prev[v] = -1;
      next[v] = head[b];
      if (head[b] >= 0) prev[head[b]] = v;
      head[b] = v;
    }
  };
  const queueBlockedBy = (b: number): void => {
    for (let y = head[b]; y >= 0; y = next[y]) queue(y);
  };
  const queue = (v: number): void => {
    if (queued[v] === pass || taken[v] === 1) return;
    queued[v] = pass;
    recheck[recheckCount++] = v;
  };
  // Judges the listed vertices, on the helpers too, and lists the independent among the candidates.
  const judge = (): void => {
    const { items, blocker } = arrays;
    items.set(recheck.subarray(0, recheckCount));
    phase(INDEPENDENT, recheckCount);
    stats.checks += recheckCount;
    for (let k = 0; k < recheckCount; k++) {
      const v = recheck[k];
      file(v, blocker[v]);
      if (blocker[v] >= 0 || listed[v] === 1) continue;
      listed[v] = 1;
      if (candidateCount === candidates.length) {
        const grown = new Uint32Array(candidates.length * 2);
        grown.set(candidates);
        candidates = grown;
      }
      candidates[candidateCount++] = v;
    }
    recheckCount = 0;
    pass++;
  };
  const everyVertexLeft = (): void => {
    for (let v = 0; v < n; v++) queue(v);
  };
  let contracted = 0;
  try {
    // Every priority, once.
    refresh(false);
    enlist();
    for (let v = 0; v < n; v++) arrays.items[v] = v;
    phase(SIMULATE, n, onProgress && ((done) => {
      if (due()) onProgress('ordering', done, n, 0);
    }));
    stats.simulations += n;
    pass = 1;
    everyVertexLeft();
    while (contracted < n) {
      stats.rounds++;
      refresh(false);
      enlist();
      judge();
      // The round's candidates, in id order.
      let count = 0;
      const { blocker } = arrays;
      for (let k = 0; k < candidateCount; k++) {
        const v = candidates[k];
        if (taken[v] === 0 && blocker[v] < 0) candidates[count++] = v;
        else listed[v] = 0;
      }
      candidateCount = count;
      // The vertex going before all others is always independent: none is a bug (a verdict not judged
      // again), not a wait. A round may still take none when its candidates' new priorities stop them all.
      if (count === 0) throw new Error(`contraction round ${stats.rounds} found no independent vertex among ${n - contracted} left`);
      const round = candidates.slice(0, count).sort();
      // Lazy updates, as the one-thread contraction's queue: a vertex whose neighbourhood changed is
      // re-simulated only when its old priority makes it a candidate; then judged again are the
      // re-simulated vertices whose priority changed and the vertices they blocked (the others'
      // verdicts stand: see the top of this file), all on the same priorities, so two of a round are
      // never within two hops.
      const { items, offset, out, in: into, priority } = arrays;
      let stale = 0;
      for (let k = 0; k < count; k++) if (dirty[round[k]] === 1) items[stale++] = round[k];
      if (stale > 0) {
        const simulated = items.slice(0, stale);
        const old = Float64Array.from(simulated, (v) => priority[v]);
        for (let k = 0; k < stale; k++) dirty[simulated[k]] = 0;
        phase(SIMULATE, stale);
        stats.simulations += stale;
        if (independence === 'full') {
          for (let k = 0; k < count; k++) queue(round[k]);
        } else {
          for (let k = 0; k < stale; k++) {
            const s = simulated[k];
            if (priority[s] === old[k]) continue;
            queue(s);
            queueBlockedBy(s);
          }
        }
        judge();
      }
      // The round: the candidates still independent, in id order, as many as the shortcut table's bound allows.
      let setCount = 0;
      let bound = 0;
      for (let k = 0; k < count; k++) {
        const v = round[k];
        if (blocker[v] >= 0) continue;
        const need = out.length[v] * into.length[v];
        if (setCount > 0 && bound + need > Math.max(tableSize, TABLE_MOST)) break;
        items[setCount] = v;
        offset[setCount++] = bound;
        bound += need;
        taken[v] = 1;
      }
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
      // The contracted vertices' neighbours and the vertices they blocked: judged again.
      for (let k = 0; k < setCount; k++) {
        const v = set[k];
        rank[v] = contracted++;
        const below = depth[v] + 1;
        for (const lists of [g.out, g.in]) {
          for (let i = lists.start[v], end = i + lists.length[v]; i < end; i++) {
            const x = lists.other[i];
            if (depth[x] < below) depth[x] = below;
            dirty[x] = 1;
            queue(x);
          }
        }
        for (let j = setOffset[k], end = j + setMade[k]; j < end; j++) g.addOrImprove(scFrom[j], scTo[j], scWeight[j], scDistance[j], scA[j], scB[j], scArcs[j]);
        g.detach(v);
      }
      if (independence === 'full') everyVertexLeft();
      else for (let k = 0; k < setCount; k++) queueBlockedBy(set[k]);
      if (onProgress && due()) onProgress('contraction', contracted, n, g.count - baseEdges);
    }
    onProgress?.('contraction', n, n, g.count - baseEdges);
    g.close();
    return { rank, count: g.count, shortcuts: g.count - baseEdges, stats };
  } finally {
    if (started > 0) {
      control[KIND] = STOP;
      Atomics.add(control, SEQ, MEMBERS);
      Atomics.notify(control, SEQ);
    }
    for (const h of groups) h.close();
  }
}
