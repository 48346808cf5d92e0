// The pure analytics of core/analytics: a day's events counted into a summary, summaries merged into a
// period, percentiles from histograms, calendar days and when a day's summary is final.
import { DayCounter, DAY_TOP_GEOFENCES, MAX_TYPES, OTHER_TYPE, mergeSummaries, type CountedEvent } from '../../core/analytics/day-summary';
import { addToHistogram, binOf, percentile, type Histogram } from '../../core/analytics/histogram';
import { periodReport } from '../../core/analytics/period-report';
import { daysBetween, parseDay } from '../../core/analytics/calendar-days';
import { DEFAULT_FINALITY, isFinal, keptSummaryServes } from '../../core/analytics/finality';

const at = '2026-11-20T10:00:00.000Z';
const entry = (id: string, n = 1): CountedEvent[] => Array.from({ length: n }, () => ({ type: 'user.entered_geofence', createdAt: at, geofence: { _id: id, tag: 'store', externalId: id, description: `Store ${id}` } }));
const exit = (duration: number): CountedEvent => ({ type: 'user.exited_geofence', createdAt: at, duration, geofence: { _id: 'a' } });
const arrival = (minutes: number, delay?: number): CountedEvent => ({
  type: 'user.arrived_at_trip_destination', createdAt: at,
  trip: { createdAt: '2026-11-20T09:00:00.000Z', arrivedAt: new Date(Date.parse('2026-11-20T09:00:00.000Z') + minutes * 60_000).toISOString(), delay: delay === undefined ? { delayed: false, scheduledArrivalTimeDelay: 0 } : { delayed: true, scheduledArrivalTimeDelay: delay } },
});

describe('a day counted from its events', () => {
  test('events by type, entries per geofence, visit buckets, trips', () => {
    const c = new DayCounter();
    c.add([...entry('a', 3), ...entry('b', 1)]);
    c.add([exit(4.9), exit(5), exit(59.9), exit(60), exit(300), { type: 'user.exited_geofence', createdAt: at }]);
    c.add([{ type: 'user.started_trip', createdAt: at }, arrival(10), arrival(20, 2.5)]);
    const s = c.finish();
    expect(s.events).toBe(13);
    expect(s.byType).toEqual({ 'user.entered_geofence': 4, 'user.exited_geofence': 6, 'user.started_trip': 1, 'user.arrived_at_trip_destination': 2 });
    expect(s.geofences.map((g) => [g._id, g.entries, g.description])).toEqual([['a', 3, 'Store a'], ['b', 1, 'Store b']]);
    expect(s.visits).toEqual([1, 1, 1, 1, 1]);
    expect(s.trips).toMatchObject({ started: 1, arrived: 2, arrivedLate: 1 });
    expect(percentile(s.trips.durations, 0.5)).toBe(10);
    expect(percentile(s.trips.delays, 0.5)).toBe(2.5);
  });

  test('a day keeps its top geofences only, counted over all its batches', () => {
    const c = new DayCounter();
    for (let i = 0; i < DAY_TOP_GEOFENCES + 50; i++) c.add(entry(`g${String(i).padStart(4, '0')}`));
    // Entered late in the day: a cut per batch would have dropped it.
    c.add(entry('g0249', 5));
    const s = c.finish();
    expect(s.geofences).toHaveLength(DAY_TOP_GEOFENCES);
    expect(s.geofences[0]).toMatchObject({ _id: 'g0249', entries: 6 });
  });

  test('custom types past MAX_TYPES are counted as other', () => {
    const c = new DayCounter();
    c.add(Array.from({ length: MAX_TYPES + 5 }, (_, i) => ({ type: `conversion-${i}`, createdAt: at })));
    const s = c.finish();
    expect(Object.keys(s.byType)).toHaveLength(MAX_TYPES + 1);
    expect(s.byType[OTHER_TYPE]).toBe(5);
    expect(s.events).toBe(MAX_TYPES + 5);
  });
});

