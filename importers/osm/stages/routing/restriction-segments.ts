// A turn restriction read from OSM (restrictions.ts) placed on the network's segments for the mode
// graphs: via a node, the segments of the from and to ways that touch its vertex; through ways, the
// segment directions driven from the from way along each via way, end to end, onto the to way.
import type { SegmentRestriction } from '../../../../core/routing/mode-graph';
import type { Network } from '../../../../core/routing/network';
import type { TurnRestriction } from './restrictions';

export interface RestrictionPlaces {
  network: Network;
  /** The vertex an OSM node is, or -1. */
  vertexOfNode(osmId: number): number;
  /** First and last OSM node of a way the restrictions name, when kept. */
  wayEnds(osmId: number): readonly [number, number] | undefined;
  /** Segments of a way the restrictions name, in the way's node order. */
  waySegments(osmId: number): readonly number[];
}

/** The restriction on segments; null when it cannot apply (a way missing, ways not connected, ambiguous). */
export function placeRestriction(r: TurnRestriction, at: RestrictionPlaces): SegmentRestriction | null {
  return r.viaNode >= 0 ? viaNode(r, at) : viaWays(r, at);
}

function viaNode(r: TurnRestriction, at: RestrictionPlaces): SegmentRestriction | null {
  const n = at.network;
  // Via a node in the middle of the from or to way: which part is meant is ambiguous; OSRM ignores it.
  const endsAtVia = (way: number) => at.wayEnds(way)?.includes(r.viaNode) ?? false;
  if (!r.fromWays.every(endsAtVia) || !r.toWays.every(endsAtVia)) return null;
  const via = at.vertexOfNode(r.viaNode);
  if (via < 0) return null;
  const touching = (ways: number[]) => ways.flatMap((w) => at.waySegments(w).filter((s) => n.segmentFrom[s] === via || n.segmentTo[s] === via));
  const fromSegments = touching(r.fromWays);
  const toSegments = touching(r.toWays);
  if (fromSegments.length === 0 || toSegments.length === 0) return null;
  return { via, fromSegments, toSegments, only: r.only };
}

function viaWays(r: TurnRestriction, at: RestrictionPlaces): SegmentRestriction | null {
  const n = at.network;
  if (r.fromWays.length !== 1 || r.toWays.length !== 1) return null;
  const endVertices = (way: number): [number, number] | null => {
    const ends = at.wayEnds(way);
    if (ends === undefined) return null;
    const a = at.vertexOfNode(ends[0]), b = at.vertexOfNode(ends[1]);
    return a < 0 || b < 0 ? null : [a, b];
  };
  // Where the via ways begin: the end of the first one the from way reaches.
  const first = endVertices(r.viaWays[0]);
  if (first === null) return null;
  // The from way must end where the via ways begin, and the to way start where they end (else which
  // part is meant is ambiguous; OSRM ignores it).
  const fromEnds = endVertices(r.fromWays[0]);
  const toEnds = endVertices(r.toWays[0]);
  if (fromEnds === null || toEnds === null) return null;
  const entries = first.filter((v) => fromEnds.includes(v));
  if (entries.length !== 1) return null;
  let vertex = entries[0];
  const start = vertex;
  const viaCodes: number[] = [];
  for (const way of r.viaWays) {
    const ends = endVertices(way);
    const segments = at.waySegments(way);
    if (ends === null || segments.length === 0 || ends[0] === ends[1]) return null;
    if (ends[0] === vertex) {
      for (const s of segments) viaCodes.push(2 * s);
      vertex = ends[1];
    } else if (ends[1] === vertex) {
      for (let i = segments.length - 1; i >= 0; i--) viaCodes.push(2 * segments[i] + 1);
      vertex = ends[0];
    } else return null;
  }
  const fromCodes = at.waySegments(r.fromWays[0]).flatMap((s) => {
    const codes: number[] = [];
    if (n.segmentTo[s] === start) codes.push(2 * s);
    if (n.segmentFrom[s] === start) codes.push(2 * s + 1);
    return codes;
  }).filter((c) => c >> 1 !== viaCodes[0] >> 1);
  const end = vertex;
  if (!toEnds.includes(end)) return null;
  const toSegments = at.waySegments(r.toWays[0]).filter((s) => n.segmentFrom[s] === end || n.segmentTo[s] === end);
  if (fromCodes.length === 0 || toSegments.length === 0) return null;
  return { via: -1, fromSegments: fromCodes.map((c) => c >> 1), toSegments, only: r.only, path: { fromCodes, viaCodes } };
}
