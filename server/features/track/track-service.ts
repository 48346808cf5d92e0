// One POST /v1/track as one atomic step per user (DESIGN §3): find or create the user, settle the
// update's time, evaluate geofences, then persist user, events and presence in one Store write.
// Updates of one user are serialised by the Store's lock, in one process or (with PostgreSQL) many. The
// user an update starts from is the node's own copy when it has one (hot-users.ts), written back only at
// the revision it was read at (#14).
import { put, remove, REVISION_FIELD, type Scope, type Store, type WriteOp } from '../../../ports/store';
import { EVENTS, LOCATIONS, PRESENCE, USERS } from '../../api/collections';
import { RevisionConflict } from '../../../adapters/store/revision-conflict';
import { UniqueViolation } from '../../../adapters/store/unique-violation';
import { Conflict } from '../../http/errors';
import { evaluateGeofences, type GeofenceEventDraft, type VisitState } from '../../../core/geofencing';
import { newObjectId } from '../../../core/object-id';
import type { EventDoc, EventFields } from '../../../core/model/event';
import type { TrackInput } from '../../../core/model/track-input';
import type { UserDoc } from '../../../core/model/user';
import { locationRow } from '../../../core/model/location';
import { eventGeofence, eventUser, userGeofence } from '../../../core/model/views';
import type { Geofences } from '../../../ports/geofences';
import { userLockKey, type TrackContext, type TrackJson, type TrackStep, type TrackUpdate } from '../../track-step';
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';
import { HotUsers } from './hot-users';
import { eventJson, userJson } from './doc-json';
import { flaggedUserOps } from '../../api/flagged-users';

export interface TrackResult {
  user: UserDoc;
  events: EventDoc[];
  json: TrackJson;
}

/**
 * The widest candidate search one update may cause. Accuracy is the search radius; a hostile (or broken)
 * client sending accuracy 2.5e7 used to make every geofence of the environment a candidate, and with
 * buffer entries one request entered all of them. Worse fixes than a cell-tower's few kilometres carry
 * no usable position, so geofences farther than this are not considered.
 */
export const MAX_CANDIDATE_RADIUS_M = 5_000;

/** Clients' clocks drift; a timestamp this far in the future is treated as bad and replaced. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** Input keys whose lock key track() remembers (about 200 bytes each: 20 MB at most). */
const KNOWN_KEYS = 100_000;

/** Users kept in memory by default (WAYMARK_TRACK_HOT_USERS). */
export const DEFAULT_HOT_USERS = 10_000;

/** Attempts of track()'s resolve-lock-re-check before answering 409: each one means another update won a race. */
const MAX_IDENTITY_ATTEMPTS = 5;

/** The key of the user an update resolves to; a new user is created under its device's key. */
function lockKeyFor(scope: Scope, user: UserDoc | undefined, input: TrackInput): string {
  return user ? userLockKey(scope, user.userId, user.deviceId) : userLockKey(scope, undefined, input.deviceId);
}

export class TrackService {
  private readonly steps: TrackStep[] = [];

  /** The users this node last wrote, by lock key: the user an update starts from, when it may be (hotUser). */
  private readonly hot: HotUsers;

  constructor(
    private readonly store: Store,
    private readonly geofences: Geofences,
    options: { hotUsers?: number } = {},
  ) {
    this.hot = new HotUsers(options.hotUsers ?? DEFAULT_HOT_USERS);
  }

  /** Updates that started from a kept user, and those of them whose copy turned out stale. */
  private hotHits = 0;
  private hotConflicts = 0;

  /** Users kept in memory now, and what became of the copies used (tests, benchmarks). */
  get hotUsers(): { kept: number; used: number; stale: number } {
    return { kept: this.hot.size, used: this.hotHits, stale: this.hotConflicts };
  }

