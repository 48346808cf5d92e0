// The user's position against one geofence (DESIGN §3 step 5). With r = reported accuracy and
// f = share of the accuracy disk (centre = location, radius r) inside the geofence:
//   entry confidence 3 when the whole disk is inside, 2 when f >= 0.5, 1 when f > 0;
//   exit confidence the same with "outside" (1 - f) in place of "inside".
//   inside for entry: location inside the boundary, or with buffer entries within r of it;
//   outside for exit: location outside the boundary, with buffer exits more than r outside it.
import type { LngLat } from '../types';
import { EARTH_RADIUS_M } from '../geo/sphere';
import { ringProximity } from '../geo/planar-ring';
import { diskDiskOverlapArea, ringDiskOverlapArea } from '../geo/disk-overlap';
import type { PreparedCircle, PreparedGeofence, PreparedPolygon } from './prepared-geofence';

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

/** Position of `location` (with accuracy radius `accuracyM`) against a prepared geofence. */
export function fencePosition(fence: PreparedGeofence, location: LngLat, accuracyM: number): FencePosition {
  return fence.kind === 'circle'
    ? circlePosition(fence, location, accuracyM)
    : polygonPosition(fence, location, accuracyM);
}

function circlePosition(c: PreparedCircle, location: LngLat, r: number): FencePosition {
  const d = greatCircleMeters(location, c.center, c.cosCenterLat);
  const R = c.radiusM;
  const inside = d <= R;
  const boundaryDistanceM = Math.abs(d - R);
  let insideShare: number;
  if (r <= 0) insideShare = inside ? 1 : 0;
  else if (d + r <= R) insideShare = 1;
  else if (d >= R + r) insideShare = 0;
  else insideShare = Math.min(1, diskDiskOverlapArea(d, r, R) / (Math.PI * r * r));
  return { inside, boundaryDistanceM, accuracyM: r, insideShare };
}

function polygonPosition(p: PreparedPolygon, location: LngLat, r: number): FencePosition {
  let dLng = location[0] - p.lng0;
  // Rings never cross the antimeridian, but the user may stand on its other side.
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  const x = dLng * p.kx;
  const y = (location[1] - p.lat0) * p.ky;
  const { inside, distance } = ringProximity(p.xy, x, y);
  let insideShare: number;
  // Fast path: the boundary does not reach into the disk, so the disk is wholly on one side.
  if (r <= 0 || distance >= r) insideShare = inside ? 1 : 0;
  else insideShare = Math.min(1, ringDiskOverlapArea(p.xy, x, y, r) / (Math.PI * r * r));
  return { inside, boundaryDistanceM: distance, accuracyM: r, insideShare };
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
 * Haversine distance with the centre's cos(latitude) precomputed. Same formula as
 * geo/sphere haversineMeters; duplicated here because it runs for every candidate circle.
 */
function greatCircleMeters(p: LngLat, center: LngLat, cosCenterLat: number): number {
  const sinDLat = Math.sin((center[1] - p[1]) * RAD * 0.5);
  const sinDLng = Math.sin((center[0] - p[0]) * RAD * 0.5);
  const h = sinDLat * sinDLat + Math.cos(p[1] * RAD) * cosCenterLat * sinDLng * sinDLng;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
