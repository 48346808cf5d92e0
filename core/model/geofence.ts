// A geofence as the Store keeps it: the engine's Geofence plus the due date of its expiry job.
import type { Geofence } from '../types';

export interface GeofenceDoc extends Geofence {
  /** deleteAfter, as the field the expiry job's index reads. */
  expiresAt?: string;
}
