// A tracked user as the Store keeps it: the API's user object plus the engine's state.
import type { VisitState } from '../geofencing';
import type { Metadata } from '../types';
import type { Doc } from './document';

/** The longest userId and deviceId a user may have (Radar's limit): track and conversions both take it. */
export const MAX_USER_ID_LENGTH = 256;

/** A stored user: the API's user object plus `_visits`, the engine's state (never sent out). */
export interface UserDoc extends Doc {
  live: boolean;
  userId?: string;
  deviceId: string;
  metadata?: Metadata;
  location: { type: 'Point'; coordinates: [number, number] };
  locationAccuracy: number;
  geofences: Array<Record<string, unknown>>;
  actualUpdatedAt: string;
  _visits: VisitState[];
}

/** One row per (user, geofence) while the user is inside: "who is in this geofence" without a scan. */
export interface PresenceDoc extends Doc {
  geofenceId: string;
  userRef: string;
}
