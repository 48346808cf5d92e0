// Builds the routing stage's mode graphs, each mode's contraction on its own core: each graph on a
// worker thread of its own (mode-graph-worker.ts), as many at once as there are cores, jobs and, under a
// memory budget, room for their expected memory (mode-graph-memory.ts); in the order whose simulated
// wall is shortest (mode-graph-schedule.ts; the dearest first when no order is shorter), each handed back
// as soon as it is built, written, and collected before the next starts. The graphs are the same as
// built in turn on one thread, which is what happens for a small extract, on one core, or with no compiled
// worker to start (the TypeScript sources run under the tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { turnsAreFree } from '../../../../core/routing/mode-graph';
import { buildJobGraph } from './job-graph';
import type { ModeGraph, Network } from '../../../../core/routing/network';
import type { JobSize } from './mode-graph-memory';
import { jobBuffers, type ModeGraphJob, type WorkerReply } from './mode-graph-job';
import { ModeGraphSchedule, planSchedule, type ScheduleSetup, type SchedulePlan } from './mode-graph-schedule';
import { ROUNDS_FROM_VERTICES } from '../../../../core/routing/contraction';
import { collectGarbage } from '../../../../adapters/router/embedded/collect-garbage';

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
 * Share of an ordered contraction's work left when the order is given (truck following car's): the
 * witness searches that simulate priorities are skipped. Measured by bench/contraction.ts on a generated
 * 160 × 160 car graph: 14.1 CPU-s in the order found against 25.7 by priority, the same 988 k shortcuts.
 */
const GIVEN_ORDER_COST = 0.6;

/**
 * The expected cost from the size of the graph (mode-graph-memory.ts's jobSize), in units of a
 * contraction of one arc: the arcs to the power 1.5 (the denser graph's witness searches settle more
 * too), half for a node-based graph, GIVEN_ORDER_COST when the order is given. Measured worker walls,
 * bike = 1: Baltimore ×4 car 0.45, truck 0.30, foot 0.14 (turns bike 697 k, car 472 k, truck 479 k,
 * foot 313 k road arcs; this gives 0.56, 0.34, 0.15); ×8 0.53, 0.30, 0.16; ×20 0.55, 0.32, 0.14. Open
 * directions alone (the cost used before) gave car 0.76 and truck 0.46: bike was taken for little dearer than car.
 */
export function expectedCostOfSize(size: JobSize, givenOrder: boolean): number {
  return size.arcs ** 1.5 * (size.nodeBased ? NODE_BASED_COST : 1) * (givenOrder ? GIVEN_ORDER_COST : 1);
}

const NODE_BASED_COST = 0.5;

function isNodeBased(job: ModeGraphJob): boolean {
  return turnsAreFree({
    turnCosts: job.turnCosts, restrictions: job.restrictions, obstacles: job.obstacles ?? undefined, restricted: job.restricted,
    ratePercent: job.ratePercent ?? undefined,
  });
}

/**
 * Whether a job's contraction runs in rounds (core/routing/contraction.ts: an own order on at least
 * `roundsFrom` vertices), the only kind a lent core helps. Its vertices: one a junction (node-based) or
 * one an open segment direction, counted as every direction (a lower bound: directions copied for
 * restrictions add some).
 */
function contractsInRounds(network: Network, job: ModeGraphJob, roundsFrom: number): boolean {
  if (job.orderFrom != null) return false;
  const vertices = isNodeBased(job) ? network.vertexPoint.length : network.segmentFrom.length * 2;
  return vertices >= roundsFrom;
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
  /** A job's expected cost (any unit: routing-stage.ts gives expectedCostOfSize), to plan the order. */
  cost: (job: ModeGraphJob) => number;
  /** Told the order the graphs will be started in and what it is expected to take (worker threads only). */
  onPlan?: (plan: SchedulePlan) => void;
}

/**
 * Builds every job's graph and hands each to `onGraph`; returns the most graphs built at once on worker
 * threads (0: all on this thread). Each graph gets a worker of its own, ended as soon as its graph is
 * back, so what the building left behind (its collected turns, its contraction's tables) goes with it;
 * the network's arrays are shared with the workers when they live in SharedArrayBuffers (routing-stage.ts
 * builds it so), not copied into each.
 */
