// A day's analytics, counted from its events: events by type, entries per geofence, visit lengths (exit
// events' duration), trips started and arrived with their durations and delays. A summary is plain JSON
// (kept in the store per closed day), and summaries of days merge into a period's: durations and delays
// are kept as histograms, so a period's median and 90th percentile come from its days' summaries without
// any event read again.
import { addHistograms, addToHistogram, type Histogram } from './histogram';

/** Upper bounds (exclusive, minutes) of the visit-length buckets; the last one is open. */
export const VISIT_BUCKETS_MIN = [5, 15, 60, 240, Infinity] as const;

/**
 * Most geofences a day's summary keeps, by entries. A period's top list is then exact for every geofence
 * that is in each of its days' kept lists; one below a day's cut has that day's entries left out.
 */
export const DAY_TOP_GEOFENCES = 200;

/**
 * Most distinct event types a day counts by name; more (custom conversion names are the client's) are
 * counted under OTHER_TYPE, so a summary stays small whatever the clients send.
 */
export const MAX_TYPES = 100;
export const OTHER_TYPE = 'other';

/**
 * The shape of a kept summary. A gateway keeps rows of its own version only: a row written by another
 * version (fields added, buckets moved) is computed again from the events, not misread.
 */
export const SUMMARY_VERSION = 1;

export interface GeofenceEntries {
  _id: string;
  tag: string;
  externalId: string;
  description: string;
  entries: number;
}

export interface TripFigures {
  /** user.started_trip events. */
  started: number;
  /** user.arrived_at_trip_destination events. */
  arrived: number;
  /** Arrivals whose trip was delayed (after its scheduled arrival). */
  arrivedLate: number;
  /** Arrivals: minutes from the trip's creation to its arrival. */
  durations: Histogram;
  /** Late arrivals: minutes after the scheduled arrival. */
  delays: Histogram;
}

export interface DaySummary {
  events: number;
  byType: Record<string, number>;
  /** At most DAY_TOP_GEOFENCES, most entries first. */
  geofences: GeofenceEntries[];
  /** Exits counted per VISIT_BUCKETS_MIN bucket. */
  visits: number[];
  trips: TripFigures;
}

/** What counting reads of an event: the stored event's fields, all optional but type and createdAt. */
export interface CountedEvent {
  type: string;
  createdAt: string;
  duration?: number;
  geofence?: { _id?: string; tag?: string; externalId?: string; description?: string };
  trip?: { createdAt?: string; arrivedAt?: string; delay?: { delayed?: boolean; scheduledArrivalTimeDelay?: number } };
}

export function emptySummary(): DaySummary {
  return { events: 0, byType: {}, geofences: [], visits: VISIT_BUCKETS_MIN.map(() => 0), trips: { started: 0, arrived: 0, arrivedLate: 0, durations: {}, delays: {} } };
}

/**
 * Counts events into a summary. The geofences are kept whole while counting (a map by id) and cut to the
 * top DAY_TOP_GEOFENCES only by finish(): a cut per batch would lose a geofence entered late in the day.
 */
export class DayCounter {
  private readonly summary = emptySummary();
  private readonly geofences = new Map<string, GeofenceEntries>();

  add(events: readonly CountedEvent[]): void {
    const s = this.summary;
    for (const e of events) {
      s.events++;
      const type = e.type in s.byType || Object.keys(s.byType).length < MAX_TYPES ? e.type : OTHER_TYPE;
      s.byType[type] = (s.byType[type] ?? 0) + 1;
      if (e.type === 'user.entered_geofence' && e.geofence?._id) this.enter(e.geofence as GeofenceEntries);
      else if (e.type === 'user.exited_geofence' && typeof e.duration === 'number' && Number.isFinite(e.duration) && e.duration >= 0) {
        s.visits[VISIT_BUCKETS_MIN.findIndex((limit) => e.duration! < limit)]++;
      } else if (e.type === 'user.started_trip') s.trips.started++;
      else if (e.type === 'user.arrived_at_trip_destination') this.arrive(e);
    }
  }

  private enter(g: { _id: string; tag?: string; externalId?: string; description?: string }): void {
    const known = this.geofences.get(g._id);
    if (known) known.entries++;
    else this.geofences.set(g._id, { _id: g._id, tag: g.tag ?? '', externalId: g.externalId ?? '', description: g.description ?? '', entries: 1 });
  }

  private arrive(e: CountedEvent): void {
    const t = this.summary.trips;
    t.arrived++;
    const created = Date.parse(e.trip?.createdAt ?? '');
    const arrived = Date.parse(e.trip?.arrivedAt ?? e.createdAt);
    if (Number.isFinite(created) && Number.isFinite(arrived) && arrived >= created) addToHistogram(t.durations, (arrived - created) / 60_000);
    const delay = e.trip?.delay;
    if (delay?.delayed) {
      t.arrivedLate++;
      if (typeof delay.scheduledArrivalTimeDelay === 'number' && Number.isFinite(delay.scheduledArrivalTimeDelay)) addToHistogram(t.delays, delay.scheduledArrivalTimeDelay);
    }
  }

  finish(): DaySummary {
    return { ...this.summary, geofences: topGeofences([...this.geofences.values()], DAY_TOP_GEOFENCES) };
  }
}

/** Most entries first; ties by id, so an answer reads the same every time. */
export function topGeofences(list: GeofenceEntries[], n: number): GeofenceEntries[] {
  return [...list].sort((a, b) => b.entries - a.entries || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).slice(0, n);
}

/** The summary of several days (or parts of one) together; geofences not cut (the caller picks its top). */
export function mergeSummaries(parts: readonly DaySummary[]): DaySummary {
  const out = emptySummary();
  const geofences = new Map<string, GeofenceEntries>();
  for (const p of parts) {
    out.events += p.events;
    for (const [type, n] of Object.entries(p.byType)) out.byType[type] = (out.byType[type] ?? 0) + n;
    for (const g of p.geofences) {
      const known = geofences.get(g._id);
      // Parts come oldest first: a geofence renamed within the period is shown by its latest name.
      if (known) Object.assign(known, { tag: g.tag, externalId: g.externalId, description: g.description, entries: known.entries + g.entries });
      else geofences.set(g._id, { ...g });
    }
    p.visits.forEach((n, i) => { out.visits[i] += n; });
    out.trips.started += p.trips.started;
    out.trips.arrived += p.trips.arrived;
    out.trips.arrivedLate += p.trips.arrivedLate;
    addHistograms(out.trips.durations, p.trips.durations);
    addHistograms(out.trips.delays, p.trips.delays);
  }
  out.geofences = [...geofences.values()];
  return out;
}
