// Contraction orders for an edge-based mode graph derived from another mode's hierarchy over the same
// network (bench/contraction-orders.ts measures them; none is used by the import: on Baltimore ×4×4 each
// gave bike more shortcuts and more CPU than its own order, docs/routing-engine.md), so that its
// contraction would skip simulating priorities (most of an ordered contraction's work,
// contraction.ts `order`). A hierarchy answers exactly in any vertex order; the order only decides how
// many shortcuts it gets and how far a query searches. Vertex c < 2 × segments of every edge-based graph
// is segment direction c, so one mode's rank applies to another's vertices directly; a vertex copied for
// a restriction through ways follows its original (orderByRank).
//
// - rankFollowing: another edge-based mode's rank (bike following car). Directions the other mode does not
//   travel (paths, cycleways for car) are isolated vertices in its graph with no telling rank: they are
//   put first, ordered by `first` (below), then the other's directions in its order.
// - rankFromNodeRanks: a node-based hierarchy's rank (foot's) turned into a rank of segment directions, a
//   direction ranked by its lower end, then its higher end: contracting the directions around a junction
//   when the node-based order contracted that junction.
import { orderByRank } from '../../core/routing/contraction';

/** Ranks (0 … n-1, ties allowed) of `count` items by the keys (lo, hi), lexicographically: two counting sorts. */
function rankByPairs(count: number, lo: Uint32Array, hi: Uint32Array, keyCount: number): Uint32Array {
  const byHi = countingOrder(count, hi, keyCount, undefined);
  const order = countingOrder(count, lo, keyCount, byHi);
  const rank = new Uint32Array(count);
  for (let i = 0; i < count; i++) rank[order[i]] = i;
  return rank;
}

/** Items in order of `key` (stable over `within`, the items' order so far; default by index). */
function countingOrder(count: number, key: Uint32Array, keyCount: number, within: Uint32Array | undefined): Uint32Array {
  const at = new Uint32Array(keyCount + 1);
  for (let i = 0; i < count; i++) at[key[i] + 1]++;
  for (let k = 0; k < keyCount; k++) at[k + 1] += at[k];
  const order = new Uint32Array(count);
  for (let j = 0; j < count; j++) {
    const i = within === undefined ? j : within[j];
    order[at[key[i]]++] = i;
  }
  return order;
}

/**
 * Rank per segment direction (0 … codes-1) from a node-based graph's hierarchy: `arcTail[c]`, `arcHead[c]`
 * are the node-based vertices direction c joins (node-mode-graph.ts keeps them for every direction, open or
 * not), `rank` their rank. A direction comes when the lower of its ends was contracted there, and among
 * those of one junction by its other end.
 */
export function rankFromNodeRanks(codes: number, rank: Uint32Array, arcTail: Uint32Array, arcHead: Uint32Array): Uint32Array {
  const lo = new Uint32Array(codes);
  const hi = new Uint32Array(codes);
  for (let c = 0; c < codes; c++) {
    const a = rank[arcTail[c]], b = rank[arcHead[c]];
    lo[c] = a < b ? a : b;
    hi[c] = a < b ? b : a;
  }
  return rankByPairs(codes, lo, hi, rank.length);
}

/**
 * Rank per segment direction following `rank` (another edge-based graph's, over at least `codes`
 * vertices) for the directions `known` says it travels; the others first, in the order of `first` (a rank
 * per direction, e.g. rankFromNodeRanks; default direction order).
 */
export function rankFollowing(codes: number, rank: Uint32Array, known: (c: number) => boolean, first?: Uint32Array): Uint32Array {
  const lo = new Uint32Array(codes);
  const hi = new Uint32Array(codes);
  for (let c = 0; c < codes; c++) {
    if (known(c)) {
      lo[c] = 1;
      hi[c] = rank[c];
    } else hi[c] = first === undefined ? 0 : first[c];
  }
  return rankByPairs(codes, lo, hi, Math.max(rank.length, codes, 2));
}

/** The contraction order of a graph of `vertexCount` vertices (codes, then copies of `duplicateOf`) by a rank per direction. */
export function orderOfDirections(directionRank: Uint32Array, vertexCount: number, duplicateOf: ArrayLike<number>): Uint32Array {
  const codes = directionRank.length;
  return orderByRank(directionRank, vertexCount, codes, (v) => duplicateOf[v - codes]);
}
