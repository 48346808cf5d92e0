// Trip writes made outside a track update (create, status changes, delete, expiry) and the pieces the
// track step shares with them (destination, ETA, delay, expiry date, events).
//
// Concurrency: every write to a trip that belongs to a user happens under that user's track lock
// (`_lockKey`, the key TrackService uses), so a PATCH never interleaves with a location update of the
// same user; a trip without a user is locked by its own id. Creation is serialised per externalId so
// two open trips never share one.
import type { Router } from '../../../ports/router';
import { put, remove, type Scalar, type Scope, type Store, type WriteOp } from '../../../ports/store';
import { EVENTS, GEOFENCES, TRIPS, USERS } from '../../api/collections';
import { scopeKey } from '../../../adapters/store/scope-key';
import { newObjectId, isObjectId } from '../../../core/object-id';
import {
  OPEN_STATUSES, decideStatusChange, isActive, isOpen, isStopped, keepStatus, startEvents, tripDelay, tripEta, tripExpiresAt,
  type TripEventType,
} from '../../../core/trips';
import type { Geofence, LngLat, ProjectSettings } from '../../../core/types';
import { DEFAULT_PROJECT_SETTINGS } from '../../../core/types';
import { Conflict, NotFound } from '../../http/errors';
import type { Logger } from '../../../ports/logger';
import type { Geofences } from '../../../ports/geofences';
import { OpenTripScopes } from './open-trip-scopes';

import { eventUser } from '../../../core/model/views';
import { userLockKey } from '../../track-step';
import type { EventDoc } from '../../../core/model/event';
import type { UserDoc } from '../../../core/model/user';
import { pendingUserRef, type TripDoc } from '../../../core/model/trip';
import { tripSummary } from '../../../core/model/views';
import type { CreateTripInput, ListTripsInput, TripFields, UpdateTripInput } from './trip-input';
import { listPage } from '../../api/list-query';

export interface TripWrite {
  trip: TripDoc;
  /** Trip events of the write, in order (already stored). */
  events: EventDoc[];
}

/**
 * Extra operations for the write that stores events made outside a track update (the webhooks
 * outbox). `user` is the stored user as the payload should show it, or null.
 */
export type EventOpsHook = (scope: Scope, events: EventDoc[], user: UserDoc | null) => Promise<WriteOp[]>;

/** A trip's lock moved (a track update claimed it) between reading it and locking: read again. */
const LOCK_MOVED = Symbol('lock moved');
const MAX_LOCK_ATTEMPTS = 4;
const EXPIRY_BATCH = 200;

/** What trips read of a project: its settings (the projects feature's service is one). */
export interface ProjectSettingsSource {
  settings(projectId: string): Promise<ProjectSettings>;
}

export class TripService {
  constructor(
    readonly store: Store,
    private readonly geofences: Geofences,
    private readonly router: Router,
    private readonly projects: ProjectSettingsSource,
    private readonly logger: Logger,
    private readonly eventOps: EventOpsHook = async () => [],
  ) {
    this.openScopes = new OpenTripScopes(store);
  }

  /** Environments known to have no open trip: track skips their open-trips query. */
  readonly openScopes: OpenTripScopes;

  // ---- reads ----

  async openByExternalId(scope: Scope, externalId: string): Promise<TripDoc | undefined> {
    const { docs } = await this.store.list(TRIPS, scope, { limit: 1, sortBy: 'updatedAt', equals: { externalId, status: [...OPEN_STATUSES] } });
    return docs[0];
  }

  /** By `_id`, else by externalId: the open trip with it, else the newest. */
  async find(scope: Scope, id: string): Promise<TripDoc> {
    if (isObjectId(id)) {
      const byId = await this.store.get(TRIPS, scope, id);
      if (byId) return byId;
    }
    const trip = (await this.openByExternalId(scope, id)) ?? (await this.store.findOne(TRIPS, scope, { externalId: id }));
    if (!trip) throw new NotFound(`No trip with _id or externalId "${id}"`, 'id');
    return trip;
  }

  async list(scope: Scope, q: ListTripsInput): Promise<{ trips: TripDoc[]; hasMore: boolean }> {
    const equals: Record<string, Scalar | Scalar[]> = {};
    if (q.statuses) equals.status = q.statuses;
    if (q.destinationGeofenceTag !== undefined) equals.destinationGeofenceTag = q.destinationGeofenceTag;
    if (q.destinationGeofenceExternalId !== undefined) equals.destinationGeofenceExternalId = q.destinationGeofenceExternalId;
    if (q.externalIds) equals.externalId = q.externalIds;
    if (q.delayed !== undefined) equals._delayed = q.delayed;
    if (q.user !== undefined) equals.userRef = await this.userRefs(scope, q.user);
    const ranges = [];
    if (q.createdAfter || q.createdBefore) {
      ranges.push({ field: 'createdAt' as const, after: q.createdAfter?.toISOString(), before: q.createdBefore?.toISOString() });
    }
    if (q.updatedAfter || q.updatedBefore) {
      ranges.push({ field: 'updatedAt' as const, after: q.updatedAfter?.toISOString(), before: q.updatedBefore?.toISOString() });
    }
    const { docs, hasMore } = await listPage(this.store, TRIPS, scope, { limit: q.limit, sortBy: q.sortBy, order: q.order, ranges, beforeId: q.beforeId, afterId: q.afterId, equals });
    return { trips: docs, hasMore };
  }

