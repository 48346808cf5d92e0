// An event (geofence entry, trip arrival, beacon exit, a conversion…) as the Store keeps it. Every field
// an event type carries is declared here; what the API shows of it is in views.ts.
import type { Metadata } from '../types';
import type { DocBase } from './document';
import type { ShownObject } from './user';
import type { BeaconView, EventGeofenceView, PlaceView, RegionView, TripSummary } from './shown';

export interface EventDoc extends DocBase {
  type: string;
  live: boolean;
  actualCreatedAt: string;
  /** The user as events carry it (views.ts eventUser), or what a conversion named of an unknown one. */
  user?: ShownObject;
  location?: { type: 'Point'; coordinates: [number, number] };
  locationAccuracy?: number;
  confidence?: number;
  duration?: number;
  /** Geofence events: the geofence as events show it; whether it was operating (operating hours). */
  geofence?: EventGeofenceView;
  currentlyOperating?: boolean;
  /** Place events: the place, and on entry the other candidates. */
  place?: PlaceView;
  alternatePlaces?: PlaceView[];
  beacon?: BeaconView;
  region?: RegionView;
  trip?: TripSummary;
  fraud?: ShownObject;
  /** Conversions (POST /v1/events). */
  conversion?: boolean;
  metadata?: Metadata;
  revenue?: number;
  installId?: string;
  /** The SDK's verdict (PUT /v1/events/:id/verification). */
  verification?: number;
  verifiedAt?: string;
  verifiedPlaceId?: string;
  verifiedPlace?: PlaceView;
  /** The user's `_id`: kept with the event, never shown (views.ts). */
  userRef?: string;
}

/** What a feature step adds to an event it makes (TrackUpdate.newEvent); the rest comes from the update. */
export type EventFields = Omit<Partial<EventDoc>, '_id' | 'type' | 'live' | 'createdAt' | 'updatedAt' | 'actualCreatedAt' | 'userRef'>;
