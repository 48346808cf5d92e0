// How much memory building one mode's graph takes, told before it starts, so the routing stage builds
// only as many at once as the import's memory budget holds (mode-graphs.ts). The figure grows with what
// the graph will hold: a vertex per open segment direction and an arc per turn (edge-based), or a vertex
// per junction and an arc per segment direction (node-based, foot); the shortcuts follow the arcs.
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import type { Network } from '../../../../core/routing/network';
import type { ModeGraphJob } from './mode-graph-job';

/**
 * Bytes a worker holds at its peak per arc of the graph it builds (turns as jobSize counts them, an upper
 * bound about 1.4 times the turns kept, or segment directions for a node-based graph) and per vertex,
 * with the finished edges spilled. The peak is the larger of two phases, now about equal: contracting
 * (per vertex the lists' heads, witness tables, queue and priorities, ~85 bytes; per turn kept its 20-byte
 * arrays, a 20-byte edge slot and 2 × 12 bytes of list entries, the pools a quarter larger than the arcs)
 * and assembling (the hierarchy, 24 bytes an edge, arcs and shortcuts, beside the turns); the contracted
 * graph is collected in between (job-graph.ts). Fitted by least squares to the workers of Baltimore ×4×4
 * and ×8×8 (main b56f3c1: car 90 / 294 MiB, truck 86 / 290, bike 107 / 344; 22.6 MiB + 42.7 a counted
 * arc + 128 a vertex), then 8 % added: expected now car 97 / 314, truck 98 / 315, bike 112 / 372. The fit
 * gives at ×20×20 car ~1,700 MiB, truck ~1,710, bike ~2,040 (these constants 1,830, 1,840, 2,190).
 * History: 270 bytes a turn before the contraction's weights went 32-bit and its turns typed arrays; then
 * 160 / 80 a vertex / 30 MiB, 10–38 % high at ×20; then 125 / 62 / 75 MiB, which fitted the ×20 workers
 * (bike 3,032 MiB, car 2,358, truck 2,282, foot 1,313) before their lists were compacted in place and
 * sized to the arcs, their edge slots cut from 32 bytes to 20 and their garbage collected (b56f3c1:
 * ×8 car 464 → 294 MiB, bike 545 → 344).
 */
export const BYTES_PER_ARC = 46;
/** Bytes per vertex of the graph: the contraction's per-vertex tables (witness search, queue, ranks, lists' heads). */
export const BYTES_PER_VERTEX = 138;
/** A worker thread's own isolate, the job's inputs and what does not grow with the graph. */
export const BYTES_PER_WORKER = 25 * 2 ** 20;
/**
 * A node-based graph's worker holds this much more per counted arc and vertex: foot measured 47 / 157 MiB
 * at ×4×4 / ×8×8, expected now 62 / 173 (at ×20×20 ~930 by a line through both, 947 expected).
 */
export const NODE_BASED_FACTOR = 1.25;
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
