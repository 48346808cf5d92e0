// The flagged-users rows (collections.ts FLAGGED_USERS): one per user with a fraud flag raised, so that
// GET /v1/users fraud=true reads the flagged users instead of scanning all of them. Track writes a row
// only when an update changes the user's flagged state, in the update's own write; DELETE /v1/users/:id
// removes it with the user. An environment's rows are complete when its project was created after the
// store's first start with the rows (the "kept since" row, written before the gateway listens), or once
// its marker row exists: an environment from before gets it from fillFlaggedUsers, run once at start in
// the background.
import { put, remove, type Scope, type Store, type WriteOp } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import { hasFraudFlag } from '../../core/users/user-filter';
import { FLAGGED_USERS, USERS } from './collections';
import { userLockKey } from '../track-step';

/** The marker row's _id: never a user's (those are 24 hex digits). */
const COMPLETE = 'complete';
// Where the store says since when the rows are kept: a scope of no project (no project's id is 1970's).
const STORE_SCOPE = { projectId: '0'.repeat(24), live: false };
const KEPT_SINCE = 'kept-since';
// Users filled between turns of the event loop.
const YIELD_EVERY = 100;

/**
 * The write that keeps the user's row in step with an update: a put when the user becomes flagged, a
 * remove when it stops being, nothing when its flagged state stays (the steady update writes no more).
 */
export function flaggedUserOps(scope: Scope, previous: Pick<UserDoc, 'fraud'> | undefined, user: Pick<UserDoc, '_id' | 'fraud'>, now: string): WriteOp[] {
  const was = previous !== undefined && hasFraudFlag(previous);
  const is = hasFraudFlag(user);
  if (is === was) return [];
  return [is ? flaggedUserOp(scope, user._id, now) : removeFlaggedUser(scope, user._id)];
}

/** The row naming `userRef` flagged since `now`; its _id is the user's, so a user has one at most. */
function flaggedUserOp(scope: Scope, userRef: string, now: string): WriteOp {
  return put(FLAGGED_USERS, scope, { _id: userRef, createdAt: now, updatedAt: now, userRef });
}

export function removeFlaggedUser(scope: Scope, userRef: string): WriteOp {
  return remove(FLAGGED_USERS, scope, userRef);
}

/** The marker saying the environment's rows are complete (after a fill). */
export function flaggedCompleteOp(scope: Scope, now: string): WriteOp {
  return put(FLAGGED_USERS, scope, { _id: COMPLETE, createdAt: now, updatedAt: now });
}

/**
 * Since when this store's track path keeps the rows: written at the first start that keeps them, before
 * the gateway listens (so before any project it creates). A project created since has had its rows
 * from its first user on: nothing to fill, and no write at its creation.
 */
export async function flaggedUsersKeptSince(store: Store, now = new Date()): Promise<string> {
  const row = await store.get(FLAGGED_USERS, STORE_SCOPE, KEPT_SINCE);
  if (row) return row.createdAt;
  const at = now.toISOString();
  await store.write([put(FLAGGED_USERS, STORE_SCOPE, { _id: KEPT_SINCE, createdAt: at, updatedAt: at })]);
  return at;
}

async function keptFromTheStart(store: Store, scope: Scope, since: string | undefined): Promise<boolean> {
  if (since === undefined) return false;
  const project = await store.projects.get(scope.projectId);
  return project !== undefined && project.createdAt >= since;
}

/** Whether the environment's rows are complete; once seen, remembered (nothing makes them incomplete). */
export class FlaggedUsersState {
  private readonly complete = new Set<string>();

  constructor(private readonly store: Store) {}

  async isComplete(scope: Scope): Promise<boolean> {
    const key = `${scope.projectId}:${scope.live ? 1 : 0}`;
    if (this.complete.has(key)) return true;
    const since = (await this.store.get(FLAGGED_USERS, STORE_SCOPE, KEPT_SINCE))?.createdAt;
    if (!(await keptFromTheStart(this.store, scope, since)) && !(await this.store.get(FLAGGED_USERS, scope, COMPLETE))) return false;
    this.complete.add(key);
    return true;
  }
}

export interface FillProgress {
  environments: number;
  filled: number;
  usersRead: number;
  flagged: number;
}

/**
 * For every environment without its marker: reads all its users in the store's batches (the scan yields
 * between them, so requests are answered meanwhile), then, for each one the scan saw flagged, reads it
 * again under its track lock and puts its row if it still is, then the marker. Under the lock no update
 * of the user is between the read and the put: one that unflags the user after the scan read it either
 * ran before (the user is read unflagged, no row) or runs after (it sees a flagged user and removes the
 * row), so the fill leaves no stale row. A user flagged after the scan read it gets its row from that
 * update. Several nodes filling at once put the same rows.
 */
export async function fillFlaggedUsers(store: Store, progress?: (p: FillProgress) => void): Promise<FillProgress> {
  const since = (await store.get(FLAGGED_USERS, STORE_SCOPE, KEPT_SINCE))?.createdAt;
  // The projects from before the rows were kept.
  const projects = (await store.projects.list()).filter((p) => since === undefined || p.createdAt < since);
  const state: FillProgress = { environments: projects.length * 2, filled: 0, usersRead: 0, flagged: 0 };
  for (const project of projects) {
    for (const live of [false, true]) {
      const scope = { projectId: project._id, live };
      if (await store.get(FLAGGED_USERS, scope, COMPLETE)) continue;
      const seen: Array<Pick<UserDoc, '_id' | 'userId' | 'deviceId'>> = [];
      await store.scan(USERS, scope, (docs) => {
        for (const u of docs) if (hasFraudFlag(u)) seen.push({ _id: u._id, userId: u.userId, deviceId: u.deviceId });
        state.usersRead += docs.length;
        progress?.({ ...state });
      });
      for (const [i, s] of seen.entries()) {
        await store.withLock(userLockKey(scope, s.userId, s.deviceId), async () => {
          const user = await store.get(USERS, scope, s._id);
          if (!user || !hasFraudFlag(user)) return;
          await store.write([flaggedUserOp(scope, user._id, new Date().toISOString())]);
          state.flagged++;
        });
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      await store.write([flaggedCompleteOp(scope, new Date().toISOString())]);
      state.filled++;
    }
  }
  return state;
}
