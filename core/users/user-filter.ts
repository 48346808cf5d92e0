// Which users a filtered GET /v1/users answers (ours, not Radar's): one pure predicate per filter, so the
// list service only reads rows and the rules can be read (and tested) apart from the store.
import { FRAUD_FLAGS } from '../fraud/fraud-check';
import type { UserDoc } from '../model/user';

export interface UserFilter {
  /** Prefix of userId, deviceId or _id, or part of the description; case-insensitive. */
  search?: string;
  onTrip?: boolean;
  /** Inside at least one geofence (true) or none (false). */
  inside?: boolean;
  /** Inside this geofence (its _id). */
  geofenceId?: string;
  /** At least one fraud flag raised (true) or none (false). */
  fraud?: boolean;
}

/** True when the filter narrows anything: an empty one is the plain, indexed list. */
export function filters(f: UserFilter): boolean {
  return f.search !== undefined || f.onTrip !== undefined || f.inside !== undefined || f.geofenceId !== undefined || f.fraud !== undefined;
}

export function hasFraudFlag(user: Pick<UserDoc, 'fraud'>): boolean {
  return FRAUD_FLAGS.some((flag) => user.fraud?.[flag] === true);
}

function startsWith(value: string | undefined, needle: string): boolean {
  return value !== undefined && value.toLowerCase().startsWith(needle);
}

/** The test a row must pass; `search` is lowered once here, not per row. */
export function userMatcher(f: UserFilter): (user: UserDoc) => boolean {
  const needle = f.search?.toLowerCase();
  return (u) => {
    if (needle !== undefined && !(startsWith(u.userId, needle) || startsWith(u.deviceId, needle) || startsWith(u._id, needle)
      || (u.description !== undefined && u.description.toLowerCase().includes(needle)))) return false;
    if (f.onTrip !== undefined && (u.trip !== undefined && u.trip !== null) !== f.onTrip) return false;
    const geofences = u.geofences ?? [];
    if (f.inside !== undefined && (geofences.length > 0) !== f.inside) return false;
    if (f.geofenceId !== undefined && !geofences.some((g) => g._id === f.geofenceId)) return false;
    if (f.fraud !== undefined && hasFraudFlag(u) !== f.fraud) return false;
    return true;
  };
}

/**
 * Where the users a filter asks for are linked from, exactly: their active trips (onTrip=true), their
 * presence rows (inside=true, or in one geofence) or their flagged-users rows (fraud=true, once the
 * environment's rows are complete). The complements (false) have no such link: a user with no trip has
 * no row saying so.
 */
export interface UserLinks {
  onTrip: boolean;
  /** Inside any geofence, unless `geofenceId` names one. */
  inside: boolean;
  geofenceId?: string;
  fraud: boolean;
}

/**
 * The filter split into the links that give its users exactly, and the rest, tested on each linked user
 * (search, fraud, and any `false`). `flaggedComplete`: the environment's flagged-users rows are complete,
 * so fraud=true can be a link. No links: the filter can only be answered by a scan.
 */
export function splitFilter(f: UserFilter, flaggedComplete = false): { links?: UserLinks; rest: UserFilter } {
  const onTrip = f.onTrip === true;
  const inside = f.inside === true || f.geofenceId !== undefined;
  const fraud = f.fraud === true && flaggedComplete;
  if (!onTrip && !inside && !fraud) return { rest: f };
  const rest: UserFilter = { ...f };
  if (onTrip) delete rest.onTrip;
  if (inside) {
    // A presence row in the geofence is being inside one: inside=false with it matches nobody.
    if (f.inside === true) delete rest.inside;
    delete rest.geofenceId;
  }
  if (fraud) delete rest.fraud;
  return { links: { onTrip, inside, ...(f.geofenceId !== undefined ? { geofenceId: f.geofenceId } : {}), fraud }, rest };
}
