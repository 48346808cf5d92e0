// Map matching as a hidden Markov model (Newson & Krumm, "Hidden Markov Map Matching Through Noise and
// Sparseness", 2009), the model OSRM and Valhalla use. Each trace point has candidate positions on
// nearby roads (hidden states); a candidate's emission likelihood falls with its distance from the point
// (Gaussian, σ from the point's accuracy); a transition's likelihood falls with the difference between
// the road distance and the straight-line distance of consecutive points (exponential, scale β).
// Viterbi decoding picks the most likely sequence. Pure: the road network is reached only through the
// two functions the caller passes (candidates near a point, road distances between candidates).
//
// Where no transition is possible (no road path within the bound, or one faster than the mode allows
// given the timestamps, or a time gap), the trace is split there instead of inventing a road.

export interface MatchPoint {
  lng: number;
  lat: number;
  /** Seconds since the epoch, when known. */
  time?: number;
  /** Metres, when known. */
  accuracy?: number;
}

export interface Candidate {
  /** Metres from the trace point to this position on the road. */
  distance: number;
}

export interface MatcherParams {
  /** Metres: σ of GPS noise when a point gives no accuracy (Newson & Krumm measured 4.07 m; we assume a phone's 10 m). */
  defaultSigma: number;
  /** Metres: the exponential scale of |road distance − straight-line distance| (β). */
  beta: number;
  /** A time gap longer than this (seconds) between consecutive points splits the trace. */
  maxGapSeconds: number;
  /** Metres/second no road transition may exceed, given the points' timestamps (speed × 1.5 of the mode's fastest road). */
  maxSpeed: number;
  /** Road distance searched between consecutive points: straight-line distance × factor + slack, metres. */
  routeFactor: number;
  routeSlack: number;
  /**
   * Metres/second: the slowest a transition is assumed to go. A transition costing more than that road
   * distance bound at this speed is impossible (OSRM's weight upper bound, which assumes 4 m/s): it
   * refuses long loops, and lets the search stop there rather than prove a loop too long.
   */
  minSpeed: number;
}

export interface MatcherOracle<C extends Candidate> {
  /** Candidate positions of point i, within the search radius the caller derives from its accuracy. */
  candidates(i: number): C[];
  /**
   * Road distances (metres) from each of `from` to each of `to`, row-major (from.length × to.length),
   * Infinity when the least-cost path is longer than `maxDistance` metres, costs more than `maxWeight`
   * (seconds of the mode's cost), or there is none. `from` holds only the previous point's candidates the
   * decoding can still be at (in candidate order): the others' searches would be wasted.
   */
  roadDistances(from: C[], to: C[], maxDistance: number, maxWeight: number): Float64Array;
}

export interface MatchOutcome {
  /** Per input point, the index of its chosen candidate, or -1 when the point is not matched. */
  chosen: Int32Array;
  /** Runs of consecutive matched points [first, last] (inclusive) between which the trace was split. */
  runs: Array<[number, number]>;
}

const EARTH_RADIUS_M = 6371008.8;

export function greatCircle(a: MatchPoint, b: MatchPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function emission(distance: number, sigma: number): number {
  // Log of the Gaussian density; the −log σ term matters because σ differs between points.
  return -0.5 * (distance / sigma) ** 2 - Math.log(sigma);
}

export function matchTrace<C extends Candidate>(points: MatchPoint[], oracle: MatcherOracle<C>, params: MatcherParams): MatchOutcome {
  const n = points.length;
  const chosen = new Int32Array(n).fill(-1);
  const runs: Array<[number, number]> = [];
  const candidates = points.map((_, i) => oracle.candidates(i));

  // Viterbi state of the current run.
  let score: Float64Array = new Float64Array(0);
  /** back[t][k]: the candidate of the previous matched point on the best path to candidate k of point t. */
  const back: Array<Int32Array | undefined> = new Array(n);
  let runStart = -1;
  let previous = -1;

  const closeRun = () => {
    if (runStart < 0 || previous < 0) return;
    // Walk back from the best candidate of the run's last point.
    let k = 0;
    for (let j = 1; j < score.length; j++) if (score[j] > score[k]) k = j;
    let t = previous;
    while (t >= runStart) {
      chosen[t] = k;
      const from = back[t];
      if (!from) break;
      k = from[k];
      // The previous matched point of t: skip points without candidates.
      let s = t - 1;
      while (s >= runStart && candidates[s].length === 0) s--;
      t = s;
    }
    runs.push([runStart, previous]);
    runStart = -1;
    previous = -1;
  };

  for (let t = 0; t < n; t++) {
    const here = candidates[t];
    if (here.length === 0) continue;
    const sigma = Math.max(1, points[t].accuracy ?? params.defaultSigma);
    const emitted = Float64Array.from(here, (c) => emission(c.distance, sigma));
    if (previous >= 0) {
      const a = points[previous];
      const b = points[t];
      const straight = greatCircle(a, b);
      const dt = a.time !== undefined && b.time !== undefined ? b.time - a.time : undefined;
      const gap = dt !== undefined && dt > params.maxGapSeconds;
      let next: Float64Array | undefined;
      let from: Int32Array | undefined;
      if (!gap) {
        // The bound on a transition, as OSRM's: its road distance at most the straight line plus a delta
        // (here straight + straight + 200 m: OSRM's straight + 250 m at 5 s between points for 50 m),
        // its cost at most that distance at the slowest speed assumed. Past either it is impossible, not
        // merely unlikely: a candidate reachable only by a loop round the block (the far side of a
        // divided road) is not taken, the other side's is or the trace is split.
        const bound = straight * params.routeFactor + params.routeSlack;
        const weightBound = bound / params.minSpeed;
        next = new Float64Array(here.length).fill(-Infinity);
        from = new Int32Array(here.length).fill(-1);
        const there = candidates[previous];
        const live: number[] = [];
        for (let j = 0; j < there.length; j++) if (score[j] !== -Infinity) live.push(j);
        const road = oracle.roadDistances(live.map((j) => there[j]), here, bound, weightBound);
        for (let r = 0; r < live.length; r++) {
          const j = live[r];
          for (let k = 0; k < here.length; k++) {
            const d = road[r * here.length + k];
            if (!Number.isFinite(d)) continue;
            // Faster than the mode can go: impossible, not merely unlikely.
            if (dt !== undefined && dt > 0 && d / dt > params.maxSpeed) continue;
            const s = score[j] - Math.abs(d - straight) / params.beta + emitted[k];
            if (s > next[k]) { next[k] = s; from[k] = j; }
          }
        }
      }
      if (next && next.some((s) => s > -Infinity)) {
        score = next;
        back[t] = from;
        previous = t;
        continue;
      }
      // No way from the previous point to this one: end the run there, start a new one here.
      closeRun();
    }
    runStart = t;
    previous = t;
    score = emitted;
    back[t] = undefined;
  }
  closeRun();
  return { chosen, runs };
}
