// The user's position against one geofence (DESIGN §3 step 5). With r = reported accuracy and
// f = share of the accuracy disk (centre = location, radius r) inside the geofence:
//   entry confidence 3 when the whole disk is inside, 2 when f >= 0.5, 1 when f > 0;
//   exit confidence the same with "outside" (1 - f) in place of "inside".
//   inside for entry: location inside the boundary, or with buffer entries within r of it;
//   outside for exit: location outside the boundary, with buffer exits more than r outside it.
// f is exact (lens area for circles, polygon ∩ disk area for rings), computed only when the
// boundary passes through the disk; otherwise the disk is wholly on one side.
import type { LngLat } from '../types';
import { EARTH_RADIUS_M } from '../geo/sphere';
import { ringProximity, type RingProximity } from '../geo/planar-ring';
import { diskDiskOverlapArea, ringDiskOverlapArea } from '../geo/disk-overlap';
import type { PreparedGeofence } from './prepared-geofence';

const RAD = Math.PI / 180;

export type Confidence = 1 | 2 | 3;

export interface FencePosition {
  /** The location itself is inside the boundary (a point on the boundary counts as inside). */
  inside: boolean;
  /** Metres from the location to the boundary, >= 0 on either side. */
  boundaryDistanceM: number;
  /** Accuracy radius r used, metres. */
  accuracyM: number;
  /** f: share of the accuracy disk inside the geofence, 0..1. */
  insideShare: number;
}

const proximity: RingProximity = { inside: false, distance: 0 };

/**
 * Position of `location` (with accuracy radius `accuracyM`) against a prepared geofence. Writes
 * into `out` when given (evaluation reuses one object per update).
 */
export function fencePosition(
  fence: PreparedGeofence,
  location: LngLat,
  accuracyM: number,
  out: FencePosition = { inside: false, boundaryDistanceM: 0, accuracyM: 0, insideShare: 0 },
): FencePosition {
  const r = accuracyM;
  out.accuracyM = r;
  if (fence.kind === 'circle') {
    const d = greatCircleMeters(location, fence);
    const R = fence.radiusM;
    out.inside = d <= R;
    out.boundaryDistanceM = Math.abs(d - R);
    if (r <= 0) out.insideShare = out.inside ? 1 : 0;
    else if (d + r <= R) out.insideShare = 1;
    else if (d >= R + r) out.insideShare = 0;
    else out.insideShare = Math.min(1, diskDiskOverlapArea(d, r, R) / (Math.PI * r * r));
    return out;
  }
  let dLng = location[0] - fence.lng0;
  // Rings never cross the antimeridian, but the user may stand on its other side.
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  const x = dLng * fence.kx;
  const y = (location[1] - fence.lat0) * fence.ky;
  const { inside, distance } = ringProximity(fence.xy, x, y, proximity);
  out.inside = inside;
  out.boundaryDistanceM = distance;
  // Fast path: the boundary does not reach into the disk, so the disk is wholly on one side.
  if (r <= 0 || distance >= r) out.insideShare = inside ? 1 : 0;
  else out.insideShare = Math.min(1, ringDiskOverlapArea(fence.xy, x, y, r) / (Math.PI * r * r));
  return out;
}

/** Whole accuracy disk inside (the boundary does not cut it). */
function diskWhollyInside(pos: FencePosition): boolean {
  return pos.inside && pos.boundaryDistanceM >= pos.accuracyM;
}

function diskWhollyOutside(pos: FencePosition): boolean {
  return !pos.inside && pos.boundaryDistanceM >= pos.accuracyM;
}

/**
 * Confidence that the user is inside. Never below 1: an entry is decided by the location (and the
 * buffer), the confidence only grades it, e.g. a buffered entry whose disk just touches the fence.
 */
export function entryConfidence(pos: FencePosition): Confidence {
  if (diskWhollyInside(pos)) return 3;
  return pos.insideShare >= 0.5 ? 2 : 1;
}

/** Confidence that the user is outside; same grading with 1 - f. */
export function exitConfidence(pos: FencePosition): Confidence {
  if (diskWhollyOutside(pos)) return 3;
  return 1 - pos.insideShare >= 0.5 ? 2 : 1;
}

/** Counts as inside for an entry: in the boundary, or with buffer entries within r of it. */
export function insideForEntry(pos: FencePosition, bufferEntries: boolean): boolean {
  return pos.inside || (bufferEntries && pos.boundaryDistanceM <= pos.accuracyM);
}

/** Counts as outside for an exit: out of the boundary, and with buffer exits more than r out. */
export function outsideForExit(pos: FencePosition, bufferExits: boolean): boolean {
  return !pos.inside && (!bufferExits || pos.boundaryDistanceM > pos.accuracyM);
}

/**
 * Haversine distance to a circle's centre with its cos(latitude) precomputed. Same formula as
 * geo/sphere haversineMeters; inlined here because it runs for every candidate circle.
 */
function greatCircleMeters(p: LngLat, c: PreparedGeofence): number {
  const sinDLat = Math.sin((c.centerLat - p[1]) * RAD * 0.5);
  const sinDLng = Math.sin((c.centerLng - p[0]) * RAD * 0.5);
  const h = sinDLat * sinDLat + Math.cos(p[1] * RAD) * c.cosCenterLat * sinDLng * sinDLng;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
