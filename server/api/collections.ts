// The Store collections the gateway keeps, with their indexed fields and the type of their documents.
// Declared once at start-up.
import { collection, type CollectionSpec, type Store } from '../../ports/store';
import type { BeaconDoc } from '../../core/model/beacon';
import type { EventDoc } from '../../core/model/event';
import type { GeofenceDoc } from '../../core/model/geofence';
import type { TripDoc } from '../../core/model/trip';
import type { FlaggedUserDoc, PresenceDoc, UserDoc } from '../../core/model/user';
import type { LocationDoc } from '../../core/model/location';
import type { PlacesSettingsDoc } from '../../core/model/settings';
import type { OutboxRow, WebhookDoc } from '../../core/model/webhook';

// Listed by updatedAt only (GET /v1/users): no created-at index to rewrite on every first update.
export const USERS = collection<UserDoc>('users', {
  keys: ['userId', 'deviceId'], point: 'location', orders: ['updatedAt'],
  // One user per userId, and one per device among users without a userId: two first updates of one
  // device can never make twins, even across nodes (#10.2).
  unique: [{ key: 'userId' }, { key: 'deviceId', whenAbsent: 'userId' }],
  // Track keeps users in memory and writes them back only at the revision it read (#14).
  versioned: true,
  // Every track update moves updatedAt and the location: indexed by hour and 0.01° cell, so that an
  // update within both changes no index (#14, docs/track-path.md).
  volatile: true,
});
// Every node keeps an index of them in memory: writes are announced to the others.
export const GEOFENCES = collection<GeofenceDoc>('geofences', { keys: ['tag', 'externalId'], due: 'expiresAt', broadcast: true });
// Track keeps an index of them in memory too (beacon-directory.ts).
export const BEACONS = collection<BeaconDoc>('beacons', { keys: ['tag', 'externalId'], point: 'geometry', broadcast: true });
// A type's events are read newest first from their own ordered index (#10.3), and so are a user's (the
// dashboard's user page, GET /v1/users/:id/events): one more index entry per event written, measured in
// docs/track-path.md. Events never change, so they are only ever listed by createdAt.
export const EVENTS = collection<EventDoc>('events', { keys: ['type', 'userRef'], sorted: [['type'], ['userRef']], orders: ['createdAt'] });
// Broadcast: other nodes learn that an environment has trips (open-trip-scopes.ts).
export const TRIPS = collection<TripDoc>('trips', { keys: ['externalId', 'status', 'userRef', 'destinationGeofenceTag'], due: 'expiresAt', broadcast: true });
/** One row per (user, geofence) while the user is inside: answers "who is in this geofence". */
export const PRESENCE = collection<PresenceDoc>('presence', { keys: ['geofenceId', 'userRef'], orders: [] });
/**
 * A user's location history (core/model/location.ts): written by track in the update's own write, read
 * newest first by user from the one sorted index, deleted by the expiry job past `expiresAt`.
 */
export const LOCATIONS = collection<LocationDoc>('locations', { keys: ['userRef'], sorted: [['userRef']], orders: [], due: 'expiresAt' });
/**
 * The users with a fraud flag raised (core/model/user.ts FlaggedUserDoc): written by track in the update's
 * own write only when the user's flagged state changes, removed with the user; answers GET /v1/users
 * fraud=true through the userRef index (flagged-users.ts).
 */
export const FLAGGED_USERS = collection<FlaggedUserDoc>('flagged_users', { keys: ['userRef'], orders: [] });
export const SETTINGS = collection<PlacesSettingsDoc>('settings', { keys: [] });
export const WEBHOOKS = collection<WebhookDoc>('webhooks', { keys: [] });
// The queue head of an endpoint is the first entry of (webhookId, state, createdAt): O(log n) however
// long the backlog (#10.3). Every row is inserted once and deleted once, so each index is two B-tree
// writes per event and webhook: this is the only one. It serves webhookId alone too; the readers that
// want one state across webhooks (gauges, the dead-letter purge) go webhook by webhook. Nothing reads
// nextAttemptAt across the table: the worker reads it from the head row.
export const OUTBOX = collection<OutboxRow>('outbox', { keys: ['webhookId', 'state'], unindexed: ['state'], sorted: [['webhookId', 'state']], orders: [] });

/** Every collection above, by name. */
export const CORE_COLLECTIONS = {
  users: USERS,
  geofences: GEOFENCES,
  beacons: BEACONS,
  events: EVENTS,
  trips: TRIPS,
  presence: PRESENCE,
  locations: LOCATIONS,
  flagged_users: FLAGGED_USERS,
  settings: SETTINGS,
  webhooks: WEBHOOKS,
  outbox: OUTBOX,
};

/** The declarations by name (tests define single collections with them). */
export const COLLECTIONS: { readonly [N in keyof typeof CORE_COLLECTIONS]: CollectionSpec } = {
  users: CORE_COLLECTIONS.users.spec,
  geofences: CORE_COLLECTIONS.geofences.spec,
  beacons: CORE_COLLECTIONS.beacons.spec,
  events: CORE_COLLECTIONS.events.spec,
  trips: CORE_COLLECTIONS.trips.spec,
  presence: CORE_COLLECTIONS.presence.spec,
  locations: CORE_COLLECTIONS.locations.spec,
  flagged_users: CORE_COLLECTIONS.flagged_users.spec,
  settings: CORE_COLLECTIONS.settings.spec,
  webhooks: CORE_COLLECTIONS.webhooks.spec,
  outbox: CORE_COLLECTIONS.outbox.spec,
};

export async function defineCollections(store: Store): Promise<void> {
  for (const c of Object.values(CORE_COLLECTIONS)) await store.define(c);
}
