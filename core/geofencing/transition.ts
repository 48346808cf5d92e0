// One user against one geofence for one update: the old state (a visit or none) and the new position
// give the transition, like Tile38's fenceMatch. Pure; every input is a value.
//
// Rules (spec "Geofence presence and availability", DESIGN §3 step 6):
//  - hysteresis: an entry only without a visit, an exit only with one, so re-entry needs an exit;
//  - entry: inside for entry (buffer entries widen it by r); with stop detection (the geofence's
//    stopDetection, else the project's) only when the update is stopped or in the foreground;
//  - exit: outside for exit (buffer exits require more than r outside); duration = minutes since
//    the visit's entry;
//  - dwell: once per visit, when dwell events are on and the geofence has dwellThreshold, on the
//    first update at which the time since entry is >= the threshold. "Longer than the threshold"
//    is read inclusively so an update landing exactly on it (common with minute-aligned updates)
//    fires rather than waiting for the next one. Never on the entry update itself.
import type { Geofence, ProjectSettings } from '../types';
import {
  entryConfidence,
  exitConfidence,
  insideForEntry,
  outsideForExit,
  type Confidence,
  type FencePosition,
} from './position';

/** The user's open visit of one geofence: present while the user is inside it. */
export interface VisitState {
  geofenceId: string;
  /** ISO time of the entry event. */
  enteredAt: string;
  /** A dwell event was already sent for this visit. */
  dwelled?: boolean;
}

/** The geofence fields the transition rules read (a Geofence, or its prepared form). */
export type FenceRules = Pick<Geofence, '_id' | 'stopDetection' | 'dwellThreshold'>;

export interface TransitionInput {
  /** The user's visit before this update; undefined = outside. */
  visit: VisitState | undefined;
  position: FencePosition;
  settings: ProjectSettings;
  geofence: FenceRules;
  stopped: boolean;
  foreground: boolean;
  at: Date;
}

export type FenceTransition =
  | { type: 'enter'; confidence: Confidence; visit: VisitState }
  | { type: 'exit'; confidence: Confidence; duration: number; visit: undefined }
  | { type: 'dwell'; confidence: Confidence; visit: VisitState }
  | { type: 'none'; visit: VisitState | undefined };

const MS_PER_MINUTE = 60000;
// Most candidates of an update are fences the user is not in and does not enter.
const STAYS_OUTSIDE: FenceTransition = Object.freeze({ type: 'none', visit: undefined });

export function fenceTransition(input: TransitionInput): FenceTransition {
  const { visit, position, settings, geofence, at } = input;
  if (!visit) {
    if (!insideForEntry(position, settings.bufferEntries)) return STAYS_OUTSIDE;
    const stopDetection = geofence.stopDetection ?? settings.stopDetection;
    if (stopDetection && !input.stopped && !input.foreground) return STAYS_OUTSIDE;
    return {
      type: 'enter',
      confidence: entryConfidence(position),
      visit: { geofenceId: geofence._id, enteredAt: at.toISOString() },
    };
  }
  if (outsideForExit(position, settings.bufferExits)) {
    const duration = roundMinutes(minutesSince(visit.enteredAt, at));
    return { type: 'exit', confidence: exitConfidence(position), duration, visit: undefined };
  }
  const threshold = geofence.dwellThreshold;
  // The entry time is parsed only when a dwell is possible: it is the costliest step here.
  if (settings.dwellEvents && threshold !== undefined && !visit.dwelled && minutesSince(visit.enteredAt, at) >= threshold) {
    return { type: 'dwell', confidence: entryConfidence(position), visit: { ...visit, dwelled: true } };
  }
  return { type: 'none', visit };
}

/** Minutes from `enteredAt` to `at`; 0 when the entry time is unreadable or in the future. */
function minutesSince(enteredAt: string, at: Date): number {
  const ms = at.getTime() - Date.parse(enteredAt);
  return ms > 0 ? ms / MS_PER_MINUTE : 0;
}

/** Millisecond precision, as Radar writes durations (e.g. 84491.305). */
function roundMinutes(minutes: number): number {
  return Math.round(minutes * 1000) / 1000;
}
