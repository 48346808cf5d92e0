// A time zone's local days as instants: a day runs from its local midnight to the next one, so a day
// holding a daylight-saving change lasts 23 or 25 hours (a zone's skipped day, none). Intl alone
// (core/time-zone.ts) says the zone's wall clock at an instant; the instants of a midnight are found
// from it.
import { canonicalTimeZone, wallClockIn } from '../time-zone';
import { dayText, parseDay, type CalendarDay } from './calendar-days';

const HOUR_MS = 3_600_000;

export interface ZoneDays {
  /** The zone's canonical IANA name (aliases share it, and so their kept summaries). */
  readonly zone: string;
  /** The key (calendar-days.ts) of the local day holding the instant `ms`. */
  dayOf(ms: number): number;
  /** [start, end) of a local day in epoch ms: its midnight and the next day's. */
  bounds(day: CalendarDay): { start: number; end: number };
}

/** The local days of an IANA zone; undefined for a zone Intl does not know. */
export function zoneDays(id: string): ZoneDays | undefined {
  const zone = canonicalTimeZone(id);
  if (zone === undefined) return undefined;
  /** Key of the local date at `ms`. */
  const keyAt = (ms: number): number => {
    const w = wallClockIn(zone, new Date(ms))!;
    return Date.UTC(w.year, w.month - 1, w.day);
  };
  /** Milliseconds the zone is ahead of UTC at `ms` (whole seconds). */
  const offsetAt = (ms: number): number => {
    const w = wallClockIn(zone, new Date(ms))!;
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
  };
  /** The first instant whose local date is `key` or later. */
  const search = (key: number): number => {
    if (zone === 'UTC') return key;
    // Midnight read as UTC, less the offset in force near it, twice: exact unless the offset changes at
    // midnight itself, which the check finds.
    const guess = key - offsetAt(key - offsetAt(key));
    if (keyAt(guess) === key && keyAt(guess - 1) < key) return guess;
    // A zone whose clock skips midnight (Santiago's 24:00 → 01:00) or a whole day (Apia, 2011-12-30): the
    // first second on or after the day, searched between instants surely before and after it (offsets
    // lie within -12 h and +14 h).
    let before = key - 15 * HOUR_MS;
    let after = key + 13 * HOUR_MS;
    while (after - before > 1000) {
      const mid = before + Math.floor((after - before) / 2000) * 1000;
      if (keyAt(mid) >= key) after = mid;
      else before = mid;
    }
    return after;
  };
  // A period's days share their ends with the next day's starts: each midnight found once per ZoneDays.
  const starts = new Map<number, number>();
  const startOf = (key: number): number => {
    let start = starts.get(key);
    if (start === undefined) starts.set(key, (start = search(key)));
    return start;
  };
  return {
    zone,
    dayOf: keyAt,
    bounds(day) {
      const key = parseDay(day);
      if (key === undefined) throw new Error(`not a day: ${day}`);
      return { start: startOf(key), end: startOf(key + 86_400_000) };
    },
  };
}

/** "YYYY-MM-DD" of the local day holding `ms` in the zone. */
export function localDayOf(zone: ZoneDays, ms: number): CalendarDay {
  return dayText(zone.dayOf(ms));
}
