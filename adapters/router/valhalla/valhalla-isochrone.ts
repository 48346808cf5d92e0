// Isochrones through Valhalla's `/isochrone`: one time contour around one location, asked as a polygon,
// read back as the Router port's ring set. Valhalla answers a GeoJSON FeatureCollection, one feature per
// contour (plus points when show_locations is set, which we do not ask for).
import type { IsochroneRequest, LngLat } from '../../../ports/router';

export function isochroneBody(req: IsochroneRequest, costing: string): Record<string, unknown> {
  return {
    locations: [{ lat: req.center[1], lon: req.center[0] }],
    costing,
    contours: [{ time: req.minutes }],
    polygons: true,
  };
}

function isPosition(v: unknown): v is LngLat {
  return Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number' && typeof v[1] === 'number' && Number.isFinite(v[0]) && Number.isFinite(v[1]);
}

/** A ring of [lng, lat] positions, closed, or undefined when it has too few points to enclose anything. */
function ringOf(raw: unknown): LngLat[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const ring = raw.filter(isPosition).map((p): LngLat => [p[0], p[1]]);
  if (ring.length < 3) return undefined;
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0], first[1]]);
  return ring.length >= 4 ? ring : undefined;
}

/** Planar shoelace area in squared degrees: enough to tell the largest piece. */
function area(ring: readonly LngLat[]): number {
  let twice = 0;
  for (let i = 1; i < ring.length; i++) twice += ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1];
  return Math.abs(twice / 2);
}

/**
 * The outer ring of the reachable area. A Polygon gives its outer ring (holes, pockets not reached, are
 * dropped); a MultiPolygon the outer ring of its largest piece (the port holds one polygon); a LineString
 * contour (Valhalla's answer without `polygons`, as in its documented example) is closed into a ring.
 * Returns [] when the answer holds no contour.
 */
export function ringsFrom(body: unknown): LngLat[][] {
  const features = typeof body === 'object' && body !== null && Array.isArray((body as { features?: unknown }).features)
    ? ((body as { features: unknown[] }).features)
    : [];
  const outers: LngLat[][] = [];
  for (const f of features) {
    const geometry = (f as { geometry?: { type?: unknown; coordinates?: unknown } } | null)?.geometry;
    if (!geometry || !Array.isArray(geometry.coordinates)) continue;
    const coords = geometry.coordinates as unknown[];
    const candidates = geometry.type === 'Polygon' ? [coords[0]]
      : geometry.type === 'MultiPolygon' ? coords.map((p) => (Array.isArray(p) ? p[0] : undefined))
        : geometry.type === 'LineString' ? [coords]
          : geometry.type === 'MultiLineString' ? coords
            : [];
    for (const c of candidates) {
      const ring = ringOf(c);
      if (ring) outers.push(ring);
    }
  }
  if (outers.length === 0) return [];
  return [outers.reduce((a, b) => (area(b) > area(a) ? b : a))];
}
