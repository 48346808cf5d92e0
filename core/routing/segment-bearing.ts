import { bearing } from './geometry';
import type { Network } from './network';

/**
 * Bearing of a segment's first (leaving) or last (arriving) straight piece in travel direction: steps,
 * turn angles and the junction rules all read a road's direction where it meets the junction.
 */
export function segmentBearing(n: Network, segment: number, reversed: boolean, arriving: boolean): number {
  const first = n.segmentStart[segment], last = n.segmentStart[segment + 1] - 1;
  let a: number, b: number;
  if (!reversed) [a, b] = arriving ? [last - 1, last] : [first, first + 1];
  else [a, b] = arriving ? [first + 1, first] : [last, last - 1];
  return bearing(n.pointLon[a] / 1e7, n.pointLat[a] / 1e7, n.pointLon[b] / 1e7, n.pointLat[b] / 1e7);
}
