// Builds the routing stage's mode graphs, each mode's contraction on its own core: a pool of worker
// threads (mode-graph-worker.ts), one per available core up to one per mode, takes the largest graphs
// first. The graphs are the same as built in turn on one thread, which is what happens when there is
// one core, one mode, or no compiled worker to start (the TypeScript sources run under the tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildModeGraph } from '../../../gateway/engine/routing/mode-graph';
import type { ModeGraph, Network } from '../../../gateway/engine/routing/network';
import type { ModeGraphJob, WorkerReply } from './mode-graph-job';

export type ModeGraphProgress = (job: number, step: string, done: number, total?: number) => void;

const WORKER_FILE = path.join(__dirname, 'mode-graph-worker.js');

export async function buildModeGraphs(network: Network, jobs: ModeGraphJob[], onProgress: ModeGraphProgress): Promise<ModeGraph[]> {
  const threads = Math.min(jobs.length, os.availableParallelism());
  if (threads < 2 || !fs.existsSync(WORKER_FILE)) {
    return jobs.map((job) => buildModeGraph({
      network, segmentForward: job.segmentForward, segmentBackward: job.segmentBackward, restrictions: job.restrictions,
      turnCosts: job.turnCosts, blockedVertices: new Set(job.blockedVertices),
      onProgress: (step, done, total) => onProgress(job.id, step, done, total),
    }));
  }
  // Open directions stand in for each graph's size: the largest start first, so none is left alone at the end.
  const open = (j: ModeGraphJob) => j.segmentForward.reduce((s, x) => s + (x >= 0 ? 1 : 0), 0) + j.segmentBackward.reduce((s, x) => s + (x >= 0 ? 1 : 0), 0);
  const queue = [...jobs].sort((a, b) => open(b) - open(a));
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
  return jobs.map((job) => results.get(job.id)!);
}
