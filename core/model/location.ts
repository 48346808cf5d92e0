// A user's location history (ours, not Radar's API): one row per accepted track update, written in the
// update's own atomic write, read newest first by user (GET /v1/users/:id/locations) and deleted when
// its `expiresAt` passes (project setting `locationHistoryDays`).
import { haversineMeters } from '../geo/sphere';
import type { LngLat } from '../types';
import type { DocBase } from './document';

/** createdAt (and updatedAt) is the update's time, as the user's updatedAt has it. */
export interface LocationDoc extends DocBase {
  live: boolean;
  /** The user's `_id`: the rows' index starts with it; never shown. */
  userRef: string;
  location: { type: 'Point'; coordinates: [number, number] };
  locationAccuracy: number;
  foreground?: boolean;
  stopped?: boolean;
  /** A replayed update (recorded offline, sent later). */
  replayed?: boolean;
  /** The types of the events the update made, when it made some. */
  events?: string[];
  /** When the row is deleted: its time plus the retention of when it was written. */
  expiresAt: string;
}

/**
 * An update that moved less than this from the one before, with no event, in the same clock minute,
 * writes no row: a device at rest reporting every few seconds costs one row a minute, not one an update.
 */
export const STILL_METRES = 10;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface LocationFix {
  at: Date;
  coordinates: LngLat;
}

export interface LocationUpdate extends LocationFix {
  id: string;
  live: boolean;
  userRef: string;
  accuracy: number;
  foreground?: boolean;
  stopped?: boolean;
  replayed: boolean;
  eventTypes: readonly string[];
  /** The project's locationHistoryDays. */
  days: number;
}

/** Whether an update moved, made events or started a new minute since the user's previous update. */
export function worthARow(previous: LocationFix | undefined, next: LocationFix, events: number): boolean {
  if (!previous || events > 0) return true;
  if (Math.floor(previous.at.getTime() / MINUTE_MS) !== Math.floor(next.at.getTime() / MINUTE_MS)) return true;
  return haversineMeters(previous.coordinates, next.coordinates) >= STILL_METRES;
}

/** The history row of an update, or undefined when history is off or the update is not worth one. */
export function locationRow(previous: LocationFix | undefined, update: LocationUpdate): LocationDoc | undefined {
  if (!(update.days > 0) || !worthARow(previous, update, update.eventTypes.length)) return undefined;
  const at = update.at.toISOString();
  const row: LocationDoc = {
    _id: update.id,
    createdAt: at,
    updatedAt: at,
    live: update.live,
    userRef: update.userRef,
    location: { type: 'Point', coordinates: [update.coordinates[0], update.coordinates[1]] },
    locationAccuracy: update.accuracy,
    expiresAt: new Date(update.at.getTime() + update.days * DAY_MS).toISOString(),
  };
  if (update.foreground !== undefined) row.foreground = update.foreground;
  if (update.stopped !== undefined) row.stopped = update.stopped;
  if (update.replayed) row.replayed = true;
  if (update.eventTypes.length > 0) row.events = [...update.eventTypes];
  return row;
}

/** A row as the API shows it: without its user reference and its copy of createdAt. */
export function publicLocation(row: LocationDoc): Record<string, unknown> {
  const { userRef: _userRef, updatedAt: _updatedAt, ...shown } = row;
  return shown;
}
