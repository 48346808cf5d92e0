// Timed runs of in-process track updates (TrackService over SQLite, no HTTP), for the benchmarks that
// measure what one track step adds: seeded walks, a warm-up run per case, a result sink, RUNS timed
// runs of DEVICES × UPDATES sequential updates, figures in µs per update.
import type { TrackService } from '../../server/features/track/track-service';
import type { TrackContext } from '../../server/track-step';
import type { TrackInput } from '../../core/model/track-input';
import { offset, prng, randomPoint, type LngLat } from './metro';
import { summarize } from './stats';

export interface CaseFigures {
  name: string;
  min: number;
  median: number;
  mean: number;
}

export interface RunOptions {
  devices: number;
  updates: number;
  runs: number;
  seed: number;
  /** Start positions; default random over the metro area. */
  start?: (rnd: () => number) => LngLat;
  /** Metres a device moves per update in each axis, at most. */
  stepM?: number;
}

export let sink = 0;

export interface TrackCase {
  name: string;
  track: TrackService;
  ctx: (d: number) => TrackContext;
  input: (d: number, location: LngLat, u: number) => TrackInput;
}

/**
 * Times every case, interleaved: run r of each case follows run r of the one before, so load from
 * other work on a shared machine falls on all cases alike instead of on whichever ran during it.
 */
export async function timeTrackCases(cases: TrackCase[], o: RunOptions): Promise<CaseFigures[]> {
  const runners = cases.map((c) => {
    const rnd = prng(o.seed);
    const positions: LngLat[] = Array.from({ length: o.devices }, () => (o.start ?? randomPoint)(rnd));
    const step = o.stepM ?? 40;
    let u = 0;
    return async (): Promise<number> => {
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < o.updates; k++, u++) {
        for (let d = 0; d < o.devices; d++) {
          positions[d] = offset(positions[d], (rnd() * 2 - 1) * step, (rnd() * 2 - 1) * step);
          const result = await c.track.track(c.ctx(d), c.input(d, positions[d], u));
          sink += result.events.length;
        }
      }
      return Number(process.hrtime.bigint() - t0) / 1e3 / (o.devices * o.updates);
    };
  });
  for (const once of runners) await once(); // warm-up: creates the users, JIT
  const times: number[][] = cases.map(() => []);
  for (let r = 0; r < o.runs; r++) {
    for (const [i, once] of runners.entries()) times[i].push(await once());
  }
  return cases.map((c, i) => ({ name: c.name, ...summarize(times[i]) }));
}

export function printCases(title: string, results: CaseFigures[]): void {
  const floor = results[0].median;
  console.log(`\n${title}`);
  console.log('case'.padEnd(56), 'min'.padStart(8), 'median'.padStart(8), 'mean'.padStart(8), 'added'.padStart(8));
  for (const f of results) {
    console.log(f.name.padEnd(56), f.min.toFixed(0).padStart(8), f.median.toFixed(0).padStart(8), f.mean.toFixed(0).padStart(8), (f.median - floor).toFixed(0).padStart(8));
  }
}

/** µs per call of a pure function over `n` calls, best of `runs`, after a warm-up. */
export function timePure(n: number, runs: number, fn: (i: number) => number): number {
  for (let i = 0; i < n; i++) sink += fn(i);
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += fn(i);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / n);
  }
  return best;
}
