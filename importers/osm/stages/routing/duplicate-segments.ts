// Ways mapped twice over the same nodes (a street and a route drawn on it, a destination-only stretch
// drawn over a through road) give parallel segments between one pair of vertices. OSRM keeps one edge
// per node pair and direction (its extraction's edge deduplication): the fastest, and among equally fast
// ones the first by name (named before unnamed). The same here, per mode: the others are closed in that
// direction, so a route's time and its street names are OSRM's.
import type { Network } from '../../../../core/routing/network';

/** Closes (sets to -1) the seconds of each parallel two-point segment that OSRM would not keep. */
export function closeDuplicateSegments(n: Network, forward: Float32Array, backward: Float32Array): number {
  const byPair = new Map<string, number[]>();
  for (let s = 0; s < n.segmentFrom.length; s++) {
    const a = n.segmentFrom[s], b = n.segmentTo[s];
    if (a === b || n.segmentStart[s + 1] - n.segmentStart[s] !== 2) continue;
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    const list = byPair.get(key);
    if (list) list.push(s);
    else byPair.set(key, [s]);
  }
  const name = (s: number) => n.strings[n.wayName[n.segmentWay[s]]];
  const before = (s: number, t: number, seconds: (x: number) => number) => {
    if (seconds(s) !== seconds(t)) return seconds(s) < seconds(t);
    const x = name(s), y = name(t);
    if (x === '' || y === '') return x !== '' && y === '';
    return x < y;
  };
  let closed = 0;
  for (const list of byPair.values()) {
    if (list.length < 2) continue;
    const origin = n.segmentFrom[list[0]];
    for (const away of [true, false]) {
      // Travel from `origin` (away) or towards it: forward on segments that start there, else backward.
      const along = (s: number) => (n.segmentFrom[s] === origin) === away;
      const seconds = (s: number) => (along(s) ? forward[s] : backward[s]);
      const open = list.filter((s) => seconds(s) >= 0);
      if (open.length < 2) continue;
      const kept = open.reduce((best, s) => (before(s, best, seconds) ? s : best));
      for (const s of open) {
        if (s === kept) continue;
        if (along(s)) forward[s] = -1;
        else backward[s] = -1;
        closed++;
      }
    }
  }
  return closed;
}
