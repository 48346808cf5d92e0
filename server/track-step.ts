// How a feature takes part in a track update (POST /v1/track): the update each step sees, the step
// interface, and the lock every writer of a user's state takes. The track feature runs the pipeline
// (features/track/track-service.ts); the other features plug steps in through this file only.
import type { Scope, WriteOp } from '../ports/store';
import { scopeKey } from '../adapters/store/scope-key';
import type { EventDoc, EventFields } from '../core/model/event';
import type { TrackInput } from '../core/model/track-input';
import type { UserDoc } from '../core/model/user';
import type { ProjectSettings } from '../core/types';

export interface TrackContext {
  scope: Scope;
  settings: ProjectSettings;
  ip: string;
  now: Date;
}

/**
 * Later steps of the pipeline (trips, regions, places, webhooks) plug in here: each sees the update
 * after geofencing and may add events and Store writes to the same atomic write (`run`). Steps that only
 * pass the update on (webhooks) use `finish`: called once every step has run, with the user and the
 * events as the API shows them already serialised, and only adding writes.
 */
export interface TrackStep {
  run?(update: TrackUpdate): Promise<void>;
  finish?(update: TrackUpdate, json: TrackJson): Promise<void>;
}

/** The user and the events as the API shows them (publicView, publicEvent), serialised once per update. */
export interface TrackJson {
  user: string;
  events: string[];
}

export interface TrackUpdate {
  ctx: TrackContext;
  input: TrackInput;
  /** The update's time: events' createdAt and the user's updatedAt. */
  at: Date;
  previous: UserDoc | undefined;
  user: UserDoc;
  events: EventDoc[];
  ops: WriteOp[];
  newEvent(type: string, fields: EventFields): EventDoc;
}

/**
 * The lock serialising a user's track updates. Exported so that writes to a user's state made outside
 * track (trip status changes, expiry) take the same lock and never interleave with an update.
 */
export function userLockKey(scope: Scope, userId: string | undefined, deviceId: string): string {
  return `user:${scopeKey(scope, userId ?? `device:${deviceId}`)}`;
}

