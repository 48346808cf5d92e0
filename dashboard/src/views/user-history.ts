// What the user page reads of a user's past: their location history over a chosen period (GET
// /v1/users/:id/locations, newest first, at most TRACK_CAP points) and their own events a page at a time
// (GET /v1/users/:id/events). Both are read from an index by user on the server.
import type { Api } from '../api';
import type { EventItem } from '../events-feed';
import type { LocationItem } from '../map/location-track';

export const PERIODS = [
  { value: 'hour', label: 'Last hour', ms: 3_600_000 },
  { value: 'day', label: 'Last 24 hours', ms: 86_400_000 },
  { value: 'week', label: 'Last 7 days', ms: 7 * 86_400_000 },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

/** The most points drawn: a day at one a minute fits; a busy week is cut to its newest points (and says so). */
export const TRACK_CAP = 2000;
const PAGE = 1000;

const path = (id: string, what: string) => `/v1/users/${encodeURIComponent(id)}/${what}`;

/** The user's locations of the period, newest first, and whether older ones of it were left out. */
export async function loadTrack(api: Api, userId: string, period: Period, now = Date.now()): Promise<{ locations: LocationItem[]; capped: boolean }> {
  const ms = PERIODS.find((p) => p.value === period)?.ms ?? PERIODS[1].ms;
  const createdAfter = new Date(now - ms).toISOString();
  const locations: LocationItem[] = [];
  for (;;) {
    const last = locations.at(-1);
    const page = await api.get(path(userId, 'locations'), {
      createdAfter, limit: Math.min(PAGE, TRACK_CAP - locations.length), createdBefore: last?.createdAt, beforeId: last?._id,
    });
    locations.push(...(page.locations as LocationItem[]));
    if (!page.meta?.hasMore) return { locations, capped: false };
    if (locations.length >= TRACK_CAP) return { locations, capped: true };
  }
}

/**
 * One page of the user's events, newest first, before `last` when given; within `window` when given (its
 * `before` bounds the first page, `last` the later ones).
 */
export async function loadEvents(api: Api, userId: string, last?: EventItem, limit = 50, window: { after?: string; before?: string } = {}): Promise<{ events: EventItem[]; hasMore: boolean }> {
  const page = await api.get(path(userId, 'events'), { limit, createdAfter: window.after, createdBefore: last?.createdAt ?? window.before, beforeId: last?._id });
  return { events: page.events as EventItem[], hasMore: page.meta?.hasMore === true };
}
