// Builds the routing stage's mode graphs, each mode's contraction on its own core: each graph on a
// worker thread of its own (mode-graph-worker.ts), as many at once as there are cores, jobs and, under a
// memory budget, room for their expected memory (mode-graph-memory.ts); the dearest graphs first
// (edge-based before node-based), each handed back as soon as it is built. The graphs are the same as
// built in turn on one thread, which is what happens for a small extract, on one core, or with no compiled
// worker to start (the TypeScript sources run under the tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import { buildJobGraph } from './job-graph';
import type { ModeGraph, Network } from '../../../../core/routing/network';
import { jobBuffers, type ModeGraphJob, type WorkerReply } from './mode-graph-job';

export type ModeGraphProgress = (job: number, step: string, done: number, total?: number, shortcuts?: number) => void;

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
    ratePercent: job.ratePercent ?? undefined,
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
 * once); `seconds` is the wall time its worker spent on it, `peakBytes` the most its worker held (heap
 * and array buffers, sampled at its progress reports; 0 on this thread) and `peakAt` the step it was in then.
 */
export type ModeGraphSink = (job: ModeGraphJob, graph: ModeGraph, seconds: number, peakBytes: number, peakAt?: string) => void;

export interface ModeGraphOptions {
  /** At most this many graphs built at once; default one per core. */
  maxThreads?: number;
  /**
   * A memory budget for the process while the graphs are built: a graph starts only when the memory the
   * process held when the building began, plus `jobBytes` of each graph in progress and of this one,
   * stays within `budgetBytes`; the first always starts (one at a time is the least). `jobBytes(job,
   * threads)`: with its contraction on that many threads (a core lent to it, below).
   */
  memory?: { budgetBytes: number; jobBytes: (job: ModeGraphJob, threads?: number) => number };
  /**
   * Stops the building: the workers are terminated at once (mid-contraction), no graph is handed on
   * afterwards, and the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/**
 * The process's memory with one more job started, as the budget counts it: the base (RSS when the
 * building began, every job's inputs still in it) less the inputs already handed to workers and this
 * job's own (they become its worker's, which its estimate counts), plus the estimates of the running jobs
 * and of this one.
 */
export function heldWith(at: { base: number; handedOver: number; inputs: number; expected: number; running: readonly number[] }): number {
  let held = at.base - at.handedOver - at.inputs + at.expected;
  for (const bytes of at.running) held += bytes;
  return held;
}

/**
 * Builds every job's graph and hands each to `onGraph`; returns the most graphs built at once on worker
 * threads (0: all on this thread). Each graph gets a worker of its own, ended as soon as its graph is
 * back, so what the building left behind (its collected turns, its contraction's tables) goes with it;
 * the network's arrays are shared with the workers when they live in SharedArrayBuffers (routing-stage.ts
 * builds it so), not copied into each.
 */
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
      const graph = buildJobGraph(network, withOrder(job, ranks), (step, done, total, shortcuts) => onProgress(job.id, step, done, total, shortcuts));
      if (signal?.aborted) throw signal.reason;
      keepRank(job, graph);
      onGraph(job, graph, Number(process.hrtime.bigint() - started) / 1e9, 0);
    }
    return 0;
  }
  if (signal?.aborted) throw signal.reason;
  // The dearest start first, so none is left alone at the end.
  const cost = new Map(jobs.map((j) => [j.id, expectedCost(j)]));
  const queue = [...jobs].sort((a, b) => cost.get(b.id)! - cost.get(a.id)!);
  const memory = options.memory;
  const bytes = new Map(jobs.map((j) => [j.id, memory?.jobBytes(j) ?? 0]));
  // What the process holds besides the graphs: the network, the jobs' inputs, what the stages left.
  const base = process.memoryUsage.rss();
  // A job's own arrays leave the process's part with it (jobBuffers) and are its worker's (the estimate
  // counts them): counted once, in the base while the job waits.
  const inputs = new Map(jobs.map((j) => [j.id, jobBuffers(j).reduce((sum, b) => sum + b.byteLength, 0)]));
  let handedOver = 0;
  const running = new Map<number, Worker>();
  let most = 0;
  // Cores no graph is being built on are lent to a running contraction: each job's word says how many
  // threads its contraction may use now (contraction-rounds.ts starts helpers, or lets some sit out,
  // before its next round; a contraction vertex by vertex, or in a given order, ignores it). The
  // dearest running job that orders its own vertices gets them, if its helpers fit the memory budget.
  const cores = Math.min(os.availableParallelism(), options.maxThreads ?? Infinity);
  const lent = new Map<number, Int32Array>();
  const lend = (): void => {
    let spare = Math.max(0, cores - running.size);
    for (const id of running.keys()) {
      const job = jobs.find((j) => j.id === id)!;
      let threads = 1;
      if (spare > 0 && job.orderFrom == null) {
        threads += spare;
        if (memory !== undefined) {
          // Its inputs are handed over already (inputs 0); the others as they are counted.
          const others = [...running.keys()].filter((other) => other !== id).map((other) => bytes.get(other)!);
          const held = (n: number): number => heldWith({ base, handedOver, inputs: 0, expected: memory.jobBytes(job, n), running: others });
          while (threads > 1 && held(threads) > memory.budgetBytes) threads--;
          // Helpers once started keep their memory while they sit out: the job counts as its most.
          if (threads > 1) bytes.set(id, Math.max(bytes.get(id)!, memory.jobBytes(job, threads)));
        }
        spare -= threads - 1;
      }
      Atomics.store(lent.get(id)!, 0, threads);
    }
  };
  const fits = (job: ModeGraphJob): boolean => {
    if (memory === undefined || running.size === 0) return true;
    const held = heldWith({ base, handedOver, inputs: inputs.get(job.id)!, expected: bytes.get(job.id)!, running: [...running.keys()].map((id) => bytes.get(id)!) });
    return held <= memory.budgetBytes;
  };
  let stop: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal!.reason);
  });
  stopped.catch(() => undefined);
  // The abort only rejects; the `finally` below terminates the workers, whatever they are doing.
  signal?.addEventListener('abort', stop!, { once: true });
  try {
    await Promise.race([stopped, new Promise<void>((resolve, reject) => {
      const fail = (err: Error): void => {
        queue.length = 0;
        reject(err);
      };
      // Starts what may start now: within the threads, in cost order, each whose order is known and
      // whose memory fits beside those running.
      const pump = (): void => {
        if (queue.length === 0 && running.size === 0) return resolve();
        while (running.size < threads) {
          const at = queue.findIndex((j) => orderKnown(j, ids, built) && fits(j));
          if (at < 0) break;
          const [job] = queue.splice(at, 1);
          start(job);
        }
        most = Math.max(most, running.size);
        lend();
      };
      const start = (job: ModeGraphJob): void => {
        const worker = new Worker(WORKER_FILE, { workerData: network });
        running.set(job.id, worker);
        const threads = new Int32Array(new SharedArrayBuffer(4));
        threads[0] = 1;
        lent.set(job.id, threads);
        let done = false;
        worker.on('message', (m: WorkerReply) => {
          // Stopped: whatever a worker still says before it is terminated is of no interest.
          if (signal?.aborted) return;
          if (m.kind === 'progress') onProgress(m.job, m.step, m.done, m.total, m.shortcuts);
          else if (m.kind === 'error') fail(new Error(m.message));
          else {
            done = true;
            keepRank(job, m.graph);
            onGraph(job, m.graph, m.seconds, m.peakBytes, m.peakAt);
            running.delete(job.id);
            // Its isolate goes with everything the building left in it; the next starts meanwhile.
            void worker.terminate();
            pump();
          }
        });
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (!done && !signal?.aborted) fail(new Error(`mode graph worker exited with code ${code} before its graph was built`));
        });
        // Its inputs go with it: a job's arrays are 13 bytes a segment (~54 MiB a mode at ×20×20).
        worker.postMessage({ ...withOrder(job, ranks), contractionThreads: threads }, jobBuffers(job));
        handedOver += inputs.get(job.id)!;
      };
      pump();
    })]);
  } finally {
    signal?.removeEventListener('abort', stop!);
    await Promise.all([...running.values()].map((w) => w.terminate()));
  }
  return most;
}
