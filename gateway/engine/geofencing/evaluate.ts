// Geofence events for one location update of one user (DESIGN §3 steps 4–6): filter the candidates,
// place the user against each, and turn old visits + new positions into events and new visits.
// Pure: the caller supplies the candidates (GeofenceIndex.near), the user's visits and the time;
// serialising updates per user and dropping out-of-order ones is the caller's job.
import type { Geofence, LngLat, ProjectSettings } from '../types';
import { prepareGeofence, type PreparedGeofence } from './prepared-geofence';
import { fencePosition, type Confidence } from './position';
import { fenceTransition, type VisitState } from './transition';
import { currentlyOperating, ineligibility, type UpdateContext } from './eligibility';

export type { VisitState } from './transition';

export interface GeofenceEvaluationInput {
  location: LngLat;
  /** Reported accuracy, metres (r of the confidence rule). */
  accuracy: number;
  stopped: boolean;
  foreground: boolean;
  /** Time of the update (the events' createdAt). */
  at: Date;
  userId?: string;
  ip?: string;
  settings: ProjectSettings;
  /** From GeofenceIndex.near(location, accuracy). */
  candidates: Geofence[];
  /** Geofences the user was inside before this update. */
  visits: VisitState[];
  /** Current geofence by id; undefined = deleted. */
  lookup: (id: string) => Geofence | undefined;
}

export type GeofenceEventType = 'user.entered_geofence' | 'user.exited_geofence' | 'user.dwelled_in_geofence';

export interface GeofenceEventDraft {
  type: GeofenceEventType;
  geofence: Geofence;
  confidence: Confidence;
  /** Exits: minutes since the entry. */
  duration?: number;
  /** Present when the geofence has operating hours. */
  currentlyOperating?: boolean;
}

export interface GeofenceEvaluation {
  /** Exits, then entries, then dwells; by geofence _id within each type. */
  events: GeofenceEventDraft[];
  /** Visits after this update, by geofence id. */
  visits: VisitState[];
  /** The geofences of `visits`, same order. */
  inside: Geofence[];
}

const TYPE_ORDER: Record<GeofenceEventType, number> = {
  'user.exited_geofence': 0,
  'user.entered_geofence': 1,
  'user.dwelled_in_geofence': 2,
};

/**
 * Events and new visits for one update.
 *
 * Silent endings: a visit whose geofence is deleted (lookup gives undefined, or deleteAfter has
 * passed), disabled (enabled false or disableAfter passed) or otherwise ineligible for this update
 * (see eligibility.ts) is dropped without an exit event.
 *
 * @example
 * const index = new GeofenceIndex(); index.load(geofences);
 * const result = evaluateGeofences({ location, accuracy: 10, stopped: false, foreground: true,
 *   at: new Date(), userId: 'u1', settings, candidates: index.near(location, 10),
 *   visits: user.visits, lookup: (id) => index.get(id) });
 */
export function evaluateGeofences(input: GeofenceEvaluationInput): GeofenceEvaluation {
  const { location, accuracy, at, settings } = input;
  const ctx: UpdateContext = { at, atMs: at.getTime(), userId: input.userId, ip: input.ip, settings };
  const events: GeofenceEventDraft[] = [];
  const visits: VisitState[] = [];
  const inside: Geofence[] = [];
  const visitById = new Map<string, VisitState>();
  for (const v of input.visits) if (!visitById.has(v.geofenceId)) visitById.set(v.geofenceId, v);

  const seen = new Set<string>();
  const step = (geofence: Geofence, visit: VisitState | undefined): void => {
    const fence = prepareGeofence(geofence);
    if (!visit) {
      // Most candidates are near misses: place the user first, check (costlier) eligibility only
      // when an entry is possible. Same answer as filtering first.
      const position = fencePosition(fence, location, accuracy);
      const t = fenceTransition({ ...transitionContext(input), visit, position, geofence });
      if (t.type !== 'enter' || ineligibility(fence, ctx) !== undefined) return;
      events.push(draft('user.entered_geofence', fence, t.confidence, at));
      visits.push(t.visit);
      inside.push(geofence);
      return;
    }
    if (ineligibility(fence, ctx) !== undefined) return; // visit ends silently
    const position = fencePosition(fence, location, accuracy);
    const t = fenceTransition({ ...transitionContext(input), visit, position, geofence });
    if (t.type === 'exit') {
      const e = draft('user.exited_geofence', fence, t.confidence, at);
      e.duration = t.duration;
      events.push(e);
      return;
    }
    if (t.type === 'dwell') events.push(draft('user.dwelled_in_geofence', fence, t.confidence, at));
    if (t.visit) {
      visits.push(t.visit);
      inside.push(geofence);
    }
  };

  for (const g of input.candidates) {
    if (seen.has(g._id)) continue;
    seen.add(g._id);
    step(g, visitById.get(g._id));
  }
  for (const [id, visit] of visitById) {
    if (seen.has(id)) continue;
    seen.add(id);
    const g = input.lookup(id);
    if (g) step(g, visit); // undefined: deleted, the visit ends silently
  }

  events.sort(compareEvents);
  const order = visits.map((_, i) => i).sort((a, b) => compareIds(visits[a].geofenceId, visits[b].geofenceId));
  return { events, visits: order.map((i) => visits[i]), inside: order.map((i) => inside[i]) };
}

function transitionContext(input: GeofenceEvaluationInput) {
  return { settings: input.settings, stopped: input.stopped, foreground: input.foreground, at: input.at };
}

function draft(type: GeofenceEventType, fence: PreparedGeofence, confidence: Confidence, at: Date): GeofenceEventDraft {
  const e: GeofenceEventDraft = { type, geofence: fence.geofence, confidence };
  if (fence.hasOperatingHours) e.currentlyOperating = currentlyOperating(fence, at);
  return e;
}

function compareEvents(a: GeofenceEventDraft, b: GeofenceEventDraft): number {
  return TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || compareIds(a.geofence._id, b.geofence._id);
}

/** Code-unit order, independent of locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