  /** Every userRef a user's trips may carry: its `_id`, and the placeholder of its userId. */
  private async userRefs(scope: Scope, id: string): Promise<string[]> {
    const refs = new Set([id, pendingUserRef(id)]);
    const byId = isObjectId(id) ? await this.store.get(USERS, scope, id) : undefined;
    const user = byId ?? (await this.store.findOne(USERS, scope, { userId: id }));
    if (user) {
      refs.add(user._id);
      if (user.userId !== undefined) refs.add(pendingUserRef(user.userId));
    }
    return [...refs];
  }

  /** The user a trip tracks, when it has tracked at least once. */
  async userOf(scope: Scope, trip: TripDoc): Promise<UserDoc | undefined> {
    if (trip.userRef !== undefined && isObjectId(trip.userRef)) {
      const byRef = await this.store.get(USERS, scope, trip.userRef);
      if (byRef) return byRef;
    }
    if (trip.userId === undefined) return undefined;
    return this.store.findOne(USERS, scope, { userId: trip.userId });
  }

  // ---- pieces shared with the track step ----

  /**
   * The destination geofence: by tag and externalId, or by externalId alone when no tag is given (a
   * tag alone names a group, not a place). Read from the in-memory index when the last resolved one
   * still carries the trip's keys.
   */
  async destination(scope: Scope, trip: TripDoc): Promise<Geofence | undefined> {
    const tag = trip.destinationGeofenceTag;
    const externalId = trip.destinationGeofenceExternalId;
    if (externalId === undefined) return undefined;
    const index = await this.geofences.index(scope);
    if (trip._destinationGeofenceId !== undefined) {
      const cached = index.get(trip._destinationGeofenceId);
      if (cached && cached.externalId === externalId && (tag === undefined || cached.tag === tag)) return cached;
    }
    const found = tag !== undefined
      ? await this.geofences.findByKey(scope, tag, externalId)
      : await this.store.findOne(GEOFENCES, scope, { externalId });
    return found ? (index.get(found._id) ?? found) : undefined;
  }

