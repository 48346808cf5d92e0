// Map matching through Valhalla's `/trace_attributes`: the request we send for a trace, and the answer read
// back as the Router port's MatchResult. `/trace_attributes` rather than `/trace_route` because it names
// each matched edge's class, speed limit and shape span, and says which input points matched at all.
import type { LngLat, MatchRequest, MatchResult, MatchedPoint, MatchedRoad } from '../../../ports/router';
import { decodePolyline } from '../polyline';

/** What we ask Valhalla to return; everything else (ids, grades, admin areas…) is left out of the answer. */
export const TRACE_ATTRIBUTES = [
  'edge.names', 'edge.road_class', 'edge.speed_limit', 'edge.length', 'edge.begin_shape_index', 'edge.end_shape_index',
  'matched.point', 'matched.type', 'matched.edge_index', 'shape',
] as const;

/** Valhalla's trace_options.gps_accuracy is capped at 100 m by default servers (openapi x-rad-max). */
const MAX_GPS_ACCURACY_M = 100;

/** Valhalla road classes that are not OSM highway values. */
const HIGHWAY_OF_CLASS: Record<string, string> = { service_other: 'service' };

type ShapePoint = { lat: number; lon: number; time?: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function traceAttributesBody(req: MatchRequest, costing: string): Record<string, unknown> {
  const shape = req.points.map((p): ShapePoint => {
    const point: ShapePoint = { lat: p.location[1], lon: p.location[0] };
    if (p.time !== undefined) point.time = p.time;
    return point;
  });
  const body: Record<string, unknown> = {
    shape,
    costing,
    shape_match: 'map_snap',
    units: 'kilometers',
    filters: { attributes: [...TRACE_ATTRIBUTES], action: 'include' },
  };
  // Valhalla takes one accuracy for the whole trace; the median keeps one wild fix from widening every search.
  const accuracies = req.points.flatMap((p) => (p.accuracy === undefined ? [] : [p.accuracy]));
  if (accuracies.length) body.trace_options = { gps_accuracy: Math.min(MAX_GPS_ACCURACY_M, Math.max(1, median(accuracies))) };
  return body;
}

interface ValhallaEdge {
  names?: unknown;
  road_class?: unknown;
  speed_limit?: unknown;
  length?: unknown;
  begin_shape_index?: unknown;
  end_shape_index?: unknown;
}

interface ValhallaMatchedPoint {
  lat?: unknown;
  lon?: unknown;
  type?: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function namesOf(edge: ValhallaEdge): string[] {
  return Array.isArray(edge.names) ? edge.names.filter((n): n is string => typeof n === 'string') : [];
}

/** OSM highway class of a Valhalla road_class; an edge without one counts as an unknown road. */
function highwayOf(edge: ValhallaEdge): string {
  if (typeof edge.road_class !== 'string' || edge.road_class === '') return 'road';
  return HIGHWAY_OF_CLASS[edge.road_class] ?? edge.road_class;
}

/** km/h; Valhalla writes 0 or leaves it out when untagged, and "unlimited" on unrestricted motorways. */
function speedLimitOf(edge: ValhallaEdge): number | undefined {
  const v = num(edge.speed_limit);
  return v !== undefined && v > 0 ? v : undefined;
}

function matchedPointsFrom(raw: unknown, inputCount: number): MatchedPoint[] {
  if (!Array.isArray(raw)) return [];
  const out: MatchedPoint[] = [];
  // Valhalla answers one matched point per input point, in input order; the index is the position.
  raw.slice(0, inputCount).forEach((p: ValhallaMatchedPoint, originalIndex) => {
    if (typeof p !== 'object' || p === null || p.type === 'unmatched') return;
    const lat = num(p.lat);
    const lon = num(p.lon);
    if (lat === undefined || lon === undefined) return;
    out.push({ location: [lon, lat], originalIndex });
  });
  return out;
}

/** The limit covering most of a run's length, when any edge of it has one. */
function runSpeedLimit(run: ValhallaEdge[]): number | undefined {
  const byLimit = new Map<number, number>();
  for (const e of run) {
    const limit = speedLimitOf(e);
    if (limit !== undefined) byLimit.set(limit, (byLimit.get(limit) ?? 0) + (num(e.length) ?? 0));
  }
  let best: number | undefined;
  let bestLength = -1;
  for (const [limit, length] of byLimit) {
    if (length > bestLength) [best, bestLength] = [limit, length];
  }
  return best;
}

/** One road per run of consecutive edges with the same names and class, spanning their shape indexes. */
export function roadsFrom(edges: readonly ValhallaEdge[], shape: readonly LngLat[]): MatchedRoad[] {
  const roads: MatchedRoad[] = [];
  const at = (index: unknown, fallback: number): LngLat | undefined => {
    const i = num(index);
    return shape[i !== undefined && i >= 0 && i < shape.length ? Math.trunc(i) : fallback];
  };
  let i = 0;
  while (i < edges.length) {
    const first = edges[i];
    const key = `${highwayOf(first)}\u0000${namesOf(first).join('\u0000')}`;
    let j = i + 1;
    while (j < edges.length && `${highwayOf(edges[j])}\u0000${namesOf(edges[j]).join('\u0000')}` === key) j++;
    const run = edges.slice(i, j);
    const start = at(first.begin_shape_index, 0);
    const end = at(run[run.length - 1].end_shape_index, shape.length - 1);
    if (start && end) {
      const road: MatchedRoad = { highway: highwayOf(first), names: namesOf(first), start, end };
      const limit = runSpeedLimit(run);
      if (limit !== undefined) road.speedLimitKph = limit;
      roads.push(road);
    }
    i = j;
  }
  return roads;
}

/**
 * Reads a `/trace_attributes` answer made with `units: kilometers` and a polyline6 `shape`, for a trace of
 * `inputCount` points (matched points past it, which a sound server never sends, are ignored).
 */
export function matchFrom(body: Record<string, unknown>, inputCount: number): MatchResult {
  const shape = typeof body.shape === 'string' ? decodePolyline(body.shape, 6) : [];
  const edges = Array.isArray(body.edges) ? (body.edges.filter((e) => typeof e === 'object' && e !== null) as ValhallaEdge[]) : [];
  const km = edges.reduce((sum, e) => sum + (num(e.length) ?? 0), 0);
  return {
    matchedPoints: matchedPointsFrom(body.matched_points, inputCount),
    geometry: shape,
    // Valhalla writes lengths to the metre (3 decimals of km); keep that, not the float sum's noise.
    distance: Math.round(km * 1000 * 10) / 10,
    roads: roadsFrom(edges, shape),
  };
}
