// Which imported extract answers a request when several are loaded. Adjacent extracts overlap at their
// edges and each one's roads stop there, so "the first (by name) with a road within 1 km of every
// point" picks the wrong one near a seam: a trace on Hudson Street went to the Lower East Side extract,
// whose nearest road is a block away, and matching failed there. The extract whose roads lie nearest
// the points is the one they are on: most points reached, then the least distance to the roads in all.

/** How well one extract's roads fit the points. */
export interface ExtractFit {
  /** Points with a road of the mode within the search radius. */
  reached: number;
  /** Sum of those points' distances to their roads, metres. */
  metres: number;
}

/** Fits of each point: its distance to the nearest road of the extract, or null beyond the radius. */
export function fitOf(distances: ReadonlyArray<number | null>): ExtractFit {
  let reached = 0;
  let metres = 0;
  for (const d of distances) {
    if (d === null) continue;
    reached++;
    metres += d;
  }
  return { reached, metres };
}

/** The index of the best fit (more points reached, then fewer metres; the first of equals), or -1. */
export function bestFit(fits: ReadonlyArray<ExtractFit | undefined>, minReached = 1): number {
  let best = -1;
  for (let i = 0; i < fits.length; i++) {
    const f = fits[i];
    if (f === undefined || f.reached < minReached) continue;
    const b = best >= 0 ? fits[best]! : undefined;
    if (!b || f.reached > b.reached || (f.reached === b.reached && f.metres < b.metres)) best = i;
  }
  return best;
}
