// Two one-way roads of the same name meeting at a vertex, one leading in and one leading out, close
// in direction: the two carriageways of one road (or the two halves of a small ring). OSRM's
// intersection analysis (its mergeable-road detection) sees them as one road, so going from one onto
// the other is turning back on that road: a u-turn, which its car profile charges the full turn cost
// plus the u-turn penalty. Without this, a route that turns back through a tight loop of one-way roads
// (a hairpin between tunnels, the ring of a small traffic circle) costs ours a few seconds where OSRM
// charges ~27 s per loop (docs/routing-engine.md). Other turns at that vertex see the pair at the
// bisector of their bearings, as OSRM's merged road.
//
// What is kept from OSRM's rule: the two roads have the same non-empty name and road class, neither is
// a roundabout, they are adjacent in bearing order at a vertex of three roads or more, their bearings
// differ by at most MERGE_ANGLE, and the roads either side of the pair are distinct from it (farther
// than MERGE_ANGLE or another name). OSRM's further checks (parallel courses over 40 m, narrow
// triangles, link roads) are not reproduced. A road's bearing is taken towards its far end when it is
// shorter than OSRM's look-ahead (short curved roads are judged by where they lead), else along it
// (codeBearing).
import { bearing, turnAngle } from './geometry';
import { SEGMENT_ROUNDABOUT, type Network } from './network';

/** Degrees: OSRM's largest angle between two roads it merges. */
export const MERGE_ANGLE = 95;
/** Metres: roads shorter than this are judged by the bearing to their far end (OSRM looks 40 m plus two lanes ahead). */
export const SHORT_ROAD_METRES = 46.5;

interface Road {
  segment: number;
  /** Code leaving the vertex along the road, code arriving at it. */
  out: number;
  in: number;
  bearing: number;
}

export interface MergedCarriageways {
  /** Code arriving along one carriageway → code leaving along the other (codes: 2 × segment + 1 against its direction). */
  uturns: Map<number, number>;
  /** Code leaving a vertex along a merged road → the bisector of the pair's bearings there. */
  bearings: Map<number, number>;
}

/** `open(c)` tells whether code c can be driven; `alongBearing(c)` the bearing leaving along code c. */
export function mergedCarriageways(n: Network, open: (c: number) => boolean, alongBearing: (c: number) => number): MergedCarriageways {
  const vertices = n.vertexPoint.length;
  const first = new Uint32Array(vertices + 1);
  const segments = n.segmentFrom.length;
  for (let s = 0; s < segments; s++) {
    if (n.segmentFrom[s] === n.segmentTo[s]) continue;
    first[n.segmentFrom[s] + 1]++;
    first[n.segmentTo[s] + 1]++;
  }
  for (let v = 0; v < vertices; v++) first[v + 1] += first[v];
  const at = new Uint32Array(first[vertices]);
  const pos = first.slice(0, vertices);
  for (let s = 0; s < segments; s++) {
    if (n.segmentFrom[s] === n.segmentTo[s]) continue;
    at[pos[n.segmentFrom[s]]++] = 2 * s;
    at[pos[n.segmentTo[s]]++] = 2 * s + 1;
  }
  const name = (s: number) => n.strings[n.wayName[n.segmentWay[s]]] ?? '';
  const lon = (p: number) => n.pointLon[p] / 1e7, lat = (p: number) => n.pointLat[p] / 1e7;
  const uturns = new Map<number, number>();
  const bearings = new Map<number, number>();
  for (let v = 0; v < vertices; v++) {
    const roads: Road[] = [];
    for (let i = first[v]; i < first[v + 1]; i++) {
      const out = at[i];
      const s = out >> 1;
      const inCode = out ^ 1;
      if (!open(out) && !open(inCode)) continue;
      let b: number;
      if (n.segmentLength[s] < SHORT_ROAD_METRES) {
        const here = n.vertexPoint[v];
        const far = (out & 1) === 0 ? n.segmentStart[s + 1] - 1 : n.segmentStart[s];
        b = bearing(lon(here), lat(here), lon(far), lat(far));
      } else b = alongBearing(out);
      roads.push({ segment: s, out, in: inCode, bearing: b });
    }
    if (roads.length < 3) continue;
    roads.sort((a, b) => a.bearing - b.bearing);
    const k = roads.length;
    const apart = (a: Road, b: Road) => Math.abs(turnAngle(a.bearing, b.bearing)) > MERGE_ANGLE;
    const distinct = (a: Road, b: Road) => apart(a, b) || name(a.segment) !== name(b.segment);
    for (let i = 0; i < k; i++) {
      const lhs = roads[i], rhs = roads[(i + 1) % k];
      if (!distinct(roads[(i + k - 1) % k], lhs) || !distinct(rhs, roads[(i + 2) % k])) continue;
      if (apart(lhs, rhs) || !sameRoad(n, lhs.segment, rhs.segment, name)) continue;
      // One leads only in, the other only out.
      const lhsIn = open(lhs.in) && !open(lhs.out), lhsOut = open(lhs.out) && !open(lhs.in);
      const rhsIn = open(rhs.in) && !open(rhs.out), rhsOut = open(rhs.out) && !open(rhs.in);
      if (lhsIn && rhsOut) uturns.set(lhs.in, rhs.out);
      else if (rhsIn && lhsOut) uturns.set(rhs.in, lhs.out);
      else continue;
      const mid = bisector(lhs.bearing, rhs.bearing);
      bearings.set(lhs.out, mid);
      bearings.set(rhs.out, mid);
    }
  }
  return { uturns, bearings };
}

function sameRoad(n: Network, a: number, b: number, name: (s: number) => string): boolean {
  if (name(a) === '' || name(a) !== name(b)) return false;
  if ((n.segmentFlags[a] & SEGMENT_ROUNDABOUT) !== 0 || (n.segmentFlags[b] & SEGMENT_ROUNDABOUT) !== 0) return false;
  // Two roads between the same two vertices are a loop, not two carriageways.
  const ends = (s: number) => [n.segmentFrom[s], n.segmentTo[s]].sort((x, y) => x - y).join();
  if (ends(a) === ends(b)) return false;
  return n.wayClass[n.segmentWay[a]] === n.wayClass[n.segmentWay[b]];
}

function bisector(a: number, b: number): number {
  const r = Math.PI / 180;
  return (Math.atan2(Math.sin(a * r) + Math.sin(b * r), Math.cos(a * r) + Math.cos(b * r)) / r + 360) % 360;
}
