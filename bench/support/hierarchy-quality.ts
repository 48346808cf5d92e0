// How good a hierarchy is for queries, beside its shortcut count: the mean upward search space (vertices
// a plain upward Dijkstra settles, no stalling) from seeded vertices, forward and backward, and the
// distances between seeded pairs (meeting of the two full upward searches), to compare two hierarchies
// of one graph (bench/contraction-file.ts, bench/contraction.ts).
import type { Hierarchy, UpwardGraph } from '../../core/routing/contraction';
import { MinHeap } from '../../core/routing/min-heap';
import { prng } from './prng';

function upward(g: UpwardGraph, n: number, from: number, cost: Float64Array, stamp: Uint32Array, gen: number, heap: MinHeap): number[] {
  heap.clear();
  cost[from] = 0;
  stamp[from] = gen;
  heap.push(from, 0);
  const settled: number[] = [];
  while (heap.size > 0) {
    const v = heap.pop();
    const key = heap.lastKey;
    if (key > cost[v]) continue;
    settled.push(v);
    for (let i = g.first[v]; i < g.first[v + 1]; i++) {
      const w = g.other[i];
      const c = key + g.weight[i];
      if (stamp[w] !== gen || c < cost[w]) {
        cost[w] = c;
        stamp[w] = gen;
        heap.push(w, c);
      }
    }
  }
  void n;
  return settled;
}

export interface HierarchyQuality {
  /** Mean vertices settled by one upward search (forward and backward together, over the pairs). */
  meanSettled: number;
  /** Cost per pair (Infinity: none), seconds. */
  costs: Float64Array;
}

/** `pairs` seeded source/target pairs among the vertices `arcTail` leaves from (the same for any hierarchy of the graph). */
export function hierarchyQuality(h: Hierarchy, n: number, arcTail: Uint32Array, pairs: number, seed: number): HierarchyQuality {
  const random = prng(seed);
  const fc = new Float64Array(n), bc = new Float64Array(n);
  const fs = new Uint32Array(n), bs = new Uint32Array(n);
  const heap = new MinHeap(1024);
  const costs = new Float64Array(pairs);
  let settled = 0;
  const leaves = new Uint8Array(n);
  for (const t of arcTail) leaves[t] = 1;
  const hasEdges = (v: number) => leaves[v] === 1;
  for (let k = 0; k < pairs; k++) {
    let s = 0, t = 0;
    do s = Math.floor(random() * n); while (!hasEdges(s));
    do t = Math.floor(random() * n); while (!hasEdges(t));
    const f = upward(h.forward, n, s, fc, fs, k + 1, heap);
    const b = upward(h.backward, n, t, bc, bs, k + 1, heap);
    settled += f.length + b.length;
    let best = Infinity;
    for (const v of f) if (bs[v] === k + 1 && fc[v] + bc[v] < best) best = fc[v] + bc[v];
    costs[k] = best;
  }
  return { meanSettled: settled / pairs, costs };
}

/** Pairs whose costs differ by more than `tolerance` seconds. */
export function differingCosts(a: Float64Array, b: Float64Array, tolerance = 0.01): number {
  let differing = 0;
  for (let k = 0; k < a.length; k++) if (!(a[k] === b[k] || Math.abs(a[k] - b[k]) <= tolerance)) differing++;
  return differing;
}
