// Which place a user is in, and the place events of one location update (the Places feature). Rules:
//
// - A user can be "in" a place whose area (place-area.ts: outline, else a category-sized circle)
//   contains the reported location. Among several, a place whose own outline holds the location beats
//   one known only by a fitted circle (a shop's building beats the circle of the subway entrance at its
//   door); then the smallest area wins (a café inside a mall beats the mall), then the highest
//   confidence, then the nearest centre.
// - Entry needs no dwell: the first update inside enters, except that with stop detection on (the
//   project's setting, as for geofences) only an update with `stopped` or `foreground` true enters.
// - Hysteresis: a user stays in the place entered until the location is more than
//   min(accuracy, EXIT_BUFFER_MAX_M) outside its area, so GPS jitter on the boundary does not flap.
//   Leaving makes `user.exited_place` with `duration` in minutes; a user is in at most one place, so
//   entering another place first exits the current one.
// - `alternatePlaces` on an entry: the other candidates the accuracy disk touches, best first.
// - A place that disappeared from the data (re-import) ends the visit without an event.
import { entryConfidence, exitConfidence, fencePosition, type Confidence, type FencePosition } from '../geofencing/position';
import type { LngLat } from '../types';
import type { NearbyPlace } from './place-index';
import type { Place } from './place';
import { placeArea } from './place-area';

export const EXIT_BUFFER_MAX_M = 50;
export const MAX_ALTERNATE_PLACES = 3;
const MS_PER_MINUTE = 60_000;

/** Kept on the user between updates (never sent out). */
export interface PlaceVisit {
  placeId: string;
  enteredAt: string;
}

export interface PlaceDetectionInput {
  location: LngLat;
  accuracy: number;
  stopped: boolean;
  foreground: boolean;
  at: Date;
  stopDetection: boolean;
  /** Places near the location that may produce events (placeFilters applied). */
  candidates: readonly NearbyPlace[];
  previous: PlaceVisit | undefined;
  lookup(id: string): Place | undefined;
}

export type PlaceEventDraft =
  | { type: 'user.entered_place'; place: Place; confidence: Confidence; alternatePlaces: Place[] }
  | { type: 'user.exited_place'; place: Place; confidence: Confidence; duration: number };

export interface PlaceDetection {
  visit: PlaceVisit | undefined;
  /** The place the user is in after this update. */
  place: Place | undefined;
  events: PlaceEventDraft[];
}

interface Scored {
  place: Place;
  pos: FencePosition;
  confidence: Confidence;
  distanceM: number;
}

function better(a: Scored, b: Scored): number {
  const circleA = placeArea(a.place).kind === 'circle' ? 1 : 0;
  const circleB = placeArea(b.place).kind === 'circle' ? 1 : 0;
  return (
    circleA - circleB ||
    placeArea(a.place).geofence.geometryRadius - placeArea(b.place).geofence.geometryRadius ||
    b.confidence - a.confidence ||
    a.distanceM - b.distanceM
  );
}

export function detectPlace(input: PlaceDetectionInput): PlaceDetection {
  const { location, accuracy } = input;
  const events: PlaceEventDraft[] = [];
  let visit = input.previous;
  let current = visit ? input.lookup(visit.placeId) : undefined;
  if (visit && !current) visit = undefined;

  if (visit && current) {
    const pos = fencePosition(placeArea(current), location, accuracy);
    const outside = !pos.inside && pos.boundaryDistanceM > Math.min(accuracy, EXIT_BUFFER_MAX_M);
    if (!outside) return { visit, place: current, events };
  }

  const scored: Scored[] = [];
  for (const { place, distanceM } of input.candidates) {
    const pos = fencePosition(placeArea(place), location, accuracy);
    if (!pos.inside && pos.insideShare === 0) continue;
    scored.push({ place, pos: { ...pos }, confidence: entryConfidence(pos), distanceM });
  }
  const inside = scored.filter((s) => s.pos.inside).sort(better);
  const mayEnter = !input.stopDetection || input.stopped || input.foreground;
  const next = mayEnter ? inside[0] : undefined;
  if (next && current && next.place._id === current._id) return { visit, place: current, events };

  if (visit && current) {
    const pos = fencePosition(placeArea(current), location, accuracy);
    const ms = input.at.getTime() - Date.parse(visit.enteredAt);
    const duration = Math.round((ms > 0 ? ms / MS_PER_MINUTE : 0) * 1000) / 1000;
    events.push({ type: 'user.exited_place', place: current, confidence: exitConfidence(pos), duration });
  }
  if (!next) return { visit: undefined, place: undefined, events };
  const alternatePlaces = scored
    .filter((s) => s.place._id !== next.place._id)
    .sort(better)
    .slice(0, MAX_ALTERNATE_PLACES)
    .map((s) => s.place);
  events.push({ type: 'user.entered_place', place: next.place, confidence: next.confidence, alternatePlaces });
  return { visit: { placeId: next.place._id, enteredAt: input.at.toISOString() }, place: next.place, events };
}
