// A period's analytics from per-day summaries. A closed day's events are read once (in createdAt order
// from the events' date index) and counted into a summary kept in ANALYTICS_DAYS; later requests read
// that one row. Today is counted from its events on every request, newest first and at most
// `openDayCap` of them (the answer says when it stopped). When a kept summary is final, and when it is
// computed again, is core/analytics/utc-days.ts's rule (events replayed into a past day).
//
// Two nodes asked for the same day at once: the day is computed under the store's lock for that day
// (an advisory lock across PostgreSQL nodes), and the one that waited finds the other's row and reads
// it. A day's row has the day as its id and is replaced whole, so even two computations could only
// write the same count twice, never add one to the other.
import { collection, put, type Scope, type Store } from '../../../ports/store';
import type { DocBase } from '../../../core/model/document';
import type { EventDoc } from '../../../core/model/event';
import { DayCounter, SUMMARY_VERSION, type DaySummary } from '../../../core/analytics/day-summary';
import { periodReport, type PeriodReport } from '../../../core/analytics/period-report';
import { DEFAULT_FINALITY, dayBounds, daysBetween, isFinal, keptSummaryServes, type FinalityRules, type UtcDay } from '../../../core/analytics/utc-days';
import { EVENTS } from '../../api/collections';
import { listPage } from '../../api/list-query';

export interface AnalyticsDayDoc extends DocBase {
  day: UtcDay;
  /** SUMMARY_VERSION of the gateway that wrote it. */
  version: number;
  final: boolean;
  computedAt: string;
  /** Events read to compute it. */
  eventsRead: number;
  summary: DaySummary;
}

/** One row per closed day and environment, read by its id (the day): no index beyond the key. */
export const ANALYTICS_DAYS = collection<AnalyticsDayDoc>('analytics_days', { keys: [], orders: [] });

/** Today's events counted per request at most: about 0.2 CPU-s of reading on SQLite (bench/analytics.ts). */
export const OPEN_DAY_CAP = 50_000;
const PAGE = 5000;

export interface PeriodAnswer {
  report: PeriodReport;
  /** Today's part, when the period holds today: counted live, `capped` when it stopped at `cap`. */
  today: { day: UtcDay; events: number; capped: boolean; cap: number } | null;
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

  /** The days from `fromMs` to `toMs` (starts of UTC days, toMs at most today's), `top` geofences. */
  async period(scope: Scope, fromMs: number, toMs: number, now: Date, top: number): Promise<PeriodAnswer> {
    const days: Array<{ day: UtcDay; summary: DaySummary }> = [];
    const answer: Omit<PeriodAnswer, 'report'> = { today: null, summaries: { reused: 0, built: 0 }, eventsRead: 0 };
    for (const day of daysBetween(fromMs, toMs)) {
      const { end } = dayBounds(day);
      if (end > now.getTime()) {
        const open = await this.countOpenDay(scope, day);
        answer.today = { day, events: open.read, capped: open.capped, cap: this.openDayCap };
        answer.eventsRead += open.read;
        days.push({ day, summary: open.summary });
        continue;
      }
      const closed = await this.closedDay(scope, day, now);
      if (closed.built) {
        answer.summaries.built++;
        answer.eventsRead += closed.doc.eventsRead;
      } else answer.summaries.reused++;
      days.push({ day, summary: closed.doc.summary });
    }
    return { report: periodReport(days, top), ...answer };
  }

  private async closedDay(scope: Scope, day: UtcDay, now: Date): Promise<{ doc: AnalyticsDayDoc; built: boolean }> {
    const serves = (doc: AnalyticsDayDoc): boolean => doc.version === SUMMARY_VERSION &&
      keptSummaryServes({ final: doc.final, computedAt: Date.parse(doc.computedAt) }, now.getTime(), this.rules);
    const kept = await this.store.get(ANALYTICS_DAYS, scope, day);
    if (kept !== undefined && serves(kept)) return { doc: kept, built: false };
    return this.store.withLock(`analytics:${scope.projectId}:${scope.live ? 'live' : 'test'}:${day}`, async () => {
      // Another node may have computed it while this one waited.
      const again = await this.store.get(ANALYTICS_DAYS, scope, day);
      if (again !== undefined && serves(again)) return { doc: again, built: false };
      const { start, end } = dayBounds(day);
      const counter = new DayCounter();
      let read = 0;
      await this.readDay(scope, start, end, 'asc', Infinity, (docs) => {
        counter.add(docs);
        read += docs.length;
      });
      const iso = now.toISOString();
      const doc: AnalyticsDayDoc = {
        _id: day, day, version: SUMMARY_VERSION, createdAt: again?.createdAt ?? iso, updatedAt: iso,
        final: isFinal(end, now.getTime(), this.rules), computedAt: iso, eventsRead: read, summary: counter.finish(),
      };
      await this.store.write([put(ANALYTICS_DAYS, scope, doc)]);
      return { doc, built: true };
    });
  }

  private async countOpenDay(scope: Scope, day: UtcDay): Promise<{ summary: DaySummary; read: number; capped: boolean }> {
    const { start, end } = dayBounds(day);
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
