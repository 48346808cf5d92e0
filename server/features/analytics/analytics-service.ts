// A period's analytics from per-day summaries. A period is a run of local days of one time zone (UTC by
// default), each from its local midnight to the next (core/analytics/zone-days.ts). A closed day's events
// are read once (in createdAt order from the events' date index) and counted into a summary kept in
// ANALYTICS_DAYS per (zone, day); later requests read that one row. Today (the zone's) is counted from its
// events on every request, newest first and at most `openDayCap` of them (the answer says when it
// stopped). When a kept summary is final, and when it is computed again, is core/analytics/finality.ts's
// rule (events replayed into a past day), applied to the local day's end.
//
// Two nodes asked for the same day at once: the day is computed under the store's lock for that zone and
// day (an advisory lock across PostgreSQL nodes), and the one that waited finds the other's row and reads
// it. A row's id is the zone and the day, and it is replaced whole, so even two computations could only
// write the same count twice, never add one to the other, and one zone's day never mixes with another's.
import { collection, put, type Scope, type Store } from '../../../ports/store';
import type { DocBase } from '../../../core/model/document';
import type { EventDoc } from '../../../core/model/event';
import { DayCounter, SUMMARY_VERSION, emptySummary, type DaySummary } from '../../../core/analytics/day-summary';
import { periodReport, type PeriodDay, type PeriodReport } from '../../../core/analytics/period-report';
import { daysBetween, type CalendarDay } from '../../../core/analytics/calendar-days';
import { DEFAULT_FINALITY, isFinal, keptSummaryServes, type FinalityRules } from '../../../core/analytics/finality';
import type { ZoneDays } from '../../../core/analytics/zone-days';
import { EVENTS } from '../../api/collections';
import { listPage } from '../../api/list-query';

export interface AnalyticsDayDoc extends DocBase {
  /** The canonical IANA zone whose local day this is. */
  timeZone: string;
  day: CalendarDay;
  /** The day's [start, end) as ISO instants: a row whose bounds the zone's rules no longer give is rebuilt. */
  start: string;
  end: string;
  /** SUMMARY_VERSION of the gateway that wrote it. */
  version: number;
  final: boolean;
  computedAt: string;
  /** Events read to compute it. */
  eventsRead: number;
  summary: DaySummary;
}

/** One row per zone, closed day and environment, read by its id (dayRowId): no index beyond the key. */
export const ANALYTICS_DAYS = collection<AnalyticsDayDoc>('analytics_days', { keys: [], orders: [] });

/** Today's events counted per request at most: about 0.2 CPU-s of reading on SQLite (bench/analytics.ts). */
export const OPEN_DAY_CAP = 50_000;
const PAGE = 5000;

/** A kept day's id: its zone and its date ("America/New_York/2026-11-01", "UTC/2026-11-01"). */
export function dayRowId(zone: string, day: CalendarDay): string {
  return `${zone}/${day}`;
}

export interface PeriodAnswer {
  report: PeriodReport;
  /** Today's part, when the period holds today: counted live, `capped` when it stopped at `cap`. */
  today: { day: CalendarDay; events: number; capped: boolean; cap: number } | null;
  /** Closed days answered from kept summaries, and computed from their events by this request. */
  summaries: { reused: number; built: number };
  /** Events this request read (the built days' and today's). */
  eventsRead: number;
}

export class AnalyticsService {
  constructor(
    private readonly store: Store,
    private readonly rules: FinalityRules = DEFAULT_FINALITY,
    private readonly openDayCap = OPEN_DAY_CAP,
  ) {}

  /** The local days of `zone` from key `fromKey` to key `toKey` (toKey at most today's), `top` geofences. */
  async period(scope: Scope, zone: ZoneDays, fromKey: number, toKey: number, now: Date, top: number): Promise<PeriodAnswer> {
    const days: PeriodDay[] = [];
    const answer: Omit<PeriodAnswer, 'report'> = { today: null, summaries: { reused: 0, built: 0 }, eventsRead: 0 };
    for (const day of daysBetween(fromKey, toKey)) {
      const { start, end } = zone.bounds(day);
      if (end > now.getTime()) {
        const open = await this.countOpenDay(scope, start, end);
        answer.today = { day, events: open.read, capped: open.capped, cap: this.openDayCap };
        answer.eventsRead += open.read;
        days.push({ day, start, end, summary: open.summary });
        continue;
      }
      const closed = await this.closedDay(scope, zone.zone, day, start, end, now);
      if (closed.built) {
        answer.summaries.built++;
        answer.eventsRead += closed.doc.eventsRead;
      } else answer.summaries.reused++;
      days.push({ day, start, end, summary: closed.doc.summary });
    }
    return { report: periodReport(days, top), ...answer };
  }