export async function buildModeGraphs(
  network: Network, jobs: ModeGraphJob[], onProgress: ModeGraphProgress, onGraph: ModeGraphSink, options: ModeGraphOptions,
): Promise<number> {
  const threads = Math.min(jobs.length, os.availableParallelism(), options.maxThreads ?? Infinity);
  const size = new Map(jobs.map((j) => [j.id, openDirections(j)]));
  const total = [...size.values()].reduce((a, b) => a + b, 0);
  const signal = options.signal;
  // Each graph's rank, for the jobs that follow its order.
  const ranks = new Map<number, Uint32Array>();
  const keepRank = (job: ModeGraphJob, graph: ModeGraph): void => {
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
      // The written graph is garbage: under a budget, gone before the next is built beside what it
      // leaves (without one, as in most tests, the collections would only cost time).
      if (options.memory !== undefined) collectGarbage();
    }
    return 0;
  }
  if (signal?.aborted) throw signal.reason;
  const memory = options.memory;
  const byId = new Map(jobs.map((j) => [j.id, j]));
  // Both read the jobs' arrays, which go to the workers as they start: taken now.
  const cost = new Map(jobs.map((j) => [j.id, options.cost(j)]));
  const inRounds = new Map(jobs.map((j) => [j.id, contractsInRounds(network, j, ROUNDS_FROM_VERTICES)]));
  // The dearest first, so none is left alone at the end, unless another order is shorter (planSchedule).
  const dearestFirst = [...jobs].sort((a, b) => cost.get(b.id)! - cost.get(a.id)!);
  const setup: ScheduleSetup = {
    threads,
    cores: Math.min(os.availableParallelism(), options.maxThreads ?? Infinity),
    memory: memory === undefined ? undefined : {
      budgetBytes: memory.budgetBytes,
      // What the process holds besides the graphs: the network, the jobs' inputs, what the stages left.
      base: process.memoryUsage.rss(),
      // A job's own arrays leave the process's part with it (jobBuffers) and are its worker's (the
      // estimate counts them): counted once, in the base while the job waits.
      inputs: new Map(jobs.map((j) => [j.id, jobBuffers(j).reduce((sum, b) => sum + b.byteLength, 0)])),
      jobBytes: (id, n) => memory.jobBytes(byId.get(id)!, n),
    },
    inRounds: (id) => inRounds.get(id)!,
  };
  const plan = planSchedule(dearestFirst, setup, (id) => cost.get(id)!);
  options.onPlan?.(plan);
  const schedule = new ModeGraphSchedule(plan.order, setup);
  const running = new Map<number, Worker>();
  let most = 0;
  // Cores no graph is being built on are lent to a running contraction in rounds: each job's word says
  // how many threads its contraction may use now (contraction-rounds.ts starts helpers, or lets some sit
  // out, before its next round; a contraction vertex by vertex, or in a given order, ignores it).
  const lent = new Map<number, Int32Array>();
  const lend = (): void => {
    for (const [id, n] of schedule.lend()) Atomics.store(lent.get(id)!, 0, n);
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
      let failed = false;
      const fail = (err: Error): void => {
        failed = true;
        reject(err);
      };
      // Starts what may start now (ModeGraphSchedule.next).
      const pump = (): void => {
        if (failed) return;
        if (schedule.done) return resolve();
        for (let job = schedule.next(); job !== undefined; job = schedule.next()) start(byId.get(job.id)!);
        most = Math.max(most, schedule.building);
        lend();
      };
      // A graph handed back and written: its worker's isolate ends (with everything the building left in
      // it) and the written arrays, garbage now, are collected before the next graph starts; until then
      // the budget counts the job as still running. Takes no graph, so none stays reachable from here.
      const release = async (id: number, worker: Worker): Promise<void> => {
        await worker.terminate();
        if (signal?.aborted || failed) return;
        collectGarbage();
        running.delete(id);
        schedule.released(id);
        pump();
      };
      const start = (job: ModeGraphJob): void => {
        schedule.started(job.id);
        const worker = new Worker(WORKER_FILE, { workerData: network });
        running.set(job.id, worker);
        const threads = new Int32Array(new SharedArrayBuffer(4));
        threads[0] = 1;
        lent.set(job.id, threads);
        let done = false;
        worker.on('message', (m: WorkerReply) => {
          // Stopped: whatever a worker still says before it is terminated is of no interest.
          if (signal?.aborted || failed) return;
          if (m.kind === 'progress') onProgress(m.job, m.step, m.done, m.total, m.shortcuts);
          else if (m.kind === 'error') fail(new Error(m.message));
          else {
            done = true;
            schedule.graphBack(job.id);
            keepRank(job, m.graph);
            onGraph(job, m.graph, m.seconds, m.peakBytes, m.peakAt);
            void release(job.id, worker).catch(fail);
          }
        });
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (!done && !signal?.aborted) fail(new Error(`mode graph worker exited with code ${code} before its graph was built`));
        });
        // Its inputs go with it: a job's arrays are 13 bytes a segment (~54 MiB a mode at ×20×20).
        worker.postMessage({ ...withOrder(job, ranks), contractionThreads: threads }, jobBuffers(job));
      };
      pump();
    })]);
  } finally {
    signal?.removeEventListener('abort', stop!);
    await Promise.all([...running.values()].map((w) => w.terminate()));
  }
  return most;
}
