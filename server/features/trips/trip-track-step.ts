// The trips step of a track update (DESIGN §4), inside the user's atomic track step: the user's
// active trips take the location, their ETA and status move on, trip events join the update's events,
// and `user.trip` follows. A track body's `tripOptions` starts its trip the way the SDKs expect.
//
// Which trips a user's update touches: the user's open trips (linked by `_id`, or created for its
// userId before it ever tracked), at most MAX_OPEN_TRIPS_PER_USER of them, newest first; plus the trip
// named by tripOptions when it is unowned or the user's. Pending trips only get linked: a trip starts
// by PATCH, by creation with a status, or by tripOptions.
import { put } from '../../../ports/store';
import { TRIPS } from '../../api/collections';
import { newObjectId } from '../../../core/object-id';
import {
  OPEN_STATUSES, appendLocation, approachingThreshold, isActive, progressOnLocation,
  type ActiveStatus, type TripEventType,
} from '../../../core/trips';
import { eventUser } from '../../../core/model/views';
import { userLockKey, type TrackStep, type TrackUpdate } from '../../track-step';
import { pendingUserRef, trailPoint, type TripDoc } from '../../../core/model/trip';
import { tripSummary } from '../../../core/model/views';
import { readTripOptions, type TripOptions } from './trip-input';
import type { TripService } from './trip-service';

/** A user with more open trips than this is misusing trips; the newest are kept moving. */
export const MAX_OPEN_TRIPS_PER_USER = 10;

const STATUS_AFTER: Partial<Record<TripEventType, ActiveStatus>> = {
  'user.approaching_trip_destination': 'approaching',
  'user.arrived_at_trip_destination': 'arrived',
};

export class TripTrackStep implements TrackStep {
  constructor(private readonly trips: TripService) {}

  async run(update: TrackUpdate): Promise<void> {
    const { ctx, input, user } = update;
    const { scope } = ctx;
    // The key the user's next updates will lock (track resolves the user, then locks its key).
    const lockKey = userLockKey(scope, user.userId, user.deviceId);
    const refs = [user._id];
    if (user.userId !== undefined) refs.push(pendingUserRef(user.userId));
    const trips = (await this.trips.openScopes.mayHaveOpenTrips(scope)) ? (await this.openTripsOf(update, refs)).reverse() : [];
    const starting = new Set<string>();

    const options = readTripOptions(input.tripOptions);
    let optionTrip: TripDoc | undefined;
    if (options) {
      optionTrip = trips.find((t) => t.externalId === options.externalId) ?? (await this.adoptOrCreate(update, options));
      if (optionTrip && !trips.includes(optionTrip)) trips.push(optionTrip);
      if (optionTrip?.status === 'pending') {
        optionTrip.status = 'started';
        starting.add(optionTrip._id);
      }
    }

    const active: TripDoc[] = [];
    for (const trip of trips) {
      if (isActive(trip.status)) {
        await this.advance(update, trip, starting.has(trip._id), lockKey);
        active.push(trip);
      } else if (trip.userRef !== user._id) {
        // A pending trip created for this userId before the user existed: link it now.
        trip.userRef = user._id;
        trip._lockKey = lockKey;
        update.ops.push(put(TRIPS, scope, trip));
      }
    }
    const shown = (optionTrip && isActive(optionTrip.status) ? optionTrip : undefined) ?? active[active.length - 1];
    if (shown) user.trip = tripSummary(shown);
    else delete user.trip;
  }

  /**
   * Nearly every user has zero or one open trip. A lookup of one row lets the embedded store use the
   * userRef index (with a larger limit its planner walks the creation-time index over every trip of
   * the project), so the common case asks for one and only a user with more asks again.
   */
  private async openTripsOf(update: TrackUpdate, refs: string[]): Promise<TripDoc[]> {
    const query = { sortBy: 'createdAt' as const, equals: { userRef: refs, status: [...OPEN_STATUSES] } };
    const first = await this.trips.store.list(TRIPS, update.ctx.scope, { ...query, limit: 1 });
    if (!first.hasMore) return first.docs;
    return (await this.trips.store.list(TRIPS, update.ctx.scope, { ...query, limit: MAX_OPEN_TRIPS_PER_USER })).docs;
  }

  /**
   * The trip tripOptions names when the user has no open trip with that externalId: an open one nobody
   * owns yet (or owned by this userId), else a new started one. A stopped trip is never reopened: the
   * options are stale SDK state, and the missing `user.trip` makes the SDK end its trip locally.
   */
  private async adoptOrCreate(update: TrackUpdate, options: TripOptions): Promise<TripDoc | undefined> {
    const { ctx, user } = update;
    const { scope, now } = ctx;
    const open = await this.trips.openByExternalId(scope, options.externalId);
    if (open) {
      const owned = open.userId !== undefined ? open.userId === user.userId : open.userRef === undefined || open.userRef === user._id;
      return owned ? open : undefined;
    }
    if (await this.trips.store.findOne(TRIPS, scope, { externalId: options.externalId })) return undefined;
    const at = now.toISOString();
    // Created pending, so that run() starts it like any pending trip the options name.
    const trip: TripDoc = {
      _id: newObjectId(now), live: scope.live, externalId: options.externalId, status: 'pending', mode: options.mode ?? 'car',
      createdAt: at, updatedAt: at, _trail: [], _delayed: false,
    };
    this.trips.applyFields(trip, options);
    return trip;
  }

  private async advance(update: TrackUpdate, trip: TripDoc, starting: boolean, lockKey: string): Promise<void> {
    const { ctx, input, user, at } = update;
    const { scope, settings } = ctx;
    const atIso = at.toISOString();
    trip._trail = appendLocation(trip._trail ?? [], trailPoint(input.location, input.accuracy, at));
    trip.user = eventUser(user);
    trip.userRef = user._id;
    if (trip.userId === undefined && user.userId !== undefined) trip.userId = user.userId;
    trip._lockKey = lockKey;
    if (atIso > trip.updatedAt) trip.updatedAt = atIso;

    const dest = await this.trips.refreshRoute(scope, trip, input.location);
    const atDestination = dest !== undefined && (
      user.geofences.some((g) => g._id === dest._id)
      || update.events.some((e) => e.type === 'user.entered_geofence' && (e.geofence as { _id?: unknown } | undefined)?._id === dest._id)
    );
    const before = trip.status as ActiveStatus;
    const progress = progressOnLocation({
      status: before,
      etaMinutes: trip.eta?.duration,
      threshold: approachingThreshold({ trip: trip.approachingThreshold, geofence: dest?.tripApproachingThreshold, project: settings.tripApproachingThreshold }),
      atDestination,
    });
    if (progress.status === 'arrived' && before !== 'arrived') trip.arrivedAt = atIso;
    trip.status = progress.status;
    this.trips.refreshDelay(trip, at);
    this.trips.setExpiry(trip, settings);

    const summary = tripSummary(trip);
    update.newEvent(starting ? 'user.started_trip' : 'user.updated_trip', { trip: { ...summary, status: before } });
    for (const type of progress.events) update.newEvent(type, { trip: { ...summary, status: STATUS_AFTER[type] } });
    update.ops.push(put(TRIPS, scope, trip));
  }
}
