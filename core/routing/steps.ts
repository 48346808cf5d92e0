// Work done in steps: a generator that yields between chunks of a long loop, so a caller that must not
// block (the gateway building a region's index and mode tables while it answers) can pause it between
// chunks, and one that may block runs it straight through. A step is a fixed number of loop turns, not a
// time: the engine knows nothing of clocks.
export type Steps<T> = Generator<void, T, void>;

/** Loop turns per step: about a millisecond of the simple loops that use it. */
export const STEP_TURNS = 1 << 16;

/** Runs the steps to the end at once; `onStep` between them (a caller reporting progress on this thread). */
export function finish<T>(steps: Steps<T>, onStep?: () => void): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    onStep?.();
  }
}

/** body(from, to) over [0, count) in chunks of STEP_TURNS, yielding after each. */
export function* inChunks(count: number, body: (from: number, to: number) => void): Steps<void> {
  for (let from = 0; from < count; from += STEP_TURNS) {
    body(from, Math.min(count, from + STEP_TURNS));
    yield;
  }
}
