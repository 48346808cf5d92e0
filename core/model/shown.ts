// The objects the API shows inside users and events and that are stored there as they were shown: a
// place, a region, a beacon, a trip summary, a geofence. Their builders (views.ts, the places and
// beacons features) return these types, so a stored user or event says what each field holds.
import type { GeofenceType, Metadata, Point } from '../types';
import type { TripDoc } from './trip';

/** A place (Radar's place shape); `chain.externalId` and `chain.metadata` come from the Places settings. */
export interface PlaceView {
  _id: string;
  name: string;
  categories: string[];
  chain?: { name: string; slug: string; externalId?: string; metadata?: Metadata };
  iataCode?: string;
  location: { type: 'Point'; coordinates: [number, number] };
}

/** A region (country, state, DMA, postal code) as the regions adapter found it. */
export interface RegionView {
  _id: string;
  type: string;
  name: string;
  code: string;
  flag?: string;
}

/** A beacon on a user (`user.beacons`) and on beacon events. */
export interface BeaconView {
  _id?: string;
  type?: 'ibeacon' | 'eddystone';
  uuid?: string;
  major?: string;
  minor?: string;
  uid?: string;
  instance?: string;
  description?: unknown;
  tag?: unknown;
  externalId?: unknown;
  enabled?: boolean;
  metadata?: unknown;
}

/** The fields of a trip that `user.trip` and trip events carry. */
export const TRIP_SUMMARY_FIELDS = [
  '_id', 'live', 'externalId', 'metadata', 'mode', 'destinationGeofenceTag', 'destinationGeofenceExternalId',
  'destinationLocation', 'eta', 'status', 'approachingThreshold', 'scheduledArrivalAt', 'delay', 'arrivedAt',
  'completedAt', 'userId', 'createdAt', 'updatedAt',
] as const;

/** The trip inside `user.trip` and events: the fields the SDKs read, without the trail or the user. */
export type TripSummary = Partial<Pick<TripDoc, (typeof TRIP_SUMMARY_FIELDS)[number]>>;

/** A geofence inside an event. */
export interface EventGeofenceView {
  _id: string;
  tag: string;
  externalId: string;
  description: string;
  type: GeofenceType;
  metadata?: Metadata;
}

/** A geofence inside a user's `geofences` list. */
export interface UserGeofenceView extends EventGeofenceView {
  geometryCenter: Point;
  geometryRadius: number;
}
