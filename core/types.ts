// Domain types shared by the engine, the API and the adapters. Plain data only: no Express, no SQL.

/** Custom key-value pairs; values are strings, booleans or numbers (spec: Limits). */
export type Metadata = Record<string, string | number | boolean>;

export type { LngLat } from './geo/lng-lat';
import type { LngLat } from './geo/lng-lat';

export interface Point {
  type: 'Point';
  coordinates: LngLat;
}

export interface Polygon {
  type: 'Polygon';
  /** Outer ring first, closed (first == last), [longitude, latitude]. */
  coordinates: LngLat[][];
}

export type TravelMode = 'car' | 'truck' | 'foot' | 'bike';
export type GeofenceType = 'circle' | 'polygon' | 'isochrone';

/** Radar writes days as three-letter keys ("Mon"), as in its SDK fixtures. */
export type DayKey = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';
/** Day of week → list of [open, close] pairs, normalised to "HH:mm" (24 h). close < open crosses midnight. */
export type OperatingHours = Partial<Record<DayKey, Array<[string, string]>>>;

export interface Geofence {
  _id: string;
  projectId: string;
  live: boolean;
  tag: string;
  externalId: string;
  description: string;
  type: GeofenceType;
  /** Given ring for polygons; computed approximation for circles. */
  geometry: Polygon;
  /** Circle centre, polygon centroid, isochrone destination. */
  geometryCenter: Point;
  /** Metres for circles, approximate radius for polygons, minutes for isochrones. */
  geometryRadius: number;
  mode?: TravelMode;
  metadata?: Metadata;
  /** Deprecated single-user restriction. */
  userId?: string;
  userIds?: string[];
  /** IP ranges: single address, a.b.c.* wildcard, or CIDR; IPv4 and IPv6. */
  ip?: string[];
  tripApproachingThreshold?: number;
  dwellThreshold?: number;
  stopDetection?: boolean;
  enabled: boolean;
  operatingHours?: OperatingHours;
  /** IANA zone of the geometry centre, for operating hours. */
  timeZone?: string;
  disableAfter?: string;
  deleteAfter?: string;
  placeId?: string;
  createdAt: string;
  updatedAt: string;
}

/** Per-project behaviour switches (the spec's "project settings"). */
export interface ProjectSettings {
  stopDetection: boolean;
  bufferEntries: boolean;
  bufferExits: boolean;
  dwellEvents: boolean;
  /** Suppress geofence events outside the geofence's operating hours. */
  operatingHoursSuppression: boolean;
  /** Minutes. */
  tripApproachingThreshold: number;
  /** Hours without an update after which an open trip expires. */
  tripExpirationHours: number;
  places: boolean;
  regions: boolean;
  fraud: boolean;
  /** With `fraud` on: an update that fails the checks is held back (docs/fraud.md). */
  fraudBlocking: boolean;
  /** Days a user's location history is kept (ours); 0: no history is written. */
  locationHistoryDays: number;
}

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  stopDetection: false,
  bufferEntries: false,
  bufferExits: false,
  dwellEvents: false,
  operatingHoursSuppression: false,
  tripApproachingThreshold: 5,
  tripExpirationHours: 24,
  places: false,
  regions: false,
  fraud: false,
  fraudBlocking: false,
  locationHistoryDays: 30,
};
