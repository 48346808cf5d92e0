// One job's mode graph, built the same way on a worker thread (mode-graph-worker.ts) and on the stage's
// own thread (mode-graphs.ts, for a small extract or one core).
import { buildModeGraph } from '../../../../core/routing/mode-graph';
import type { ModeGraph, Network } from '../../../../core/routing/network';
import { finishedEdgesFor } from './edge-spill';
import type { ModeGraphJob } from './mode-graph-job';
import { startContractionHelpers } from './contraction-helpers';
import { isMainThread } from 'node:worker_threads';
import { collectGarbage } from '../../../../adapters/router/embedded/collect-garbage';

export function buildJobGraph(network: Network, job: ModeGraphJob, onProgress: (step: string, done: number, total?: number, shortcuts?: number) => void): ModeGraph {
  return buildModeGraph({
    network,
    segmentForward: job.segmentForward,
    segmentBackward: job.segmentBackward,
    restrictions: job.restrictions,
    turnCosts: job.turnCosts,
    blockedVertices: new Set(job.blockedVertices),
    restricted: job.restricted, noStart: job.noStart, pushed: job.pushed, ratePercent: job.ratePercent ?? undefined, obstacles: job.obstacles ?? undefined,
    finishedEdges: finishedEdgesFor(job), orderFrom: job.orderRank,
    contractionThreads: {
      threads: job.contractionThreads === undefined ? 1 : () => Atomics.load(job.contractionThreads!, 0),
      startHelpers: (count, control, vertexCount, first, seen) => startContractionHelpers(count, control, vertexCount, first, seen),
      // The contracted graph's lists and slots, most of a worker's peak, gone before the hierarchy is
      // filled; not on the stage's own thread (a small extract), whose heap holds the whole import.
      afterContracting: () => { if (!isMainThread) collectGarbage(); },
    },
    onProgress,
  });
}
