// Runs engine work given in steps (core/routing/steps.ts) on the event loop in slices of a few
// milliseconds, yielding to I/O between them: the gateway builds a region's index and mode tables (seconds
// of CPU) while /health and every other request go on being answered.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../../../core/routing/steps';

/** Longest run between two turns of the event loop, ms. */
export const SLICE_MS = 10;

export async function inSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  for (;;) {
    const until = performance.now() + sliceMs;
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      if (performance.now() >= until) break;
    }
    await nextTurn();
  }
}
