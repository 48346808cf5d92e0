// A worker thread of the routing stage: builds the mode graphs it is sent (mode-graphs.ts) over the
// network it was started with, reporting progress, and hands each graph back without copying.
import { parentPort, workerData } from 'node:worker_threads';
import { buildJobGraph } from './job-graph';
import type { Network } from '../../../../core/routing/network';
import { graphBuffers, type ModeGraphJob, type WorkerReply } from './mode-graph-job';

const network = workerData as Network;
const port = parentPort!;

port.on('message', (job: ModeGraphJob) => {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  const started = process.hrtime.bigint();
  try {
    const graph = buildJobGraph(network, job, (step, done, total) => reply({ kind: 'progress', job: job.id, step, done, total }));
    reply({ kind: 'graph', job: job.id, graph, seconds: Number(process.hrtime.bigint() - started) / 1e9 }, graphBuffers(graph));
  } catch (err) {
    reply({ kind: 'error', job: job.id, message: err instanceof Error ? err.message : String(err) });
  }
});
