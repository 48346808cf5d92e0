// Seeded points on a region tiled by ../shared/tools/tile-osm.py (east Baltimore copied side by side),
// shared by the region benches (region-queries, region-engine, region-serving) so their figures are about
// the same places: each point falls near the dense part of a tile, where every mode has roads.
import { haversineMeters } from '../../core/geo/sphere';
import type { LngLat } from '../../core/geo/lng-lat';

export type { LngLat };

/** Great-circle metres, for "at least MIN_KM apart". */
export const metres = haversineMeters;

/** `lat,lng` as the API's query strings take a point. */
export const latLng = (p: LngLat): string => `${p[1].toFixed(5)},${p[0].toFixed(5)}`;

/** The tool's tile spacing in degrees (its --help gives it). */
const TILE_LAT = 0.128275;
const TILE_LON = 0.18233;

export interface TilePoints {
  rows: number;
  cols: number;
  /** A point near a random tile's dense part. */
  near: () => LngLat;
}

/**
 * The region's tiles from its `bbox` (west, south, east, north), and a picker drawing on `rnd`, so a
 * bench that also draws other numbers from it keeps its seeded sequence.
 */
export function tilePoints(bbox: readonly [number, number, number, number], rnd: () => number): TilePoints {
  const [west, south, east, north] = bbox;
  const rows = Math.max(1, Math.round((north - south) / TILE_LAT));
  const cols = Math.max(1, Math.round((east - west) / TILE_LON));
  const near = (): LngLat => {
    const r = Math.floor(rnd() * rows), c = Math.floor(rnd() * cols);
    return [-76.58 + c * TILE_LON + (rnd() - 0.5) * 0.02, 39.29 + r * TILE_LAT + (rnd() - 0.5) * 0.02];
  };
  return { rows, cols, near };
}