  /**
   * The rolling last `hours` hours up to `now`: its events read newest first, at most `openDayCap` (the
   * answer's `today` says when it stopped), counted apart on each side of the zone's local midnights, so
   * its days are slices of local days (with their own start and end). Nothing kept: it moves each request.
   */
  async lastHours(scope: Scope, zone: ZoneDays, now: Date, hours: number, top: number): Promise<PeriodAnswer & { slices: PeriodDay[] }> {
    const end = now.getTime() + 1;
    const start = end - 1 - hours * 3_600_000;
    const slices: Array<PeriodDay & { counter: DayCounter }> = [];
    for (const day of daysBetween(zone.dayOf(start), zone.dayOf(now.getTime()))) {
      const b = zone.bounds(day);
      if (b.end > start && b.start < end) slices.push({ day, start: Math.max(b.start, start), end: Math.min(b.end, end), counter: new DayCounter(), summary: emptySummary() });
    }
    let read = 0;
    const capped = await this.readDay(scope, start, end, 'desc', this.openDayCap, (docs) => {
      for (const doc of docs) {
        const at = Date.parse(doc.createdAt);
        (slices.find((s) => at >= s.start && at < s.end) ?? slices[slices.length - 1]).counter.add([doc]);
      }
      read += docs.length;
    });
    const days = slices.map(({ counter, ...slice }) => ({ ...slice, summary: counter.finish() }));
    const today = days[days.length - 1];
    return {
      report: periodReport(days, top),
      today: { day: today.day, events: read, capped, cap: this.openDayCap },
      summaries: { reused: 0, built: 0 },
      eventsRead: read,
      slices: days,
    };
  }

  private async closedDay(scope: Scope, zone: string, day: CalendarDay, start: number, end: number, now: Date): Promise<{ doc: AnalyticsDayDoc; built: boolean }> {
    const startIso = new Date(start).toISOString();
    const endIso = new Date(end).toISOString();
    // A zone's rules can change with the runtime's time zone data (a country dropping daylight saving):
    // a row counted over other bounds is computed again.
    const serves = (doc: AnalyticsDayDoc): boolean => doc.version === SUMMARY_VERSION && doc.start === startIso && doc.end === endIso &&
      keptSummaryServes({ final: doc.final, computedAt: Date.parse(doc.computedAt) }, now.getTime(), this.rules);
    const id = dayRowId(zone, day);
    const kept = await this.store.get(ANALYTICS_DAYS, scope, id);
    if (kept !== undefined && serves(kept)) return { doc: kept, built: false };
    return this.store.withLock(`analytics:${scope.projectId}:${scope.live ? 'live' : 'test'}:${id}`, async () => {
      // Another node may have computed it while this one waited.
      const again = await this.store.get(ANALYTICS_DAYS, scope, id);
      if (again !== undefined && serves(again)) return { doc: again, built: false };
      const counter = new DayCounter();
      let read = 0;
      await this.readDay(scope, start, end, 'asc', Infinity, (docs) => {
        counter.add(docs);
        read += docs.length;
      });
      const iso = now.toISOString();
      const doc: AnalyticsDayDoc = {
        _id: id, timeZone: zone, day, start: startIso, end: endIso, version: SUMMARY_VERSION, createdAt: again?.createdAt ?? iso, updatedAt: iso,
        final: isFinal(end, now.getTime(), this.rules), computedAt: iso, eventsRead: read, summary: counter.finish(),
      };
      await this.store.write([put(ANALYTICS_DAYS, scope, doc)]);
      return { doc, built: true };
    });
  }

  private async countOpenDay(scope: Scope, start: number, end: number): Promise<{ summary: DaySummary; read: number; capped: boolean }> {
    const counter = new DayCounter();
    let read = 0;
    const capped = await this.readDay(scope, start, end, 'desc', this.openDayCap, (docs) => {
      counter.add(docs);
      read += docs.length;
    });
    return { summary: counter.finish(), read, capped };
  }

  /**
   * The events created in [start, end), in pages through the createdAt index, ties at a page's edge
   * continued by _id (listPage). Stops after `cap` events; true when events were left unread.
   */
  private async readDay(scope: Scope, start: number, end: number, order: 'asc' | 'desc', cap: number, onPage: (docs: EventDoc[]) => void): Promise<boolean> {
    let after = new Date(start - 1).toISOString();
    let before = new Date(end).toISOString();
    let cursorId: string | undefined;
    let read = 0;
    for (;;) {
      const limit = Math.min(PAGE, cap - read);
      if (limit <= 0) return true;
      const page = await listPage(this.store, EVENTS, scope, {
        limit, sortBy: 'createdAt', order, ranges: [{ field: 'createdAt', after, before }],
        ...(cursorId === undefined ? {} : order === 'asc' ? { afterId: cursorId } : { beforeId: cursorId }),
      });
      onPage(page.docs);
      read += page.docs.length;
      if (!page.hasMore || page.docs.length === 0) return false;
      const last = page.docs[page.docs.length - 1];
      if (order === 'asc') after = last.createdAt;
      else before = last.createdAt;
      // listPage ends a page before a run of equal createdAt unless the whole page is one run: only then
      // does the next page need the _id half of the cursor (and its extra query for the rest of the run).
      cursorId = page.docs[0].createdAt === last.createdAt ? last._id : undefined;
    }
  }
}