  /**
   * Destination location and ETA from `from` (the user's position). A destination that disappeared
   * keeps its last known location; a router failure keeps the last ETA (the update itself must not fail).
   */
  async refreshRoute(scope: Scope, trip: TripDoc, from: LngLat | undefined): Promise<Geofence | undefined> {
    const dest = await this.destination(scope, trip);
    if (dest) {
      trip._destinationGeofenceId = dest._id;
      trip.destinationLocation = { type: 'Point', coordinates: dest.geometryCenter.coordinates };
    }
    const to = trip.destinationLocation?.coordinates;
    if (from && to) {
      try {
        const eta = await this.router.eta(from, to, trip.mode);
        trip.eta = tripEta(eta.duration, eta.distance);
      } catch (err) {
        this.logger.warn('trip eta failed', { router: this.router.name, trip: trip._id, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return dest;
  }

  refreshDelay(trip: TripDoc, at: Date): void {
    if (trip.scheduledArrivalAt === undefined) {
      delete trip.delay;
      trip._delayed = false;
      return;
    }
    trip.delay = tripDelay({
      scheduledArrivalAt: Date.parse(trip.scheduledArrivalAt),
      now: at.getTime(),
      etaMinutes: trip.eta?.duration,
      arrivedAt: trip.arrivedAt !== undefined ? Date.parse(trip.arrivedAt) : undefined,
    });
    trip._delayed = trip.delay.delayed;
  }

  setExpiry(trip: TripDoc, settings: ProjectSettings): void {
    const expiresAt = tripExpiresAt(trip.status, trip.updatedAt, settings.tripExpirationHours);
    if (expiresAt === undefined) delete trip.expiresAt;
    else trip.expiresAt = expiresAt;
  }

  /**
   * Applies the optional fields of a create, update or tripOptions. The destination's tag and
   * externalId are one address: giving either replaces both, and forgets the old route.
   */
  applyFields(trip: TripDoc, f: TripFields): void {
    if (f.mode !== undefined) trip.mode = f.mode;
    if (f.metadata !== undefined) trip.metadata = f.metadata;
    if (f.approachingThreshold !== undefined) trip.approachingThreshold = f.approachingThreshold;
    if (f.scheduledArrivalAt !== undefined) trip.scheduledArrivalAt = f.scheduledArrivalAt.toISOString();
    if (f.destinationGeofenceTag === undefined && f.destinationGeofenceExternalId === undefined) return;
    if (f.destinationGeofenceTag === trip.destinationGeofenceTag && f.destinationGeofenceExternalId === trip.destinationGeofenceExternalId) return;
    trip.destinationGeofenceTag = f.destinationGeofenceTag;
    trip.destinationGeofenceExternalId = f.destinationGeofenceExternalId;
    for (const stale of ['destinationGeofenceTag', 'destinationGeofenceExternalId'] as const) if (trip[stale] === undefined) delete trip[stale];
    delete trip.destinationLocation;
    delete trip.eta;
    delete trip._destinationGeofenceId;
  }

  /** A trip event made outside a track update: the time is the server's, the user as last seen. */
  tripEvent(scope: Scope, type: TripEventType, trip: TripDoc, user: UserDoc | undefined, now: Date): EventDoc {
    const at = now.toISOString();
    const event: EventDoc = { _id: newObjectId(now), type, createdAt: at, actualCreatedAt: at, updatedAt: at, live: scope.live };
    if (user) {
      event.user = eventUser(user);
      if (user.location) {
        event.location = user.location;
        event.locationAccuracy = user.locationAccuracy;
      }
    } else if (trip.userId !== undefined) {
      event.user = { userId: trip.userId };
    }
    event.trip = tripSummary(trip);
    if (user) event.userRef = user._id;
    return event;
  }

  /** Keeps `user.trip` in step with a trip written outside a track update. */
  private userTripOps(scope: Scope, user: UserDoc | undefined, trip: TripDoc, deleted = false): WriteOp[] {
    if (!user) return [];
    const current = user.trip as { _id?: unknown } | undefined;
    if (!deleted && isActive(trip.status)) user.trip = tripSummary(trip);
    else if (current?._id === trip._id) delete user.trip;
    else return [];
    return [put(USERS, scope, user)];
  }

  /** Trip, events, the user's `trip` field and the events' outbox rows: one atomic write. */
  private async writeOps(scope: Scope, trip: TripDoc, events: EventDoc[], user: UserDoc | undefined): Promise<WriteOp[]> {
    const userOps = this.userTripOps(scope, user, trip);
    return [
      put(TRIPS, scope, trip),
      ...events.map((doc) => put(EVENTS, scope, doc)),
      ...userOps,
      ...(events.length > 0 ? await this.eventOps(scope, events, user ?? null) : []),
    ];
  }

  // ---- writes ----

  async create(scope: Scope, settings: ProjectSettings, input: CreateTripInput, now: Date): Promise<TripWrite> {
    const externalIdLock = `trip-externalId:${scopeKey(scope, input.externalId)}`;
    return this.store.withLock(externalIdLock, async () => {
      const open = await this.openByExternalId(scope, input.externalId);
      if (open) {
        throw new Conflict('externalId', `An open trip with externalId "${input.externalId}" already exists (status ${open.status}); complete or cancel it before creating another`);
      }
      if (input.userId === undefined) return this.createLocked(scope, settings, input, now, undefined);
      // Lock order is always externalId, then user: track updates take only the user lock, so no cycle.
      const userLock = userLockKey(scope, input.userId, '');
      return this.store.withLock(userLock, () => this.createLocked(scope, settings, input, now, userLock));
    });
  }

  private async createLocked(scope: Scope, settings: ProjectSettings, input: CreateTripInput, now: Date, lockKey: string | undefined): Promise<TripWrite> {
    const user = input.userId !== undefined ? (await this.store.findOne(USERS, scope, { userId: input.userId })) : undefined;
    const status = input.status ?? 'pending';
    const at = now.toISOString();
    const trip: TripDoc = {
      _id: newObjectId(now), live: scope.live, externalId: input.externalId, status, mode: input.mode ?? 'car',
      createdAt: at, updatedAt: at, _trail: [], _delayed: false,
    };
    this.applyFields(trip, input);
    if (input.userId !== undefined) {
      trip.userId = input.userId;
      trip.userRef = user?._id ?? pendingUserRef(input.userId);
      trip._lockKey = lockKey;
    }
    if (user) trip.user = eventUser(user);
    if (status === 'arrived') trip.arrivedAt = at;
    await this.refreshRoute(scope, trip, user?.location?.coordinates);
    this.refreshDelay(trip, now);
    this.setExpiry(trip, settings);
    const events = startEvents(status).map((type) => this.tripEvent(scope, type, trip, user, now));
    await this.store.write(await this.writeOps(scope, trip, events, user));
    return { trip, events };
  }

  async update(scope: Scope, settings: ProjectSettings, id: string, input: UpdateTripInput, now: Date): Promise<TripWrite> {
    const found = await this.find(scope, id);
    return this.withTripLock(scope, found._id, async (trip) => {
      const decision = input.status === undefined ? keepStatus(trip.status) : decideStatusChange(trip.status, input.status);
      if (decision.kind === 'refused') throw new Conflict('status', decision.reason);
      if (decision.kind === 'unchanged') return { trip, events: [] };
      const user = await this.userOf(scope, trip);
      const at = now.toISOString();
      // userId is not applied: a trip's user is set at creation or by its first tracked update.
      this.applyFields(trip, input);
      trip.status = decision.status;
      trip.updatedAt = at;
      if (trip.status === 'arrived' && trip.arrivedAt === undefined) trip.arrivedAt = at;
      if (isStopped(trip.status)) trip.completedAt = at;
      if (isOpen(trip.status)) {
        await this.refreshRoute(scope, trip, user?.location?.coordinates);
        this.refreshDelay(trip, now);
      }
      this.setExpiry(trip, settings);
      const events = decision.events.map((type) => this.tripEvent(scope, type, trip, user, now));
      await this.store.write(await this.writeOps(scope, trip, events, user));
      return { trip, events };
    });
  }

  async remove(scope: Scope, id: string): Promise<void> {
    const found = await this.find(scope, id);
    await this.withTripLock(scope, found._id, async (trip) => {
      const user = await this.userOf(scope, trip);
      await this.store.write([remove(TRIPS, scope, trip._id), ...this.userTripOps(scope, user, trip, true)]);
    });
  }

  /**
   * Expires open trips whose last update is older than the project's tripExpirationHours. The stored
   * due date was computed with the setting of the trip's last write; it is checked against the
   * current setting here, so a raised setting postpones expiry instead of cutting trips short.
   */
  async expireDue(now: Date): Promise<number> {
    const settingsOf = new Map<string, Promise<ProjectSettings>>();
    const settings = (projectId: string): Promise<ProjectSettings> => {
      let s = settingsOf.get(projectId);
      if (!s) {
        // A project that no longer exists still gets its trips closed, on the default setting.
        s = this.projects.settings(projectId).catch(() => DEFAULT_PROJECT_SETTINGS);
        settingsOf.set(projectId, s);
      }
      return s;
    };
    let expired = 0;
    for (;;) {
      const due = await this.store.due(TRIPS, now.toISOString(), EXPIRY_BATCH);
      for (const { scope, doc } of due) {
        if (await this.expireOne(scope, doc._id, await settings(scope.projectId), now)) expired++;
      }
      if (due.length < EXPIRY_BATCH) return expired;
    }
  }

  private async expireOne(scope: Scope, id: string, settings: ProjectSettings, now: Date): Promise<boolean> {
    try {
      return await this.withTripLock(scope, id, async (trip) => {
        const expiresAt = tripExpiresAt(trip.status, trip.updatedAt, settings.tripExpirationHours);
        const at = now.toISOString();
        if (expiresAt === undefined || expiresAt > at) {
          if (expiresAt === undefined) delete trip.expiresAt;
          else trip.expiresAt = expiresAt;
          await this.store.write([put(TRIPS, scope, trip)]);
          return false;
        }
        const user = await this.userOf(scope, trip);
        trip.status = 'expired';
        trip.updatedAt = at;
        trip.completedAt = at;
        delete trip.expiresAt;
        const events = [this.tripEvent(scope, 'user.stopped_trip', trip, user, now)];
        await this.store.write(await this.writeOps(scope, trip, events, user));
        return true;
      });
    } catch (err) {
      if (err instanceof NotFound) return false; // deleted meanwhile
      throw err;
    }
  }

  /** Runs `fn` on the freshly read trip while holding the trip's lock (see the file header). */
  private async withTripLock<T>(scope: Scope, id: string, fn: (trip: TripDoc) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const seen = await this.store.get(TRIPS, scope, id);
      if (!seen) throw new NotFound(`No trip with _id "${id}"`, 'id');
      const key = lockKeyOf(scope, seen);
      const result = await this.store.withLock(key, async () => {
        const trip = await this.store.get(TRIPS, scope, id);
        if (!trip) throw new NotFound(`No trip with _id "${id}"`, 'id');
        if (lockKeyOf(scope, trip) !== key) return LOCK_MOVED;
        return { value: await fn(trip) };
      });
      if (result !== LOCK_MOVED) return result.value;
      if (attempt >= MAX_LOCK_ATTEMPTS) throw new Error(`trip ${id}: its lock kept moving`);
    }
  }
}

function lockKeyOf(scope: Scope, trip: TripDoc): string {
  return trip._lockKey ?? `trip:${scopeKey(scope, trip._id)}`;
}
