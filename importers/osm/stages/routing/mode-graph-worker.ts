// A worker thread of the routing stage: builds the one mode graph it is sent (mode-graphs.ts) over the
// network it was started with, reporting progress and the most memory its isolate held, and hands the
// graph back without copying; the stage then ends the thread.
import { parentPort, workerData } from 'node:worker_threads';
import { buildJobGraph } from './job-graph';
import type { Network } from '../../../../core/routing/network';
import { graphBuffers, type ModeGraphJob, type WorkerReply } from './mode-graph-job';

const network = workerData as Network;
const port = parentPort!;

/** This isolate's heap and array buffers (the shared network's included: the same in every worker). */
function held(): number {
  const m = process.memoryUsage();
  return m.heapTotal + m.arrayBuffers;
}

port.on('message', (job: ModeGraphJob) => {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  const started = process.hrtime.bigint();
  let peakBytes = held();
  try {
    const graph = buildJobGraph(network, job, (step, done, total, shortcuts) => {
      peakBytes = Math.max(peakBytes, held());
      reply({ kind: 'progress', job: job.id, step, done, total, shortcuts });
    });
    peakBytes = Math.max(peakBytes, held());
    reply({ kind: 'graph', job: job.id, graph, seconds: Number(process.hrtime.bigint() - started) / 1e9, peakBytes }, graphBuffers(graph));
  } catch (err) {
    reply({ kind: 'error', job: job.id, message: err instanceof Error ? err.message : String(err) });
  }
});
