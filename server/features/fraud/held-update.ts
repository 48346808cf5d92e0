// Holding a failed update back (project settings `fraud` and `fraudBlocking` on). The fraud step runs
// after every other step but webhooks, so at this point the update holds everything it would change:
// the user's new fields, events and Store writes. Holding back undoes all of it in memory, before
// anything is written: the user stays as it was (position, geofences, regions, beacons, trip), the
// update's events and writes are dropped, and only the fraud record moves on. A first update of a new
// user cannot fall back to a previous position: the user is created at the reported location with
// nothing evaluated (no geofences, regions or beacons).
import type { TrackUpdate } from '../../track-step';
import type { UserDoc } from '../../../core/model/user';

/** What a new user keeps when its first update is held back: identity and device, no evaluation. */
const NEW_USER_FIELDS = [
  '_id', 'live', 'createdAt', 'updatedAt', 'actualUpdatedAt', 'deviceId', 'userId', 'location', 'locationAccuracy', 'ip',
  'segments', 'topChains', 'foreground', 'stopped', 'description', 'metadata', 'deviceType', 'deviceOS', 'deviceMake', 'deviceModel',
] as const;

export function holdBack(update: TrackUpdate): void {
  const { user, previous } = update;
  update.events.length = 0;
  update.ops.length = 0;
  const kept: Record<string, unknown> = previous
    ? { ...previous, actualUpdatedAt: user.actualUpdatedAt }
    : { ...Object.fromEntries(NEW_USER_FIELDS.filter((f) => user[f] !== undefined).map((f) => [f, user[f]])), geofences: [], _visits: [] };
  // In place: TrackService writes this very object.
  for (const key of Object.keys(user)) Reflect.deleteProperty(user, key);
  Object.assign(user, kept);
}
