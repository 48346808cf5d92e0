// A trip as the Store keeps it, with its compact trail. What the API shows of it is in views.ts.
import type { TripDelay, TripStatus } from '../trips';
import type { Metadata, Point } from '../types';
import type { DocBase } from './document';

export const TRIP_MODES = ['foot', 'bike', 'car'] as const;
export type TripMode = (typeof TRIP_MODES)[number];

export interface TripDoc extends DocBase {
  live: boolean;
  externalId: string;
  status: TripStatus;
  mode: TripMode;
  metadata?: Metadata;
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  destinationLocation?: Point;
  approachingThreshold?: number;
  scheduledArrivalAt?: string;
  eta?: { duration: number; distance: number };
  delay?: TripDelay;
  arrivedAt?: string;
  completedAt?: string;
  /** The tracked user's own userId. */
  userId?: string;
  /** The tracked user (`_id`, `userId`, `deviceId`, `metadata`), as of the trip's last update. */
  user?: Record<string, unknown>;
  /** The trail, compact (see TrailPoint); `locations` on the way out. */
  _trail: TrailPoint[];
  /**
   * Indexed link to the user: the user's `_id` once known, else `pendingUserRef(userId)` for a trip
   * created for a userId that has not tracked yet (its first update links it).
   */
  userRef?: string;
  /** Due date of the expiry job; absent on stopped trips. */
  expiresAt?: string;
  /** delay.delayed as a top-level field the `delayed` list filter can match. */
  _delayed: boolean;
  /** The track lock of the trip's user: every write to an owned trip happens under it. */
  _lockKey?: string;
  /** The destination geofence last resolved, to read it from the in-memory index. */
  _destinationGeofenceId?: string;
}

/**
 * One trail point as stored: [longitude, latitude, accuracy in metres, epoch ms]. A trip document is
 * rewritten on every update, so its trail is kept about a third the size of GeoJSON points.
 */
export type TrailPoint = [number, number, number, number];

/** A trail point as the API shows it: a GeoJSON point with the update's accuracy and time. */
export interface TripLocation {
  type: 'Point';
  coordinates: [number, number];
  locationAccuracy: number;
  updatedAt: string;
}

/** Six decimals of a degree are about 0.1 m: finer digits are noise in a device location. */
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

export function trailPoint(location: [number, number], accuracy: number, at: Date): TrailPoint {
  return [round6(location[0]), round6(location[1]), accuracy, at.getTime()];
}

export function tripLocations(trail: readonly TrailPoint[]): TripLocation[] {
  return trail.map(([lng, lat, accuracy, ms]) => ({ type: 'Point', coordinates: [lng, lat], locationAccuracy: accuracy, updatedAt: new Date(ms).toISOString() }));
}

export function pendingUserRef(userId: string): string {
  return `userId:${userId}`;
}
