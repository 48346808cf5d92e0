// Local equirectangular projection: metres east/north of a reference point. Distances within a few
// kilometres of the reference are within ~0.1 % of great-circle distances, which lets polygon
// tests run as cheap planar maths. Not valid across the antimeridian or near the poles (> ~85°),
// where rings are rejected at creation anyway.
import type { LngLat } from './lng-lat';
import { EARTH_RADIUS_M } from './sphere';

const RAD = Math.PI / 180;
/** Metres per degree of latitude on the sphere. */
export const METERS_PER_DEGREE = EARTH_RADIUS_M * RAD;

export interface LocalProjection {
  /** Reference longitude and latitude (degrees). */
  readonly lng0: number;
  readonly lat0: number;
  /** Metres per degree of longitude at lat0. */
  readonly kx: number;
  /** Metres per degree of latitude. */
  readonly ky: number;
}

export function localProjection(reference: LngLat): LocalProjection {
  return {
    lng0: reference[0],
    lat0: reference[1],
    kx: METERS_PER_DEGREE * Math.cos(reference[1] * RAD),
    ky: METERS_PER_DEGREE,
  };
}

/** x metres east of the reference. */
export function projectX(p: LocalProjection, lng: number): number {
  return (lng - p.lng0) * p.kx;
}

/** y metres north of the reference. */
export function projectY(p: LocalProjection, lat: number): number {
  return (lat - p.lat0) * p.ky;
}

/**
 * Ring projected into a flat array [x0, y0, x1, y1, ...] (closing point included), compact and
 * allocation-free to iterate. Written into `out` when given (at least 2 × ring.length long).
 */
export function projectRing(p: LocalProjection, ring: LngLat[], out: Float64Array = new Float64Array(ring.length * 2)): Float64Array {
  for (let i = 0; i < ring.length; i++) {
    out[2 * i] = (ring[i][0] - p.lng0) * p.kx;
    out[2 * i + 1] = (ring[i][1] - p.lat0) * p.ky;
  }
  return out;
}

export function unproject(p: LocalProjection, x: number, y: number): LngLat {
  return [p.lng0 + x / p.kx, p.lat0 + y / p.ky];
}
