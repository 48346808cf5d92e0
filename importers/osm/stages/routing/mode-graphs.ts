// Builds the routing stage's mode graphs, each mode's contraction on its own core: a pool of worker
// threads (mode-graph-worker.ts), one per available core up to one per mode (fewer under a memory
// budget), takes the dearest graphs first (edge-based before node-based) and hands each back as soon as it is built. The graphs are the same as built in turn on one thread, which is what happens for a small
// extract, on one core, or with no compiled worker to start (the TypeScript sources run under the tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import { buildJobGraph } from './job-graph';
import type { ModeGraph, Network } from '../../../../core/routing/network';
import type { ModeGraphJob, WorkerReply } from './mode-graph-job';

export type ModeGraphProgress = (job: number, step: string, done: number, total?: number) => void;

const WORKER_FILE = path.join(__dirname, 'mode-graph-worker.js');

/**
 * Open segment directions (all modes together) below which the graphs are built on this thread: Monaco
 * (30 k) contracts in about a second, and starting the workers costs a good part of what they would save.
 */
const WORKERS_FROM_DIRECTIONS = 50_000;

function openDirections(job: ModeGraphJob): number {
  let open = 0;
  for (const x of job.segmentForward) if (x >= 0) open++;
  for (const x of job.segmentBackward) if (x >= 0) open++;
  return open;
}

/**
 * How much more an edge-based contraction costs than a node-based one of as many open directions: one
 * vertex a direction and an arc a turn, against one a junction and an arc a direction. Measured on
 * Baltimore x8 and x12: foot (node-based, the most open directions) 14 s and 39 s, bike (edge-based,
 * fewer) 162 s and 284 s.
 */
const EDGE_BASED_COST = 10;

/**
 * Share of an ordered contraction's work left when the order is given (truck following car's): the
 * witness searches that simulate priorities are skipped. Measured by bench/contraction.ts on a generated
 * 160 × 160 car graph: 14.1 CPU-s in the order found against 25.7 by priority, the same 988 k shortcuts.
 */
const GIVEN_ORDER_COST = 0.6;

/**
 * The expected cost of building a job's graph, to start the dearest first: by open directions alone
 * foot came first and bike, twice as long as any other, started only when foot was done.
 */
function expectedCost(job: ModeGraphJob): number {
  const nodeBased = turnsAreFree({
    turnCosts: job.turnCosts, restrictions: job.restrictions, obstacles: job.obstacles ?? undefined, restricted: job.restricted,
  });
  return openDirections(job) * (nodeBased ? 1 : EDGE_BASED_COST) * (job.orderFrom != null ? GIVEN_ORDER_COST : 1);
}

/** Whether a job's order, if it follows another job's, is known (or the other job is not in this run). */
function orderKnown(job: ModeGraphJob, ids: ReadonlySet<number>, built: ReadonlySet<number>): boolean {
  const from = job.orderFrom;
  return from == null || !ids.has(from) || built.has(from);
}

/** The job with the order it follows attached, when that order is known. */
function withOrder(job: ModeGraphJob, ranks: ReadonlyMap<number, Uint32Array>): ModeGraphJob {
  const rank = job.orderFrom == null ? undefined : ranks.get(job.orderFrom);
  return rank === undefined ? job : { ...job, orderRank: rank };
}

/**
 * Takes each graph as soon as it is built (to write it and let it go: the graphs are not all held at
 * once); `seconds` is the wall time its worker spent on it.
 */
export type ModeGraphSink = (job: ModeGraphJob, graph: ModeGraph, seconds: number) => void;

export interface ModeGraphOptions {
  /** At most this many graphs built at once (each holds its own working set); default one per core. */
  maxThreads?: number;
  /**
   * Stops the building: the workers are terminated at once (mid-contraction), no graph is handed on
   * afterwards, and the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** Builds every job's graph and hands each to `onGraph`; returns the worker threads used (0: on this thread). */
export async function buildModeGraphs(
  network: Network, jobs: ModeGraphJob[], onProgress: ModeGraphProgress, onGraph: ModeGraphSink, options: ModeGraphOptions = {},
): Promise<number> {
  const threads = Math.min(jobs.length, os.availableParallelism(), options.maxThreads ?? Infinity);
  const size = new Map(jobs.map((j) => [j.id, openDirections(j)]));
  const total = [...size.values()].reduce((a, b) => a + b, 0);
  const signal = options.signal;
  const ids = new Set(jobs.map((j) => j.id));
  // Each graph's rank, for the jobs that follow its order.
  const ranks = new Map<number, Uint32Array>();
  const built = new Set<number>();
  const keepRank = (job: ModeGraphJob, graph: ModeGraph): void => {
    built.add(job.id);
    if (graph.kind === 'edge' && jobs.some((j) => j.orderFrom === job.id)) ranks.set(job.id, graph.hierarchy.rank);
  };
  if (threads < 2 || total < WORKERS_FROM_DIRECTIONS || !fs.existsSync(WORKER_FILE)) {
    // Those following another's order after it.
    const inOrder = [...jobs].sort((a, b) => Number(a.orderFrom != null) - Number(b.orderFrom != null));
    for (const job of inOrder) {
      if (signal?.aborted) throw signal.reason;
      const started = process.hrtime.bigint();
      const graph = buildJobGraph(network, withOrder(job, ranks), (step, done, total) => onProgress(job.id, step, done, total));
      if (signal?.aborted) throw signal.reason;
      keepRank(job, graph);
      onGraph(job, graph, Number(process.hrtime.bigint() - started) / 1e9);
    }
    return 0;
  }
  if (signal?.aborted) throw signal.reason;
  // The dearest start first, so none is left alone at the end.
  const cost = new Map(jobs.map((j) => [j.id, expectedCost(j)]));
  const queue = [...jobs].sort((a, b) => cost.get(b.id)! - cost.get(a.id)!);
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_FILE, { workerData: network }));
  // Workers with nothing they may start yet (the rest wait for an order): woken by the next graph.
  const waiting: Array<() => void> = [];
  let stop: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal!.reason);
  });
  stopped.catch(() => undefined);
  // The abort only rejects; the `finally` below terminates the workers, whatever they are doing.
  signal?.addEventListener('abort', stop!, { once: true });
  try {
    await Promise.race([stopped, Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
      const next = (): void => {
        if (queue.length === 0) return resolve();
        const at = queue.findIndex((j) => orderKnown(j, ids, built));
        if (at < 0) {
          waiting.push(next);
          return;
        }
        const [job] = queue.splice(at, 1);
        worker.postMessage(withOrder(job, ranks));
      };
      worker.on('message', (m: WorkerReply) => {
        // Stopped: whatever a worker still says before it is terminated is of no interest.
        if (signal?.aborted) return;
        if (m.kind === 'progress') onProgress(m.job, m.step, m.done, m.total);
        else if (m.kind === 'error') reject(new Error(m.message));
        else {
          const job = byId.get(m.job)!;
          keepRank(job, m.graph);
          onGraph(job, m.graph, m.seconds);
          next();
          for (const wake of waiting.splice(0)) wake();
        }
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (code !== 0) reject(new Error(`mode graph worker exited with code ${code}`));
      });
      next();
    })))]);
  } finally {
    signal?.removeEventListener('abort', stop!);
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return threads;
}
