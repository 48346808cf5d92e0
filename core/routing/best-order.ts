// The exact cheapest order to visit stops between a fixed first and last location (Held–Karp dynamic
// programming over subsets: O(2^k · k²) for k middle stops; 8 middle stops are 16 384 steps).

export interface BestOrder {
  /** Indexes into the cost matrix, first 0 and last n−1. */
  order: number[];
  /** Sum of the costs along the order; Infinity when no order connects every stop. */
  cost: number;
}

/** Middle stops beyond which the 2^k table stops being small. */
export const MAX_MIDDLE_STOPS = 16;

/**
 * `cost` is n×n row-major (cost[i * n + j] from i to j); Infinity (or NaN) marks a missing connection.
 * Ties keep the order found first, which visits lower indexes earlier.
 */
export function bestOrder(cost: Float64Array, n: number): BestOrder {
  if (n < 2) throw new RangeError('bestOrder needs at least two locations');
  if (cost.length !== n * n) throw new RangeError(`bestOrder needs a ${n}×${n} matrix`);
  const at = (i: number, j: number): number => {
    const c = cost[i * n + j];
    return Number.isNaN(c) ? Infinity : c;
  };
  const k = n - 2;
  if (k > MAX_MIDDLE_STOPS) throw new RangeError(`bestOrder handles at most ${MAX_MIDDLE_STOPS} middle stops`);
  if (k === 0) return { order: [0, 1], cost: at(0, 1) };
  const full = (1 << k) - 1;
  // best[mask * k + j]: cheapest path from 0 through the stops in mask, ending at middle stop j (in mask).
  const best = new Float64Array((full + 1) * k).fill(Infinity);
  const parent = new Int8Array((full + 1) * k).fill(-1);
  for (let j = 0; j < k; j++) best[(1 << j) * k + j] = at(0, j + 1);
  for (let mask = 1; mask <= full; mask++) {
    for (let j = 0; j < k; j++) {
      if (!(mask & (1 << j))) continue;
      const here = best[mask * k + j];
      if (here === Infinity) continue;
      for (let next = 0; next < k; next++) {
        if (mask & (1 << next)) continue;
        const nextMask = mask | (1 << next);
        const c = here + at(j + 1, next + 1);
        if (c < best[nextMask * k + next]) {
          best[nextMask * k + next] = c;
          parent[nextMask * k + next] = j;
        }
      }
    }
  }
  let last = -1;
  let total = Infinity;
  for (let j = 0; j < k; j++) {
    const c = best[full * k + j] + at(j + 1, n - 1);
    if (c < total) {
      total = c;
      last = j;
    }
  }
  if (last < 0) return { order: [], cost: Infinity };
  const middle: number[] = [];
  let mask = full;
  for (let j = last; j >= 0;) {
    middle.push(j + 1);
    const p = parent[mask * k + j];
    mask &= ~(1 << j);
    j = p;
  }
  return { order: [0, ...middle.reverse(), n - 1], cost: total };
}
