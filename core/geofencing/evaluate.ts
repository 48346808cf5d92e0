// Geofence events for one location update of one user (DESIGN §3 steps 4–6): filter the candidates,
// place the user against each, and turn old visits + new positions into events and new visits.
// Pure: the caller supplies the candidates (GeofenceIndex.near), the user's visits and the time;
// serialising updates per user and dropping out-of-order ones is the caller's job.
// Runs for every location update, so the loop allocates nothing per candidate that is not entered,
// exited or dwelled in.
import type { Geofence, LngLat, ProjectSettings } from '../types';
import { PreparedGeofence, idHash, prepareGeofence } from './prepared-geofence';
import { fencePosition, insideForEntry, type Confidence, type FencePosition } from './position';
import { fenceTransition, type FenceRules, type TransitionInput, type VisitState } from './transition';
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
  /**
   * From GeofenceIndex.near(location, accuracy): distinct geofences (one object per _id). Prepared
   * forms (GeofenceIndex.nearPrepared) are accepted too and skip a cache lookup per candidate.
   */
  candidates: ReadonlyArray<Geofence | PreparedGeofence>;
  /** Geofences the user was inside before this update. */
  visits: VisitState[];
  /** Current geofence by id (GeofenceIndex.get or getPrepared); undefined = deleted. */
  lookup: (id: string) => Geofence | PreparedGeofence | undefined;
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

/** Working state of one evaluation. */
interface Run {
  input: GeofenceEvaluationInput;
  ctx: UpdateContext;
  transition: TransitionInput;
  position: FencePosition;
  events: GeofenceEventDraft[];
  visits: VisitState[];
  inside: Geofence[];
}

// Each evaluation stamps the prepared geofences it has handled, which replaces a per-update Set.
let lastStamp = 0;

/**
 * Events and new visits for one update.
 *
 * Silent endings: a visit whose geofence is deleted (lookup gives undefined, or deleteAfter has
 * passed), disabled (enabled false or disableAfter passed) or otherwise ineligible for this update
 * (see eligibility.ts) is dropped without an exit event.
 *
 * @example
 * const index = new GeofenceIndex(); index.load(geofences);
 * // near()/get() work too; the prepared variants skip a cache lookup per geofence (see nearPrepared).
 * const result = evaluateGeofences({ location, accuracy: 10, stopped: false, foreground: true,
 *   at: new Date(updatedAt), userId: 'u1', ip, settings, candidates: index.nearPrepared(location, 10),
 *   visits: user.visits, lookup: (id) => index.getPrepared(id) });
 * // persist result.visits with the user; result.events become the update's geofence events
 */
export function evaluateGeofences(input: GeofenceEvaluationInput): GeofenceEvaluation {
  const { at, settings } = input;
  const stamp = ++lastStamp;
  const position: FencePosition = { inside: false, boundaryDistanceM: 0, accuracyM: 0, insideShare: 0 };
  const run: Run = {
    input,
    ctx: { at, atMs: at.getTime(), userId: input.userId, ip: input.ip, settings },
    transition: {
      visit: undefined,
      position,
      settings,
      geofence: NO_RULES,
      stopped: input.stopped,
      foreground: input.foreground,
      at,
    },
    position,
    events: [],
    visits: [],
    inside: [],
  };

  const visitTable = new VisitTable(input.visits);
  for (const candidate of input.candidates) {
    const fence = prepared(candidate);
    if (fence.seenStamp === stamp) continue;
    fence.seenStamp = stamp;
    consider(run, fence, visitTable.take(fence));
  }
  // Visits of geofences that are no longer near (usually exits), or gone (ended silently).
  for (const visit of visitTable.remaining()) {
    const found = input.lookup(visit.geofenceId);
    if (!found) continue;
    const fence = prepared(found);
    if (fence.seenStamp === stamp) continue;
    fence.seenStamp = stamp;
    consider(run, fence, visit);
  }

  const { events, visits, inside } = run;
  events.sort(compareEvents);
  const order = visits.map((_, i) => i).sort((a, b) => compareIds(visits[a].geofenceId, visits[b].geofenceId));
  return { events, visits: order.map((i) => visits[i]), inside: order.map((i) => inside[i]) };
}

const NO_RULES: FenceRules = { _id: '' };

/**
 * The user's visits by geofence id, as a small open-addressing table keyed by idHash. Matching a
 * candidate then reads only its prepared idHash; a lookup per visit in the index's 100k-entry Map,
 * or hashing every candidate's id string, cost several cache misses each.
 */
class VisitTable {
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly taken: Uint8Array;

  constructor(private readonly visits: readonly VisitState[]) {
    const n = visits.length;
    let size = 4;
    while (size < 2 * n) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(n);
    this.taken = new Uint8Array(n);
    const mask = size - 1;
    for (let i = 0; i < n; i++) {
      const id = visits[i].geofenceId;
      const h = idHash(id);
      this.hashes[i] = h;
      let slot = h & mask;
      let repeated = false;
      for (; this.slots[slot] !== -1; slot = (slot + 1) & mask) {
        const j = this.slots[slot];
        if (this.hashes[j] === h && visits[j].geofenceId === id) repeated = true;
      }
      if (repeated) this.taken[i] = 1; // a repeated visit: the first one counts
      else this.slots[slot] = i;
    }
  }

  /** The visit of `fence`, if any, marked as handled. */
  take(fence: PreparedGeofence): VisitState | undefined {
    if (this.visits.length === 0) return undefined;
    const mask = this.slots.length - 1;
    for (let slot = fence.idHash & mask; this.slots[slot] !== -1; slot = (slot + 1) & mask) {
      const j = this.slots[slot];
      if (this.hashes[j] === fence.idHash && !this.taken[j] && this.visits[j].geofenceId === fence._id) {
        this.taken[j] = 1;
        return this.visits[j];
      }
    }
    return undefined;
  }

  /** Visits not taken by a candidate. */
  remaining(): VisitState[] {
    const out: VisitState[] = [];
    for (let i = 0; i < this.visits.length; i++) if (!this.taken[i]) out.push(this.visits[i]);
    return out;
  }
}

/** One geofence of the update: the user's visit in it (if any) and where the user is now. */
function consider(run: Run, fence: PreparedGeofence, visit: VisitState | undefined): void {
  const { input, ctx, position } = run;
  // For a visit, ineligibility ends it silently whatever the position. Without one, most candidates
  // are near misses: place the user first and check the (costlier) eligibility only when an entry
  // is possible. Same answer as filtering first.
  if (visit && ineligibility(fence, ctx) !== undefined) return;
  fencePosition(fence, input.location, input.accuracy, position);
  if (!visit && !insideForEntry(position, input.settings.bufferEntries)) return;
  run.transition.visit = visit;
  run.transition.geofence = fence;
  const t = fenceTransition(run.transition);
  switch (t.type) {
    case 'none':
      break;
    case 'enter':
      if (ineligibility(fence, ctx) !== undefined) return;
      run.events.push(draft('user.entered_geofence', fence, t.confidence, ctx.at));
      break;
    case 'exit': {
      const e = draft('user.exited_geofence', fence, t.confidence, ctx.at);
      e.duration = t.duration;
      run.events.push(e);
      break;
    }
    case 'dwell':
      run.events.push(draft('user.dwelled_in_geofence', fence, t.confidence, ctx.at));
      break;
  }
  if (t.visit) {
    run.visits.push(t.visit);
    run.inside.push(fence.geofence);
  }
}

function prepared(g: Geofence | PreparedGeofence): PreparedGeofence {
  return g instanceof PreparedGeofence ? g : prepareGeofence(g);
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