  /**
   * The lock key each input key resolved to last time (its user's userId, or the device): the first
   * guess of track(), so that a steady user takes one lock and one lookup. Only a hint, always checked
   * under the lock; bounded, oldest entries dropped first.
   */
  private readonly knownKeys = new LeastRecentlyUsed<string, string>(KNOWN_KEYS);

  private remember(inputKey: string, key: string): void {
    if (this.knownKeys.get(inputKey) === key) return;
    this.knownKeys.set(inputKey, key);
  }

  use(step: TrackStep): void {
    this.steps.push(step);
  }

  private async findUser(scope: Scope, input: TrackInput): Promise<UserDoc | undefined> {
    if (input.userId !== undefined) {
      const byUserId = await this.store.findOne(USERS, scope, { userId: input.userId });
      if (byUserId) return byUserId;
    }
    const byDevice = await this.store.findOne(USERS, scope, { deviceId: input.deviceId });
    // A logged-out user becomes the logged-in one; another user's device is not taken over.
    if (byDevice && (input.userId === undefined || byDevice.userId === undefined || byDevice.userId === input.userId)) return byDevice;
    return undefined;
  }

  /**
   * The kept copy of the user an update resolves to, when findUser() would answer it: the update names
   * a userId and the copy has that userId (one user per userId). An update with only a deviceId resolves
   * to the device's most recently updated user, which another user of the device may have become
   * without this copy changing: the store is asked which user that is (its id and revision, an index
   * lookup without reading the document), and the copy serves only if it is that user at that revision.
   * Either way the write checks the revision again.
   */
  private async hotUser(scope: Scope, key: string, input: TrackInput): Promise<UserDoc | undefined> {
    const user = this.hot.get(key);
    if (user === undefined) return undefined;
    if (input.userId !== undefined) return user.userId === input.userId ? user : undefined;
    if (user.deviceId !== input.deviceId) return undefined;
    const newest = await this.store.findRef(USERS, scope, { deviceId: input.deviceId });
    return newest !== undefined && newest.id === user._id && newest.rev === revisionOf(user) ? user : undefined;
  }

  /** The spec's time rule: the client's updatedAt when given and in order, else server time. */
  private updateTime(input: TrackInput, previous: UserDoc | undefined, now: Date): Date {
    const given = input.updatedAt;
    if (!given || given.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) return now;
    if (previous && given.getTime() < Date.parse(previous.updatedAt)) return now;
    return given;
  }

  /**
   * Lock, resolve, re-check (#10.2). The lock that counts is the one of the user the update resolves to
   * (its userId, else its device), or of the device when it resolves to nobody, so both forms of a first
   * update (with and without userId) queue on the same key. The first guess is the key this input resolved
   * to last time, else the device's (right for a new device); under the lock the user is resolved, and
   * when its key differs the update tries again under that one (no read before the lock). Two devices
   * creating one userId at once hold different locks: the store's unique userId refuses the second write
   * and it tries again too.
   *
   * The user's write carries the revision its starting point was read at (0 for a new user). A copy kept
   * in memory that another writer has since changed or deleted fails that check; nothing is written, the
   * copy is dropped and the update starts again from the store, so no event is lost or written twice.
   */
  async track(ctx: TrackContext, input: TrackInput): Promise<TrackResult> {
    const inputKey = userLockKey(ctx.scope, input.userId, input.deviceId);
    // A device this process has not seen is most likely new: its key is the device's.
    let guess = this.knownKeys.get(inputKey) ?? userLockKey(ctx.scope, undefined, input.deviceId);
    for (let attempt = 0; attempt < MAX_IDENTITY_ATTEMPTS; attempt++) {
      const lockKey = guess;
      const outcome = await this.store.withLock(lockKey, async (): Promise<{ done: TrackResult } | { retry: string }> => {
        const hot = await this.hotUser(ctx.scope, lockKey, input);
        if (hot) this.hotHits++;
        const previous = hot ?? (await this.findUser(ctx.scope, input));
        const key = lockKeyFor(ctx.scope, previous, input);
        if (key !== lockKey) return { retry: key };
        try {
          const done = await this.trackLocked(ctx, input, previous);
          const userKey = userLockKey(ctx.scope, done.user.userId, done.user.deviceId);
          this.remember(inputKey, userKey);
          // Kept under the user's own key, also when this update held another one (a new user is created
          // under its device's key; a log-in moves a user to its userId's): whoever writes the user next
          // under that key finds the copy, and the revision check refuses it if another writer came between.
          if (userKey !== lockKey) this.hot.delete(lockKey);
          if (revisionOf(done.user) !== undefined) this.hot.set(userKey, done.user);
          else this.hot.delete(userKey);
          return { done };
        } catch (err) {
          // Whatever failed, the copy may no longer be what the store holds.
          this.hot.delete(lockKey);
          if (err instanceof RevisionConflict && hot) this.hotConflicts++;
          if (err instanceof UniqueViolation || err instanceof RevisionConflict) return { retry: key };
          throw err;
        }
      });
      if ('done' in outcome) return outcome.done;
      // Either the user moved to another key while this update waited, or a twin was refused by the store.
      guess = outcome.retry;
    }
    throw new Conflict('deviceId', `The user of device "${input.deviceId}" kept changing while this update was applied; send it again`);
  }

