// Which geofences take part in one location update (DESIGN §3 step 4). An ineligible geofence is
// absent from the update's world: it fires nothing, and a visit the user had in it ends silently.
// That is the rule for disabled, expired and deleted geofences (spec: "no events generated"), and
// we apply it to every filter so the user's geofence list never shows a fence that cannot fire:
//  - userIds / ip: a restricted geofence only exists for the listed users / networks. A user who
//    entered on the office Wi-Fi and leaves on mobile data loses the visit without an exit event.
//  - operating-hours suppression: outside hours the geofence is closed; a user still inside at
//    opening time gets an entry then, which is what a "customer in store" trigger wants.
import type { ProjectSettings } from '../types';
import { isOperating } from '../operating-hours';
import { ipMatchesAny } from '../ip-ranges';
import type { PreparedGeofence } from './prepared-geofence';

export type Ineligibility = 'disabled' | 'disabled-after' | 'deleted-after' | 'user' | 'ip' | 'closed';

export interface UpdateContext {
  atMs: number;
  at: Date;
  userId: string | undefined;
  ip: string | undefined;
  settings: ProjectSettings;
}

/** Why `fence` does not take part in this update, or undefined when it does. */
export function ineligibility(fence: PreparedGeofence, ctx: UpdateContext): Ineligibility | undefined {
  if (!fence.enabled) return 'disabled';
  // "Time reaches disableAfter": the instant itself already counts as past.
  if (ctx.atMs >= fence.disableAtMs) return 'disabled-after';
  // Past deleteAfter the geofence is gone even if the expiry job has not removed it yet.
  if (ctx.atMs >= fence.deleteAtMs) return 'deleted-after';
  if (fence.allowedUserIds && (ctx.userId === undefined || !fence.allowedUserIds.has(ctx.userId))) return 'user';
  if (fence.ipRanges && (ctx.ip === undefined || !ipMatchesAny(ctx.ip, fence.ipRanges))) return 'ip';
  if (ctx.settings.operatingHoursSuppression && fence.hasOperatingHours && !currentlyOperating(fence, ctx.at)) {
    return 'closed';
  }
  return undefined;
}

/** Open at `at` in the geofence's zone (UTC when it has none); true without operating hours. */
export function currentlyOperating(fence: PreparedGeofence, at: Date): boolean {
  const g = fence.geofence;
  return g.operatingHours === undefined || isOperating(g.operatingHours, at, g.timeZone);
}
