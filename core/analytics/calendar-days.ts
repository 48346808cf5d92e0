// Calendar days ("YYYY-MM-DD") of a period, whatever the zone: a day is carried as the epoch ms of that
// date's midnight read as UTC (its "key"), so stepping a day is adding 24 h and the count of days in a
// period is exact. Where a day begins and ends in time is its zone's business (zone-days.ts).

export const DAY_MS = 86_400_000;

/** A calendar day as "YYYY-MM-DD". */
export type CalendarDay = string;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "YYYY-MM-DD" of a real calendar day → its key; undefined when not one. */
export function parseDay(text: string): number | undefined {
  const m = DAY_PATTERN.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-30 over into March: a day that does not exist reads back differently.
  return Number.isFinite(ms) && dayText(ms) === text ? ms : undefined;
}

/** A day's key → "YYYY-MM-DD". */
export function dayText(key: number): CalendarDay {
  return new Date(key).toISOString().slice(0, 10);
}

/** The days from key `fromKey` to key `toKey`, both included, oldest first. */
export function daysBetween(fromKey: number, toKey: number): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (let t = fromKey; t <= toKey; t += DAY_MS) days.push(dayText(t));
  return days;
}
