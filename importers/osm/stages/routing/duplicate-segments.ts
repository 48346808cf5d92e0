// Ways mapped twice over the same nodes (a street and a route drawn on it, a destination-only stretch
// drawn over a through road) give parallel segments between one pair of vertices. OSRM keeps one edge
// per node pair and direction (its extraction's edge deduplication): the fastest, and among equally fast
// ones the first by name (named before unnamed). The same here, per mode: the others are closed in that
// direction, so a route's time and its street names are OSRM's.
import type { Network } from '../../../../core/routing/network';

/** Groups of parallel two-point segments, each in segment order: `segments[start[g]] … segments[start[g+1]-1]`. */
export interface ParallelSegments {
  start: Uint32Array;
  segments: Uint32Array;
}

/**
 * The parallel groups of a network, found once for every mode: the pairs depend on the network alone.
 * Segments are bucketed by their lower vertex (counting sort, typed arrays) and compared within a
 * bucket by their higher one: a map keyed by `a:b` strings took 6–13 s and a few hundred MB per mode on
 * Baltimore ×20×20 (4 M segments), a silent gap in the import's progress.
 */
export function findParallelSegments(n: Network): ParallelSegments {
  const vertices = n.vertexPoint.length;
  const segmentCount = n.segmentFrom.length;
  const candidate = (s: number): boolean => n.segmentFrom[s] !== n.segmentTo[s] && n.segmentStart[s + 1] - n.segmentStart[s] === 2;
  const bucketStart = new Uint32Array(vertices + 1);
  for (let s = 0; s < segmentCount; s++) if (candidate(s)) bucketStart[Math.min(n.segmentFrom[s], n.segmentTo[s]) + 1]++;
  for (let v = 0; v < vertices; v++) bucketStart[v + 1] += bucketStart[v];
  const fill = bucketStart.slice(0, vertices);
  const bucket = new Uint32Array(bucketStart[vertices]);
  // Filled in segment order, so each bucket (and each group taken from it) is in segment order.
  for (let s = 0; s < segmentCount; s++) if (candidate(s)) bucket[fill[Math.min(n.segmentFrom[s], n.segmentTo[s])]++] = s;
  const start: number[] = [0];
  const segments: number[] = [];
  const taken: number[] = [];
  for (let v = 0; v < vertices; v++) {
    const a = bucketStart[v], b = bucketStart[v + 1];
    if (b - a < 2) continue;
    taken.length = 0;
    for (let i = a; i < b; i++) {
      if (taken.includes(i)) continue;
      const s = bucket[i];
      const far = Math.max(n.segmentFrom[s], n.segmentTo[s]);
      let group = -1;
      for (let j = i + 1; j < b; j++) {
        const t = bucket[j];
        if (Math.max(n.segmentFrom[t], n.segmentTo[t]) !== far) continue;
        if (group < 0) {
          group = segments.length;
          segments.push(s);
        }
        segments.push(t);
        taken.push(j);
      }
      if (group >= 0) start.push(segments.length);
    }
  }
  return { start: Uint32Array.from(start), segments: Uint32Array.from(segments) };
}

/** Closes (sets to -1) the seconds of each parallel two-point segment that OSRM would not keep. */
export function closeDuplicateSegments(n: Network, forward: Float32Array, backward: Float32Array, parallel: ParallelSegments = findParallelSegments(n)): number {
  const name = (s: number) => n.strings[n.wayName[n.segmentWay[s]]];
  const before = (s: number, t: number, seconds: (x: number) => number) => {
    if (seconds(s) !== seconds(t)) return seconds(s) < seconds(t);
    const x = name(s), y = name(t);
    if (x === '' || y === '') return x !== '' && y === '';
    return x < y;
  };
  let closed = 0;
  for (let g = 0; g + 1 < parallel.start.length; g++) {
    const list = Array.from(parallel.segments.subarray(parallel.start[g], parallel.start[g + 1]));
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
