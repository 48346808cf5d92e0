// The live event feed shared by the map's side panel and the events page: polls GET /v1/events with
// `createdAfter` the newest event seen, so each poll returns only what is new.
import type { Api } from './api';
import { eventLabel } from './words';

export interface EventItem {
  _id: string;
  type: string;
  createdAt: string;
  user?: { _id?: string; userId?: string; deviceId?: string };
  geofence?: { _id?: string; tag?: string; externalId?: string; description?: string };
  trip?: { _id?: string; externalId?: string; eta?: { duration: number; distance: number } };
  location?: { coordinates: [number, number] };
  confidence?: number;
}

export class EventFeed {
  private newest?: string;
  private seen = new Set<string>();

  /**
   * With `user` (an _id, userId or deviceId) the feed reads that user's events from their own index
   * (GET /v1/users/:id/events), and the types are kept in the page: one user's events are few.
   */
  constructor(private readonly api: Api, private readonly types?: string, private readonly user?: string) {}

  /** The first call returns the latest `initial` events; later calls, the events since. Oldest first. */
  async next(initial = 50): Promise<EventItem[]> {
    // A millisecond back, with `seen` dropping repeats: events stamped in the same millisecond as the newest
    // one seen, but stored after the last poll, are not skipped.
    const after = this.newest ? new Date(Date.parse(this.newest) - 1).toISOString() : undefined;
    const limit = this.newest ? 1000 : initial;
    const page = this.user
      ? await this.api.get(`/v1/users/${encodeURIComponent(this.user)}/events`, { limit, createdAfter: after })
      : await this.api.get('/v1/events', { limit, types: this.types || undefined, createdAfter: after });
    const wanted = this.user && this.types ? new Set(this.types.split(',').map((t) => t.trim()).filter(Boolean)) : undefined;
    const events = ((page.events ?? []) as EventItem[]).filter((e) => !this.seen.has(e._id) && (!wanted || wanted.has(e.type)));
    // The list is newest first; the feed appends oldest first.
    events.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const e of events) this.seen.add(e._id);
    const last = events[events.length - 1];
    if (last && (!this.newest || last.createdAt > this.newest)) this.newest = last.createdAt;
    return events;
  }
}

export function describeEvent(e: EventItem): string {
  const who = e.user?.userId ?? e.user?.deviceId ?? e.user?._id ?? 'unknown user';
  const what = e.geofence ? ` ${e.geofence.description || `${e.geofence.tag ?? ''}/${e.geofence.externalId ?? ''}`}` : e.trip ? ` trip ${e.trip.externalId ?? ''}` : '';
  return `${eventLabel(e.type)} · ${who}${what}`;
}
