// The `geofences` of GET /v1/context: the track engine run statelessly. A fresh user (no visits) at
// the point, so the answer is "the geofences an entry would be made for here", with every filter
// track applies: enabled, disableAfter/deleteAfter, userIds (the query's userId), ip restrictions
// (the caller's address) and, when the project suppresses them, geofences outside operating hours.
//
// Context takes no accuracy, so the point is exact (r = 0): a geofence holds it when its boundary
// does (circles as true circles), buffer entries add nothing, and confidence, which grades the
// accuracy disk, is not reported. Stop detection gates entries by motion, which a lookup does not
// have, so it is left out (the update is treated as foreground).
import type { Scope } from '../../../ports/store';
import { evaluateGeofences } from '../../../core/geofencing';
import type { Geofence, LngLat, ProjectSettings } from '../../../core/types';
import type { Geofences } from '../../../ports/geofences';

export interface ContextGeofenceQuery {
  scope: Scope;
  point: LngLat;
  at: Date;
  userId?: string;
  ip: string;
  settings: ProjectSettings;
}

export async function geofencesAt(geofences: Geofences, q: ContextGeofenceQuery): Promise<Geofence[]> {
  const index = await geofences.index(q.scope);
  const candidates = index.nearPrepared(q.point, 0);
  if (candidates.length === 0) return [];
  return evaluateGeofences({
    location: q.point,
    accuracy: 0,
    stopped: false,
    foreground: true,
    at: q.at,
    userId: q.userId,
    ip: q.ip,
    settings: q.settings,
    candidates,
    visits: [],
    lookup: (id) => index.getPrepared(id),
  }).inside;
}

/** A geofence as context lists it (the fields of Radar's context fixtures). */
export function contextGeofence(g: Geofence): Record<string, unknown> {
  const out: Record<string, unknown> = {
    _id: g._id, tag: g.tag, externalId: g.externalId, description: g.description, type: g.type,
    geometryCenter: g.geometryCenter, geometryRadius: g.geometryRadius,
  };
  if (g.metadata !== undefined) out.metadata = g.metadata;
  return out;
}
