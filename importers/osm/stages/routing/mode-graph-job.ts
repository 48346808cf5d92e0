// What the routing stage sends a mode-graph worker and what comes back (mode-graph-worker.ts).
import type { SegmentRestriction } from '../../../../core/routing/mode-graph';
import type { ModeGraph } from '../../../../core/routing/network';
import type { TurnCostSpec } from '../../../../core/routing/turn-costs';
import type { VertexObstacles } from '../../../../core/routing/obstacles';

export interface ModeGraphJob {
  id: number;
  segmentForward: Float32Array;
  segmentBackward: Float32Array;
  restrictions: SegmentRestriction[];
  turnCosts: TurnCostSpec | null;
  blockedVertices: number[];
  /** Per segment, 1 when its access is restricted for the mode (mode-graph.ts). */
  restricted: Uint8Array;
  /** Per segment, 1 when a route may not start or end on it (profile's `startpoint` false, not ferries). */
  noStart: Uint8Array;
  /** Per segment, bit 1 / bit 2 when a bike is pushed along / against it, bit 4 on a train. */
  pushed: Uint8Array;
  /** Per segment direction (code), the routability rate in percent (ModeGraph.ratePercent); null: 100 everywhere. */
  ratePercent?: Uint8Array | null;
  /** Obstacles at vertices whose seconds the mode's turns pay; null for modes that pay none. */
  obstacles: VertexObstacles | null;
  /** Where the contraction writes its finished edges instead of keeping them in memory; null: memory. */
  contractionSpillDir: string | null;
  /**
   * The job (id) over the same roads whose vertex order this one's contraction follows (truck: car's), or
   * null; the job waits for that graph (mode-graphs.ts). A job absent from the run is ignored.
   */
  orderFrom?: number | null;
  /** Set when the job is sent: the rank per vertex of `orderFrom`'s hierarchy. */
  orderRank?: Uint32Array;
  /**
   * Set when the job is sent: one word of shared memory, the threads its contraction may use now, its
   * own included. mode-graphs.ts raises it when a core is left free and lowers it when another graph
   * starts; a contraction in rounds (core/routing/contraction-rounds.ts) reads it before every round and
   * gives the same graph on any number.
   */
  contractionThreads?: Int32Array;
}

export type WorkerReply =
  | { kind: 'progress'; job: number; step: string; done: number; total?: number; shortcuts?: number }
  | { kind: 'graph'; job: number; graph: ModeGraph; seconds: number; peakBytes: number; peakAt: string }
  | { kind: 'error'; job: number; message: string };

/** The distinct buffers under a graph's arrays, to transfer rather than copy. */
export function graphBuffers(g: ModeGraph): ArrayBuffer[] {
  const h = g.hierarchy;
  const arrays = [
    g.arcTail, g.arcHead, g.arcWeight, g.arcDistance, g.arcSeconds, g.segmentForward, g.segmentBackward, g.segmentMain,
    ...(g.duplicateOf ? [g.duplicateOf] : []), ...(g.ratePercent ? [g.ratePercent] : []), h.rank, h.childA, h.childB,
    h.forward.first, h.forward.other, h.forward.weight, h.forward.distance, h.forward.edge,
    h.backward.first, h.backward.other, h.backward.weight, h.backward.distance, h.backward.edge,
  ];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/**
 * The buffers a job alone holds (its speeds, access and rates), to transfer to its worker rather than
 * copy: the stage keeps no copy of a started job's inputs. Not the obstacles (car's and truck's jobs share
 * them) nor the order it follows (truck's is car's graph's).
 */
export function jobBuffers(job: ModeGraphJob): ArrayBuffer[] {
  const arrays = [job.segmentForward, job.segmentBackward, job.restricted, job.noStart, job.pushed, ...(job.ratePercent ? [job.ratePercent] : [])];
  // Not a SharedArrayBuffer (it cannot be transferred); by tag, since arrays may come from another realm.
  return [...new Set(arrays.map((a) => a.buffer))].filter((b): b is ArrayBuffer => Object.prototype.toString.call(b) === '[object ArrayBuffer]');
}
