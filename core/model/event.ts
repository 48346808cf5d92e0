// An event (geofence entry, trip arrival, beacon exit…) as the Store keeps it.
import type { Doc } from './document';

export interface EventDoc extends Doc {
  type: string;
  live: boolean;
  actualCreatedAt: string;
  /** The user's `_id`: kept with the event, never shown (views.ts). */
  userRef?: string;
}