  private async trackLocked(ctx: TrackContext, input: TrackInput, previous: UserDoc | undefined): Promise<TrackResult> {
    const { scope, now } = ctx;
    const at = this.updateTime(input, previous, now);
    // Replayed updates were recorded offline: their events keep the time the device recorded.
    const eventAt = input.replayed && input.updatedAt && input.updatedAt.getTime() <= now.getTime() + MAX_CLOCK_SKEW_MS ? input.updatedAt : at;
    const eventTime = eventAt.toISOString();
    const index = await this.geofences.index(scope);
    const evaluation = evaluateGeofences({
      location: input.location,
      accuracy: input.accuracy,
      stopped: input.stopped ?? false,
      foreground: input.foreground ?? false,
      at,
      userId: input.userId ?? previous?.userId,
      ip: ctx.ip,
      settings: ctx.settings,
      candidates: index.nearPrepared(input.location, Math.min(input.accuracy, MAX_CANDIDATE_RADIUS_M)),
      visits: previous?._visits ?? [],
      lookup: (id) => index.getPrepared(id),
    });

    const nowIso = now.toISOString();
    const user: UserDoc = {
      ...(previous ?? {}),
      _id: previous?._id ?? newObjectId(now),
      live: scope.live,
      createdAt: previous?.createdAt ?? nowIso,
      updatedAt: at.toISOString(),
      actualUpdatedAt: nowIso,
      deviceId: input.deviceId,
      location: { type: 'Point', coordinates: input.location },
      locationAccuracy: input.accuracy,
      geofences: evaluation.inside.map(userGeofence),
      ip: ctx.ip,
      segments: previous?.segments ?? [],
      topChains: previous?.topChains ?? [],
      _visits: evaluation.visits,
    };
    // In this order: a new user's JSON lists them so.
    if (input.userId !== undefined) user.userId = input.userId;
    if (input.foreground !== undefined) user.foreground = input.foreground;
    if (input.stopped !== undefined) user.stopped = input.stopped;
    if (input.description !== undefined) user.description = input.description;
    if (input.metadata !== undefined) user.metadata = input.metadata;
    if (input.deviceType !== undefined) user.deviceType = input.deviceType;
    if (input.deviceOS !== undefined) user.deviceOS = input.deviceOS;
    if (input.deviceMake !== undefined) user.deviceMake = input.deviceMake;
    if (input.deviceModel !== undefined) user.deviceModel = input.deviceModel;

    const events: EventDoc[] = [];
    const newEvent = (type: string, fields: EventFields): EventDoc => {
      const e: EventDoc = {
        _id: newObjectId(now),
        type,
        createdAt: eventTime,
        actualCreatedAt: nowIso,
        updatedAt: nowIso,
        live: scope.live,
        user: eventUser(user),
        location: user.location,
        locationAccuracy: input.accuracy,
        ...fields,
        userRef: user._id,
      };
      events.push(e);
      return e;
    };
    for (const draft of evaluation.events) newEvent(draft.type, geofenceEventFields(draft));

    const ops: WriteOp[] = [];
    const update: TrackUpdate = { ctx, input, at, previous, user, events, ops, newEvent };
    for (const step of this.steps) if (step.run) await step.run(update);
    const userText = userJson(user);
    const eventTexts = events.map(eventJson);
    const json: TrackJson = { user: userText.shown, events: eventTexts.map((t) => t.shown) };
    for (const step of this.steps) if (step.finish) await step.finish(update, json);

    // Only at the revision `previous` was read at: 0 (must not exist) for a new user.
    const expectRev = previous ? revisionOf(previous) : 0;
    ops.unshift(put(USERS, scope, user, { json: userText.stored, expectRev }));
    events.forEach((e, i) => ops.push(put(EVENTS, scope, e, { json: eventTexts[i].stored })));
    // From the user as the steps left it: a step may hold the update back and restore the previous visits.
    ops.push(...presenceOps(scope, user._id, previous?._visits ?? [], user._visits, nowIso));
    // A user becoming flagged or unflagged (after every step: a held-back update keeps its fraud record)
    // puts or removes its flagged-users row; an update that leaves the flagged state as it was, none.
    ops.push(...flaggedUserOps(scope, previous, user, nowIso));
    // In the same write: an acknowledged update's history row is never lost. A held-back update (fraud
    // blocking) left the user where it was, so it has none. A replayed one is placed at its recorded time.
    if (user.fraud?.blocked !== true) {
      const row = locationRow(previous && { at: new Date(previous.updatedAt), coordinates: previous.location.coordinates }, {
        id: newObjectId(now), live: scope.live, userRef: user._id, at: eventAt, coordinates: input.location, accuracy: input.accuracy,
        foreground: input.foreground, stopped: input.stopped, replayed: input.replayed, eventTypes: events.map((e) => e.type),
        days: ctx.settings.locationHistoryDays,
      });
      if (row) ops.push(put(LOCATIONS, scope, row));
    }
    await this.store.write(ops);
    // The check passed, so the stored revision is now exactly one more (port.ts, expectRev).
    if (expectRev === undefined) delete user[REVISION_FIELD];
    else user[REVISION_FIELD] = expectRev + 1;
    return { user, events, json };
  }
}

