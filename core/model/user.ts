// A tracked user as the Store keeps it: the API's user object plus the engine's state. Every field a
// feature step writes is declared here, so a step that sets one the model does not know fails to compile.
import type { BeaconPresence } from '../beacons';
import type { FraudObject } from '../fraud';
import type { VisitState } from '../geofencing';
import type { PlaceVisit } from '../places/place-detection';
import type { Metadata } from '../types';
import type { DocBase } from './document';
import type { BeaconView, PlaceView, RegionView, TripSummary, UserGeofenceView } from './shown';

/** The longest userId and deviceId a user may have (Radar's limit): track and conversions both take it. */
export const MAX_USER_ID_LENGTH = 256;

/** An object the API shows as it was made and stored as JSON, of no fixed shape (a conversion's user, the fraud answer). */
export type ShownObject = Record<string, unknown>;

/** Operator decisions about one user's fraud checks, kept on the user (fraud routes). */
export interface FraudOverride {
  bypassed?: boolean;
  blocked?: boolean;
}

/** A stored user: the API's user object plus `_…` fields, the engine's state (never sent out). */
export interface UserDoc extends DocBase {
  live: boolean;
  userId?: string;
  deviceId: string;
  description?: string;
  metadata?: Metadata;
  location: { type: 'Point'; coordinates: [number, number] };
  locationAccuracy: number;
  foreground?: boolean;
  stopped?: boolean;
  deviceType?: string;
  deviceOS?: string;
  deviceMake?: string;
  deviceModel?: string;
  ip?: string;
  geofences: UserGeofenceView[];
  segments?: unknown[];
  topChains?: unknown[];
  actualUpdatedAt: string;
  /** The regions step's region objects (project setting `regions`). */
  country?: RegionView;
  state?: RegionView;
  dma?: RegionView;
  postalCode?: RegionView;
  /** The places step's current place (project setting `places`). */
  place?: PlaceView;
  /** The beacons the user is near, as the API shows them. */
  beacons?: BeaconView[];
  /** The user's open trip, summarised (views.ts tripSummary). */
  trip?: TripSummary;
  /** The fraud step's answer (project setting `fraud`), with its `last…At` datetimes. */
  fraud?: Partial<FraudObject>;
  _visits: VisitState[];
  _beacons?: BeaconPresence[];
  _place?: PlaceVisit;
  _fraudOverride?: FraudOverride;
  /** The revision the user was read at (a versioned collection, ports/store.ts REVISION_FIELD). */
  _rev?: number;
}

/** One row per (user, geofence) while the user is inside: "who is in this geofence" without a scan. */
export interface PresenceDoc extends DocBase {
  geofenceId: string;
  userRef: string;
}

/**
 * One row per user with a fraud flag raised (`_id` and `userRef` = the user's `_id`; createdAt = when it
 * was flagged), and one marker row per environment (no userRef) once every flagged user has its row.
 * The flags themselves stay on the user: a copy here would have to be rewritten whenever they change.
 */
export interface FlaggedUserDoc extends DocBase {
  userRef?: string;
}
