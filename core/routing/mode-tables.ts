// What a ModeRouter derives from its network and mode graph before it answers: the arcs arriving at each
// vertex, the open segment directions leaving and reaching each junction, the roads at each junction,
// the travel seconds of the hierarchy's edges where they differ from its weights, and whether the mode
// has a large main part. Built in steps (steps.ts): on a region each is a pass over millions of arcs,
// and the gateway builds them while it answers.
import { hierarchySecondsInSteps, upwardSeconds, type UpwardSeconds } from './ch-query';
import { codeHead, codeTail } from './mode-graph';
import { MAIN_PART, type ModeGraph, type Network } from './network';
import { finish, inChunks, type Steps } from './steps';

/** OSRM's size below which a strongly connected part is "tiny" (its default, 1000 edge-based nodes). */
const MAIN_COMPONENT_CODES = 1000;

export interface ModeTables {
  /** Whether the mode's main part is large in OSRM's sense (else the map is small and every part counts). */
  bigComponent: boolean;
  /** Turn arcs arriving at each vertex, CSR: the target seeds. */
  inFirst: Uint32Array;
  inArc: Uint32Array;
  /** Open segment directions leaving each network vertex (CSR), for the maneuvers. */
  leaveFirst: Uint32Array;
  leave: Uint32Array;
  /** Open segment directions arriving at each network vertex (CSR). */
  arriveFirst: Uint32Array;
  arrive: Uint32Array;
  /** Roads the mode may use in some direction at each vertex (OSRM's intersection: entries and exits). */
  roads: Uint16Array;
  /** Travel seconds of the upward graphs' edges; null when they equal the weights (no routing penalties). */
  seconds: UpwardSeconds | null;
}

/** The arcs of `mode` with a weight, by `key` (their head or tail), CSR; in steps. */
export function* arcsBy(mode: ModeGraph, key: Uint32Array): Steps<[Uint32Array, Uint32Array]> {
  const arcs = key.length;
  const n = mode.vertexCount;
  const weight = mode.arcWeight;
  const first = new Uint32Array(n + 1);
  yield* inChunks(arcs, (from, to) => {
    for (let a = from; a < to; a++) if (weight[a] >= 0) first[key[a] + 1]++;
  });
  for (let v = 0; v < n; v++) first[v + 1] += first[v];
  const list = new Uint32Array(first[n]);
  const pos = first.slice(0, n);
  yield* inChunks(arcs, (from, to) => {
    for (let a = from; a < to; a++) if (weight[a] >= 0) list[pos[key[a]]++] = a;
  });
  return [first, list];
}

/** Codes open to the mode by the vertex `end` gives (codeTail: leaving it; codeHead: arriving at it), CSR. */
function* codesBy(network: Network, codes: number, open: (c: number) => boolean, end: (n: Network, c: number) => number): Steps<[Uint32Array, Uint32Array]> {
  const vertices = network.vertexPoint.length;
  const first = new Uint32Array(vertices + 1);
  yield* inChunks(codes, (from, to) => {
    for (let c = from; c < to; c++) if (open(c)) first[end(network, c) + 1]++;
  });
  for (let v = 0; v < vertices; v++) first[v + 1] += first[v];
  const list = new Uint32Array(first[vertices]);
  const pos = first.slice(0, vertices);
  yield* inChunks(codes, (from, to) => {
    for (let c = from; c < to; c++) if (open(c)) list[pos[end(network, c)]++] = c;
  });
  return [first, list];
}

export function* modeTables(network: Network, mode: ModeGraph): Steps<ModeTables> {
  let mainCodes = 0;
  yield* inChunks(mode.segmentMain.length, (from, to) => {
    for (let s = from; s < to; s++) {
      if ((mode.segmentMain[s] & MAIN_PART) === 0) continue;
      if (mode.segmentForward[s] >= 0) mainCodes++;
      if (mode.segmentBackward[s] >= 0) mainCodes++;
    }
  });
  // Weights and travel times differ only where routing penalties apply; without any, skip the second metric.
  let penalised = false;
  if (mode.arcSeconds !== mode.arcWeight) {
    const { arcSeconds, arcWeight } = mode;
    yield* inChunks(arcSeconds.length, (from, to) => {
      for (let a = from; a < to && !penalised; a++) penalised = arcSeconds[a] !== arcWeight[a];
    });
  }
  const seconds = penalised ? yield* upwardSeconds(mode.hierarchy, yield* hierarchySecondsInSteps(mode.hierarchy, mode.arcSeconds)) : null;
  const [inFirst, inArc] = yield* arcsBy(mode, mode.arcHead);
  const codes = network.segmentFrom.length * 2;
  const open = (c: number) => ((c & 1) === 0 ? mode.segmentForward[c >> 1] : mode.segmentBackward[c >> 1]) >= 0;
  const [leaveFirst, leave] = yield* codesBy(network, codes, open, codeTail);
  const [arriveFirst, arrive] = yield* codesBy(network, codes, open, codeHead);
  const roads = new Uint16Array(network.vertexPoint.length);
  yield* inChunks(codes >> 1, (from, to) => {
    for (let s = from; s < to; s++) {
      if (!open(2 * s) && !open(2 * s + 1)) continue;
      roads[network.segmentFrom[s]]++;
      if (network.segmentTo[s] !== network.segmentFrom[s]) roads[network.segmentTo[s]]++;
    }
  });
  return { bigComponent: mainCodes >= MAIN_COMPONENT_CODES, inFirst, inArc, leaveFirst, leave, arriveFirst, arrive, roads, seconds };
}

/** The tables at once (tools, tests). */
export function modeTablesNow(network: Network, mode: ModeGraph): ModeTables {
  return finish(modeTables(network, mode));
}
