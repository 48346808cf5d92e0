// How much memory building one mode's graph takes, told before it starts, so the routing stage builds
// only as many at once as the import's memory budget holds (mode-graphs.ts). The figure grows with what
// the graph will hold: a vertex per open segment direction and an arc per turn (edge-based), or a vertex
// per junction and an arc per segment direction (node-based, foot); the shortcuts follow the arcs.
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import type { Network } from '../../../../core/routing/network';
import type { ModeGraphJob } from './mode-graph-job';

/**
 * Bytes a worker holds at its peak per arc of the graph it builds (turns as jobSize counts them, an upper
 * bound about 1.4 times the turns kept, or segment directions for a node-based graph), with the finished
 * edges spilled. The turns are collected in typed arrays (20 bytes a turn, turn-arcs.ts) and kept; then
 * the larger of two phases, which no longer overlap (contraction.ts lets the contracted graph go before it
 * assembles): contracting, the edges still among uncontracted vertices (32 bytes each) and their two edge
 * lists (12 bytes an entry, the pool a quarter larger than its start); assembling, the hierarchy (24 bytes
 * an edge, arcs and shortcuts, about 3.3 edges a turn). Before this (64-bit weights, a pool twice its size,
 * turns in JavaScript arrays, the contracted graph held while assembling) it was 270, and Baltimore ×20×20
 * measured bike 5,528 MiB, car 3,973, truck 4,032, foot 1,981 against 6,972, 4,871, 4,922, 2,365 expected.
 * Measured after, on Baltimore ×4×4 (load 20–31): car 221 → 154 MiB, truck 208 → 145, bike 301 → 184,
 * foot 116 → 111. At ×20×20 (main 3105039) the 160/80/30 MiB figures were 10–38 % high: car measured
 * 2,408 MiB against 3,163 expected, truck 2,323 / 3,194, bike 3,076 / 4,424, foot 1,359 / 1,506; at ×4×4
 * (load 15–24) a little low: car 168 / 155, truck 156 / 157, bike 188 / 206, foot 112 / 89. A fixed part
 * of about 75 MiB a worker and 0.745 of the per-arc and per-vertex figures fit both sizes for car; with a
 * margin (0.78) they give, at ×20, car 2,519, truck 2,543, bike 3,502 (all above what was measured, by
 * 5–14 %), and at ×4 car 172, truck 174, bike 212. A node-based graph (foot) holds about 15 % more per
 * counted arc (NODE_BASED_FACTOR): ×20 1,399 against 1,359 measured, ×4 128 against 112.
 */
export const BYTES_PER_ARC = 125;
/** Bytes per vertex of the graph: the contraction's per-vertex tables (witness search, queue, ranks, lists' heads). */
export const BYTES_PER_VERTEX = 62;
/** A worker thread's own isolate, the job's inputs and what does not grow with the graph. */
export const BYTES_PER_WORKER = 75 * 2 ** 20;
/** A node-based graph's worker holds this much more per counted arc and vertex. */
export const NODE_BASED_FACTOR = 1.15;
/**
 * A helper thread of a contraction in rounds (core/routing/contraction-rounds.ts): its isolate and its
 * witness search's tables (24 bytes a vertex); the rounds' shared tables (about 40 bytes a vertex) are
 * the contraction's. Counted only when a job's contraction is given more than one thread.
 */
export const BYTES_PER_HELPER = 30 * 2 ** 20;
export const BYTES_PER_HELPER_VERTEX = 24;
export const BYTES_PER_ROUNDS_VERTEX = 40;

export interface JobSize {
  /** The graph's vertices and arcs, as counted before it is built (the turns approximately). */
  vertices: number;
  arcs: number;
  nodeBased: boolean;
}

/**
 * The size of the graph a job will build. Turns are counted as every open direction arriving at a
 * vertex times every one leaving it, an upper bound (u-turns and restricted turns are dropped later).
 */
export function jobSize(network: Network, job: ModeGraphJob): JobSize {
  const nodeBased = turnsAreFree({ turnCosts: job.turnCosts, restrictions: job.restrictions, obstacles: job.obstacles ?? undefined, restricted: job.restricted, ratePercent: job.ratePercent ?? undefined });
  const { segmentFrom, segmentTo } = network;
  const { segmentForward, segmentBackward } = job;
  const segments = segmentFrom.length;
  if (nodeBased) return { vertices: network.vertexPoint.length, arcs: segments * 2, nodeBased };
  const arriving = new Uint32Array(network.vertexPoint.length);
  const leaving = new Uint32Array(network.vertexPoint.length);
  for (let s = 0; s < segments; s++) {
    if (segmentForward[s] >= 0) {
      leaving[segmentFrom[s]]++;
      arriving[segmentTo[s]]++;
    }
    if (segmentBackward[s] >= 0) {
      leaving[segmentTo[s]]++;
      arriving[segmentFrom[s]]++;
    }
  }
  let arcs = 0;
  for (let v = 0; v < arriving.length; v++) arcs += arriving[v] * leaving[v];
  return { vertices: segments * 2, arcs, nodeBased };
}

/**
 * The bytes a job's worker is expected to hold at its peak; with `threads` > 1 (a contraction in rounds
 * on that many threads), its helpers' too.
 */
export function jobBytes(size: JobSize, threads = 1): number {
  const graph = (size.arcs * BYTES_PER_ARC + size.vertices * BYTES_PER_VERTEX) * (size.nodeBased ? NODE_BASED_FACTOR : 1);
  const helpers = threads <= 1 ? 0
    : size.vertices * BYTES_PER_ROUNDS_VERTEX + (threads - 1) * (BYTES_PER_HELPER + size.vertices * BYTES_PER_HELPER_VERTEX);
  return Math.round(BYTES_PER_WORKER + graph + helpers);
}
