// The roads of a network inside a box, as lines: the dashboard's base layer. One pass over the
// segments (a city's network is a few hundred thousand of them, a few milliseconds), bounded by `limit`
// so a dense box cannot make an answer of unbounded size; major roads first when it is cut.
import type { LngLat } from './route-shapes';
import { ROAD_CLASSES, type Network } from './network';

/** Road classes drawn wider, and kept first when the answer is cut. */
const MAJOR = new Set(['motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link']);

export interface RoadLine {
  coordinates: LngLat[];
  major: boolean;
}

export function roadsInBox(n: Network, [west, south, east, north]: [number, number, number, number], limit: number): { roads: RoadLine[]; cut: boolean } {
  const w = Math.round(west * 1e7), s = Math.round(south * 1e7), e = Math.round(east * 1e7), no = Math.round(north * 1e7);
  const major: RoadLine[] = [];
  const minor: RoadLine[] = [];
  for (let seg = 0; seg < n.segmentFrom.length; seg++) {
    const first = n.segmentStart[seg], last = n.segmentStart[seg + 1];
    let touches = false;
    for (let p = first; p < last && !touches; p++) {
      const x = n.pointLon[p], y = n.pointLat[p];
      touches = x >= w && x <= e && y >= s && y <= no;
    }
    if (!touches) continue;
    const coordinates: LngLat[] = [];
    for (let p = first; p < last; p++) coordinates.push([n.pointLon[p] / 1e7, n.pointLat[p] / 1e7]);
    const isMajor = MAJOR.has(ROAD_CLASSES[n.wayClass[n.segmentWay[seg]]] ?? '');
    (isMajor ? major : minor).push({ coordinates, major: isMajor });
  }
  const all = [...major, ...minor];
  return { roads: all.slice(0, limit), cut: all.length > limit };
}
