// Parallel two-point segments (importers/osm/stages/routing/duplicate-segments.ts) are found once per
// import with typed arrays; the groups must be those of pairing every segment by its two vertices,
// each group in segment order, as the per-mode map of `a:b` keys they replace found them.
import { findParallelSegments } from '../../importers/osm/stages/routing/duplicate-segments';
import type { Network } from '../../core/routing/network';

function network(from: number[], to: number[], points: number[]): Network {
  const segmentStart = [0];
  for (const p of points) segmentStart.push(segmentStart[segmentStart.length - 1] + p);
  const vertices = Math.max(...from, ...to) + 1;
  return {
    segmentFrom: Uint32Array.from(from), segmentTo: Uint32Array.from(to), segmentStart: Uint32Array.from(segmentStart),
    vertexPoint: new Uint32Array(vertices),
  } as unknown as Network;
}

/** Groups by pair key, as the string map did. */
function byPairKey(n: Network): number[][] {
  const byPair = new Map<string, number[]>();
  for (let s = 0; s < n.segmentFrom.length; s++) {
    const a = n.segmentFrom[s], b = n.segmentTo[s];
    if (a === b || n.segmentStart[s + 1] - n.segmentStart[s] !== 2) continue;
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    byPair.set(key, [...(byPair.get(key) ?? []), s]);
  }
  return [...byPair.values()].filter((l) => l.length > 1).sort((x, y) => x[0] - y[0]);
}

function groups(n: Network): number[][] {
  const p = findParallelSegments(n);
  const out: number[][] = [];
  for (let g = 0; g + 1 < p.start.length; g++) out.push(Array.from(p.segments.subarray(p.start[g], p.start[g + 1])));
  return out.sort((x, y) => x[0] - y[0]);
}

test('a hand-made case: both directions, a loop, a segment of three points, a triple', () => {
  // 0: 1→2, 1: 2→1 (parallel to 0), 2: 3→3 (loop, never), 3: 1→2 of three points (never), 4: 4→5, 5: 1→2, 6: 5→4.
  const n = network([1, 2, 3, 1, 4, 1, 5], [2, 1, 3, 2, 5, 2, 4], [2, 2, 2, 3, 2, 2, 2]);
  expect(groups(n)).toEqual([[0, 1, 5], [4, 6]]);
  expect(groups(n)).toEqual(byPairKey(n));
});

test('seeded random networks group as the map of pair keys does', () => {
  let a = 7;
  const next = (k: number) => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a % k;
  };
  for (let round = 0; round < 20; round++) {
    const from: number[] = [], to: number[] = [], points: number[] = [];
    const vertices = 5 + next(200);
    for (let s = 0; s < 2000; s++) {
      from.push(next(vertices));
      to.push(next(vertices));
      points.push(next(5) === 0 ? 3 : 2);
    }
    const n = network(from, to, points);
    expect(groups(n)).toEqual(byPairKey(n));
  }
});
