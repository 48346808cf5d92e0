// A worker thread of the routing stage: builds the one mode graph it is sent (mode-graphs.ts) over the
// network it was started with, reporting progress and the most memory its isolate held, and hands the
// graph back without copying; the stage then ends the thread.
import { parentPort, workerData } from 'node:worker_threads';
import { buildJobGraph } from './job-graph';
import type { Network } from '../../../../core/routing/network';
import { graphBuffers, type ModeGraphJob, type WorkerReply } from './mode-graph-job';

const network = workerData as Network;
const port = parentPort!;

/** This isolate's heap and array buffers (not the shared network: a SharedArrayBuffer counts in the thread that made it). */
function held(): number {
  const m = process.memoryUsage();
  return m.heapTotal + m.arrayBuffers;
}

port.on('message', (job: ModeGraphJob) => {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  const started = process.hrtime.bigint();
  let peakBytes = held();
  // Where the building was at its peak (a step and its share done): what to shrink first.
  let peakAt = 'start';
  const sample = (at: () => string): void => {
    const now = held();
    if (now <= peakBytes) return;
    peakBytes = now;
    peakAt = at();
  };
  try {
    const graph = buildJobGraph(network, job, (step, done, total, shortcuts) => {
      sample(() => (total ? `${step} ${Math.floor((done / total) * 100)}%` : step));
      reply({ kind: 'progress', job: job.id, step, done, total, shortcuts });
    });
    sample(() => 'built');
    reply({ kind: 'graph', job: job.id, graph, seconds: Number(process.hrtime.bigint() - started) / 1e9, peakBytes, peakAt }, graphBuffers(graph));
  } catch (err) {
    reply({ kind: 'error', job: job.id, message: err instanceof Error ? err.message : String(err) });
  }
});
