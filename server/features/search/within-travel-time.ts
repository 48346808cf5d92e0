// Search by travel time: of candidates ranked by straight-line distance, those reachable from the centre
// within the time, found with one-to-many tables (one request per batch, not one route per user). Routers
// without tables (none in this build; the port allows it) are asked one ETA at a time.
import { RouterRejected, RouterUnavailable } from '../../../adapters/router/engine-errors';
import { OutsideNetwork, RouterLoading, type Router, type RouterMode } from '../../../ports/router';
import type { LngLat } from '../../../core/types';
import { BadRequest, EngineLoading, EngineUnavailable } from '../../http/errors';

/** Destinations per table request: small enough for any engine's table limit, large enough to be cheap. */
const BATCH = 100;
/** Candidates examined at most: a limit of 100 rarely needs more, and the work stays bounded. */
const MAX_EXAMINED = 2000;

export async function withinTravelTime<T>(
  router: Router, near: LngLat, ranked: ReadonlyArray<{ item: T; at: LngLat }>, minutes: number, mode: RouterMode, limit: number,
): Promise<T[]> {
  const picked: T[] = [];
  const candidates = ranked.slice(0, MAX_EXAMINED);
  for (let start = 0; start < candidates.length && picked.length < limit; start += BATCH) {
    const batch = candidates.slice(start, start + BATCH);
    const minutesTo = await minutesFrom(router, near, batch.map((c) => c.at), mode);
    batch.forEach((c, i) => {
      if (picked.length < limit && minutesTo[i] <= minutes) picked.push(c.item);
    });
  }
  return picked;
}

/**
 * Minutes from the centre to each point; Infinity for a point no road reaches. An engine refusing the whole
 * table for one off-network point (OSRM's NoSegment) is asked again without it.
 */
async function minutesFrom(router: Router, near: LngLat, points: LngLat[], mode: RouterMode): Promise<number[]> {
  const out = points.map(() => Infinity);
  let asked = points.map((p, i) => ({ p, i }));
  while (asked.length > 0) {
    try {
      const minutes = router.table
        ? (await router.table({ sources: [near], destinations: asked.map((a) => a.p), mode })).durations[0].map((s) => (s === null ? Infinity : s / 60))
        : await Promise.all(asked.map(async (a) => (await router.eta(near, a.p, mode)).duration));
      asked.forEach((a, k) => {
        out[a.i] = minutes[k];
      });
      return out;
    } catch (err) {
      if (err instanceof OutsideNetwork) {
        if (err.location[0] === near[0] && err.location[1] === near[1]) throw new BadRequest('near', 'near is not close to any road network for this mode');
        const before = asked.length;
        asked = asked.filter((a) => a.p[0] !== err.location[0] || a.p[1] !== err.location[1]);
        if (asked.length === before) throw new EngineUnavailable('The routing engine', `it named a location that was not asked: ${err.message}`);
        continue;
      }
      if (err instanceof RouterUnavailable) throw new EngineUnavailable('The routing engine', err.message);
      if (err instanceof RouterLoading) throw new EngineLoading('The routing engine', err.message, err.retryAfterSeconds);
      if (err instanceof RouterRejected) throw new BadRequest('mode', err.message);
      throw err;
    }
  }
  return out;
}
