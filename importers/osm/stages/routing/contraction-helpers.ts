// Helper threads for a contraction in rounds (core/routing/contraction-rounds.ts): each a worker thread
// running contraction-helper-worker.js, sent every set of the contraction's shared arrays over a port
// of its own. Without the compiled worker (the TypeScript sources under the tests) a `script` that
// loads the sources may be given; with neither, none is started and the caller's thread does it all,
// with the same result.
import fs from 'node:fs';
import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { ContractionHelpers, RoundArrays } from '../../../../core/routing/contraction';

const WORKER_FILE = path.join(__dirname, 'contraction-helper-worker.js');

/** Whether helper threads can be started from the compiled worker. */
export function contractionHelpersAvailable(): boolean {
  return fs.existsSync(WORKER_FILE);
}

/**
 * Starts `count` helpers with the contraction's control words, numbered from `first`, each waiting past
 * the phase word `seen` (contraction-rounds.ts). `script`: code to run instead of the
 * compiled worker (evaluated; it must end up running the worker module).
 */
export function startContractionHelpers(
  count: number, control: Int32Array, vertexCount: number, first: number, seen: number, script?: string,
): ContractionHelpers | undefined {
  if (script === undefined && !contractionHelpersAvailable()) return undefined;
  const started: Array<{ worker: Worker; send: (a: RoundArrays) => void }> = [];
  for (let i = 0; i < count; i++) {
    const { port1, port2 } = new MessageChannel();
    const worker = script === undefined
      ? new Worker(WORKER_FILE, { workerData: { control, vertexCount, port: port2, index: first + i, seen }, transferList: [port2] })
      : new Worker(script, { eval: true, workerData: { control, vertexCount, port: port2, index: first + i, seen }, transferList: [port2] });
    // A failing share is reported through the control words (helpRounds); this is for a thread that
    // could not start, which the caller's blocked thread would not hear of.
    worker.on('error', (err) => console.error('contraction helper thread failed:', err));
    worker.unref();
    started.push({ worker, send: (a) => port1.postMessage(a) });
  }
  return {
    count,
    send: (arrays) => {
      for (const s of started) s.send(arrays);
    },
    close: () => {
      for (const s of started) void s.worker.terminate();
    },
  };
}