/** The revision a stored user was read at; undefined if the store gave none (then the write is unchecked). */
function revisionOf(user: UserDoc): number | undefined {
  const rev = user[REVISION_FIELD];
  return typeof rev === 'number' && Number.isSafeInteger(rev) ? rev : undefined;
}

function geofenceEventFields(d: GeofenceEventDraft): EventFields {
  const fields: EventFields = { geofence: eventGeofence(d.geofence), confidence: d.confidence };
  if (d.duration !== undefined) fields.duration = d.duration;
  if (d.currentlyOperating !== undefined) fields.currentlyOperating = d.currentlyOperating;
  return fields;
}

/** Presence rows mirror visits, so "users in a geofence" needs no scan of all users. */
function presenceOps(scope: Scope, userRef: string, before: VisitState[], after: VisitState[], at: string): WriteOp[] {
  const ops: WriteOp[] = [];
  const was = new Set(before.map((v) => v.geofenceId));
  const is = new Set(after.map((v) => v.geofenceId));
  for (const id of is) {
    if (!was.has(id)) ops.push(put(PRESENCE, scope, { _id: `${userRef}:${id}`, createdAt: at, updatedAt: at, geofenceId: id, userRef }));
  }
  for (const id of was) if (!is.has(id)) ops.push(remove(PRESENCE, scope, `${userRef}:${id}`));
  return ops;
}
