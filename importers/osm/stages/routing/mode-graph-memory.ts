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
 * foot 116 → 111; 160 expects car 155, truck 156, bike 205, foot 123.
 */
export const BYTES_PER_ARC = 160;
/** Bytes per vertex of the graph: the contraction's per-vertex tables (witness search, queue, ranks, lists' heads). */
export const BYTES_PER_VERTEX = 80;
/** A worker thread's own isolate and the job's inputs before any graph: about 30 MiB here. */
export const BYTES_PER_WORKER = 30 * 2 ** 20;

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

/** The bytes a job's worker is expected to hold at its peak. */
export function jobBytes(size: JobSize): number {
  return BYTES_PER_WORKER + size.arcs * BYTES_PER_ARC + size.vertices * BYTES_PER_VERTEX;
}
