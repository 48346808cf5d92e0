// What the API shows of each stored document: the one place that says which fields stay inside the
// server. The routes, the track answer, webhook payloads and the serialiser of the track path
// (server/features/track/doc-json.ts, which takes the same rules) all show documents through these.
import type { Geofence } from '../types';
import type { EventDoc } from './event';
import type { TripDoc } from './trip';
import { tripLocations } from './trip';
import type { UserDoc } from './user';
import { TRIP_SUMMARY_FIELDS, type EventGeofenceView, type TripSummary, type UserGeofenceView } from './shown';

/** Fields whose name starts with "_" (other than _id) are internal state: users, beacons, trips. */
export const isInternalField = (key: string): boolean => key !== '_id' && key.startsWith('_');

/** An event keeps its user's `_id` (userRef) for the server; its updatedAt is not Radar's. */
export const isHiddenEventField = (key: string): boolean => key === 'userRef' || key === 'updatedAt';

/** A trip's internal fields, its link to the user and the due date of its expiry job. */
const isHiddenTripField = (key: string): boolean => isInternalField(key) || key === 'userRef' || key === 'expiresAt';

/** Fields stored with a geofence that are ours, not the API's. */
const isHiddenGeofenceField = (key: string): boolean => key === 'projectId' || key === 'timeZone' || key === 'expiresAt';

/** Stored as arrays (the engine matches on them); the spec's Geofence types them as comma-separated strings. */
const GEOFENCE_LIST_FIELDS = ['userIds', 'ip'] as const;

/** The document's fields but the hidden ones, in their order. */
function shownFields(doc: object, hidden: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) if (!hidden(key)) out[key] = value;
  return out;
}

/** A user, beacon or any document whose internal fields start with "_", as the API shows it. */
export function publicView<T extends object>(doc: T): T {
  return shownFields(doc, isInternalField) as T;
}

export function publicEvent(e: EventDoc): Record<string, unknown> {
  return shownFields(e, isHiddenEventField);
}

export function publicGeofence(g: Geofence | Record<string, unknown>): Record<string, unknown> {
  const out = shownFields(g, isHiddenGeofenceField);
  for (const f of GEOFENCE_LIST_FIELDS) {
    const list = out[f];
    if (Array.isArray(list)) out[f] = list.join(',');
  }
  return out;
}

/** The trip as the API returns it; `locations` only when asked for. */
export function publicTrip(trip: TripDoc, includeLocations: boolean): Record<string, unknown> {
  const rest = shownFields(trip, isHiddenTripField);
  return includeLocations ? { ...rest, locations: tripLocations(trip._trail ?? []) } : rest;
}


/** The trip inside `user.trip` and events: the fields the SDKs read, without the trail or the user. */
export function tripSummary(trip: TripDoc): TripSummary {
  const out: Record<string, unknown> = {};
  for (const f of TRIP_SUMMARY_FIELDS) if (trip[f] !== undefined) out[f] = trip[f];
  return out;
}

/** The user as events (and trips) carry it. */
export function eventUser(user: UserDoc): Record<string, unknown> {
  const out: Record<string, unknown> = { _id: user._id, deviceId: user.deviceId };
  if (user.userId !== undefined) out.userId = user.userId;
  if (user.metadata !== undefined) out.metadata = user.metadata;
  return out;
}

/**
 * A geofence as events and users' `geofences` lists show it, made once per geofence object the index
 * holds (an update of the geofence replaces that object): every update of every user inside it used to
 * build its own copies, and the users kept in memory (hot-users.ts) each held theirs. Frozen, as they are
 * shared, which also lets doc-json.ts keep their texts.
 */
const eventGeofences = new WeakMap<Geofence, Readonly<EventGeofenceView>>();
const userGeofences = new WeakMap<Geofence, Readonly<UserGeofenceView>>();

/** The view `make` builds of a geofence object, made once for it and frozen. */
function sharedView<V extends object>(views: WeakMap<Geofence, Readonly<V>>, g: Geofence, make: () => V): Readonly<V> {
  let shown = views.get(g);
  if (shown === undefined) {
    shown = Object.freeze(make());
    views.set(g, shown);
  }
  return shown;
}

/** The geofence inside an event. */
export function eventGeofence(g: Geofence): Readonly<EventGeofenceView> {
  return sharedView(eventGeofences, g, () => {
    const out: EventGeofenceView = { _id: g._id, tag: g.tag, externalId: g.externalId, description: g.description, type: g.type };
    if (g.metadata !== undefined) out.metadata = g.metadata;
    return out;
  });
}

/** The geofence inside a user's `geofences` list. */
export function userGeofence(g: Geofence): Readonly<UserGeofenceView> {
  return sharedView(userGeofences, g, () => ({ ...eventGeofence(g), geometryCenter: g.geometryCenter, geometryRadius: g.geometryRadius }));
}