describe('summaries merged into a period', () => {
  test('counts add up, geofences summed across days, percentiles over all days', () => {
    const one = new DayCounter();
    one.add([...entry('a', 2), ...entry('b', 3), arrival(10), arrival(30)]);
    const two = new DayCounter();
    two.add([...entry('a', 4), arrival(20), exit(10)]);
    const merged = mergeSummaries([one.finish(), two.finish()]);
    expect(merged.events).toBe(13);
    expect(merged.geofences.find((g) => g._id === 'a')!.entries).toBe(6);
    const report = periodReport([
      { day: '2026-11-20', start: Date.UTC(2026, 10, 20), end: Date.UTC(2026, 10, 21), summary: one.finish() },
      { day: '2026-11-21', start: Date.UTC(2026, 10, 21), end: Date.UTC(2026, 10, 22), summary: two.finish() },
    ], 10);
    expect(report.topGeofences.map((g) => [g._id, g.entries])).toEqual([['a', 6], ['b', 3]]);
    expect(report.trips.durationToArrival).toEqual({ counted: 3, median: 20, p90: 30 });
    expect(report.days.map((d) => d.events)).toEqual([7, 6]);
    expect(report.days[1]).toMatchObject({ day: '2026-11-21', start: '2026-11-21T00:00:00.000Z', end: '2026-11-22T00:00:00.000Z' });
    expect(report.visits[1]).toEqual({ minMinutes: 5, maxMinutes: 15, exits: 1 });
    expect(report.visits[4].maxMinutes).toBeNull();
  });
});

test('a geofence renamed within the period is shown by its latest name', () => {
  const before = new DayCounter();
  before.add(entry('a', 2));
  const after = new DayCounter();
  after.add([{ type: 'user.entered_geofence', createdAt: at, geofence: { _id: 'a', tag: 'store', externalId: 'a', description: 'Harbor store (new)' } }]);
  expect(mergeSummaries([before.finish(), after.finish()]).geofences).toEqual([{ _id: 'a', tag: 'store', externalId: 'a', description: 'Harbor store (new)', entries: 3 }]);
});

describe('histograms', () => {
  test('bins: tenths under an hour, minutes under a day, hours beyond', () => {
    expect(binOf(12.3)).toBe(123);
    expect(binOf(0.1 + 0.2)).toBe(3);
    expect(binOf(61.7)).toBe(610);
    expect(binOf(25 * 60 + 17)).toBe(25 * 600);
    expect(binOf(-1)).toBe(0);
  });

  test('nearest-rank percentiles; none of nothing', () => {
    const h: Histogram = {};
    for (let i = 1; i <= 10; i++) addToHistogram(h, i);
    expect(percentile(h, 0.5)).toBe(5);
    expect(percentile(h, 0.9)).toBe(9);
    expect(percentile(h, 1)).toBe(10);
    expect(percentile({}, 0.5)).toBeNull();
  });
});

describe('calendar days and finality', () => {
  test('real days only; periods include both ends', () => {
    expect(parseDay('2026-02-30')).toBeUndefined();
    expect(parseDay('2026-2-3')).toBeUndefined();
    expect(parseDay('2026-11-20')).toBe(Date.UTC(2026, 10, 20));
    expect(daysBetween(Date.UTC(2026, 10, 29), Date.UTC(2026, 11, 2))).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
  });

  test('a summary is final when computed a settling time after its day ended; until then it is refreshed', () => {
    const end = Date.UTC(2026, 10, 21);
    expect(isFinal(end, end + 3600_000, DEFAULT_FINALITY)).toBe(false);
    expect(isFinal(end, end + DEFAULT_FINALITY.settleMs, DEFAULT_FINALITY)).toBe(true);
    expect(keptSummaryServes({ final: false, computedAt: end }, end + DEFAULT_FINALITY.refreshMs - 1, DEFAULT_FINALITY)).toBe(true);
    expect(keptSummaryServes({ final: false, computedAt: end }, end + DEFAULT_FINALITY.refreshMs, DEFAULT_FINALITY)).toBe(false);
    expect(keptSummaryServes({ final: true, computedAt: end }, end + 1e12, DEFAULT_FINALITY)).toBe(true);
  });
});
