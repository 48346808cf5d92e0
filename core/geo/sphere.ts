// Spherical-earth geometry on [lng, lat] pairs. A sphere (not the WGS84 ellipsoid) is accurate to
// about 0.5 %, which is far below GPS accuracy and matches what geofencing products report.
import type { LngLat } from './lng-lat';

/**
 * Earth radius in metres. 6371000 rather than the IUGG mean (6371008.8) because Radar's own circle
 * geometries are computed with it; using the same value reproduces them to the last digit.
 */
export const EARTH_RADIUS_M = 6371000;

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Great-circle distance in metres. */
export function haversineMeters(a: LngLat, b: LngLat): number {
  const lat1 = a[1] * RAD;
  const lat2 = b[1] * RAD;
  const sinDLat = Math.sin((lat2 - lat1) / 2);
  const sinDLng = Math.sin(((b[0] - a[0]) * RAD) / 2);
  const h = sinDLat * sinDLat + Math.cos(lat1) * Math.cos(lat2) * sinDLng * sinDLng;
  // min() guards against rounding pushing h past 1 for antipodal points.
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Point reached going `distanceM` metres from `from` along initial bearing `bearingDeg` (0 = north, 90 = east). */
export function destinationPoint(from: LngLat, distanceM: number, bearingDeg: number): LngLat {
  const delta = distanceM / EARTH_RADIUS_M;
  const theta = bearingDeg * RAD;
  const lat1 = from[1] * RAD;
  const lng1 = from[0] * RAD;
  const sinLat2 = Math.sin(lat1) * Math.cos(delta) + Math.cos(lat1) * Math.sin(delta) * Math.cos(theta);
  const lat2 = Math.asin(Math.max(-1, Math.min(1, sinLat2)));
  const lng2 =
    lng1 +
    Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(lat1), Math.cos(delta) - Math.sin(lat1) * Math.sin(lat2));
  return [normalizeLongitude(lng2 * DEG), lat2 * DEG];
}

/** Longitude folded into [-180, 180). */
export function normalizeLongitude(lng: number): number {
  const folded = ((((lng + 180) % 360) + 360) % 360) - 180;
  return folded;
}
