// A period's analytics from its days' summaries: what GET /v1/data/analytics answers.
import { mergeSummaries, topGeofences, VISIT_BUCKETS_MIN, type DaySummary, type GeofenceEntries } from './day-summary';
import { histogramCount, percentile } from './histogram';
import type { CalendarDay } from './calendar-days';

export interface PeriodReport {
  events: number;
  byType: Record<string, number>;
  /** Oldest first, every day of the period (zeros included), with its bounds in time (ISO instants). */
  days: Array<{ day: CalendarDay; start: string; end: string; events: number; byType: Record<string, number> }>;
  topGeofences: GeofenceEntries[];
  /** One row per VISIT_BUCKETS_MIN bucket: [minMinutes, maxMinutes) with null for the open end. */
  visits: Array<{ minMinutes: number; maxMinutes: number | null; exits: number }>;
  trips: {
    started: number;
    arrived: number;
    arrivedLate: number;
    /** Minutes from creation to arrival, of the arrivals with both times; to 0.1 min under an hour. */
    durationToArrival: { counted: number; median: number | null; p90: number | null };
    /** Minutes late, of the late arrivals. */
    delay: { counted: number; median: number | null; p90: number | null };
  };
}

/** A day of the period: its local date, its [start, end) in epoch ms and its summary. */
export interface PeriodDay {
  day: CalendarDay;
  start: number;
  end: number;
  summary: DaySummary;
}

export function periodReport(days: readonly PeriodDay[], top: number): PeriodReport {
  const all = mergeSummaries(days.map((d) => d.summary));
  const t = all.trips;
  return {
    events: all.events,
    byType: all.byType,
    days: days.map(({ day, start, end, summary }) => ({
      day, start: new Date(start).toISOString(), end: new Date(end).toISOString(), events: summary.events, byType: summary.byType,
    })),
    topGeofences: topGeofences(all.geofences, top),
    visits: VISIT_BUCKETS_MIN.map((max, i) => ({ minMinutes: i === 0 ? 0 : VISIT_BUCKETS_MIN[i - 1], maxMinutes: Number.isFinite(max) ? max : null, exits: all.visits[i] })),
    trips: {
      started: t.started,
      arrived: t.arrived,
      arrivedLate: t.arrivedLate,
      durationToArrival: { counted: histogramCount(t.durations), median: percentile(t.durations, 0.5), p90: percentile(t.durations, 0.9) },
      delay: { counted: histogramCount(t.delays), median: percentile(t.delays, 0.5), p90: percentile(t.delays, 0.9) },
    },
  };
}
