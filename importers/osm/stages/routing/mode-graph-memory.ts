// How much memory building one mode's graph takes, told before it starts, so the routing stage builds
// only as many at once as the import's memory budget holds (mode-graphs.ts). The figure grows with what
// the graph will hold: a vertex per open segment direction and an arc per turn (edge-based), or a vertex
// per junction and an arc per segment direction (node-based, foot); the shortcuts follow the arcs.
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import type { Network } from '../../../../core/routing/network';
import type { ModeGraphJob } from './mode-graph-job';

/**
 * Bytes a worker holds at its peak per arc of the graph it builds (turns as jobSize counts them, or
 * segment directions for a node-based graph), with the finished edges spilled: the arcs (20 bytes), the
 * turns collected in JavaScript arrays first (about 60), the contraction's edges still among uncontracted
 * vertices and their two edge lists (40 + 2 × 32 a live edge), then the assembled hierarchy (24 bytes an
 * edge, arcs and shortcuts, about three edges an arc). Measured on Baltimore ×4×4 (the summary's `worker
 * MiB`, heap and array buffers): 227 (car), 240 (truck), 263 (bike), 255 (foot) bytes an arc over the
 * per-vertex and per-worker figures below.
 */
export const BYTES_PER_ARC = 270;
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
