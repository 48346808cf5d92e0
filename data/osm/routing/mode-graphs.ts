// Builds the routing stage's mode graphs, each mode's contraction on its own core: a pool of worker
// threads (mode-graph-worker.ts), one per available core up to one per mode, takes the largest graphs
// first. The graphs are the same as built in turn on one thread, which is what happens for a small
// extract, on one core, or with no compiled worker to start (the TypeScript sources run under the tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildModeGraph } from '../../../gateway/engine/routing/mode-graph';
import type { ModeGraph, Network } from '../../../gateway/engine/routing/network';
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

export interface BuiltModeGraphs {
  /** In the order of the jobs. */
  graphs: ModeGraph[];
  /** Worker threads that built them; 0 when built on the calling thread. */
  threads: number;
}

export async function buildModeGraphs(network: Network, jobs: ModeGraphJob[], onProgress: ModeGraphProgress): Promise<BuiltModeGraphs> {
  const threads = Math.min(jobs.length, os.availableParallelism());
  const size = new Map(jobs.map((j) => [j.id, openDirections(j)]));
  const total = [...size.values()].reduce((a, b) => a + b, 0);
  if (threads < 2 || total < WORKERS_FROM_DIRECTIONS || !fs.existsSync(WORKER_FILE)) {
    const graphs = jobs.map((job) => buildModeGraph({
      network, segmentForward: job.segmentForward, segmentBackward: job.segmentBackward, restrictions: job.restrictions,
      turnCosts: job.turnCosts, blockedVertices: new Set(job.blockedVertices), restricted: job.restricted, obstacles: job.obstacles ?? undefined,
      onProgress: (step, done, total) => onProgress(job.id, step, done, total),
    }));
    return { graphs, threads: 0 };
  }
  // Open directions stand in for each graph's size: the largest start first, so none is left alone at the end.
  const queue = [...jobs].sort((a, b) => size.get(b.id)! - size.get(a.id)!);
  const results = new Map<number, ModeGraph>();
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_FILE, { workerData: network }));
  try {
    await Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
      const next = (): void => {
        const job = queue.shift();
        if (job === undefined) return resolve();
        worker.postMessage(job);
      };
      worker.on('message', (m: WorkerReply) => {
        if (m.kind === 'progress') onProgress(m.job, m.step, m.done, m.total);
        else if (m.kind === 'error') reject(new Error(m.message));
        else {
          results.set(m.job, m.graph);
          next();
        }
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (code !== 0) reject(new Error(`mode graph worker exited with code ${code}`));
      });
      next();
    })));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { graphs: jobs.map((job) => results.get(job.id)!), threads };
}
