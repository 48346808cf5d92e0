// Periods of whole UTC days, and when a day's summary is final. Days are UTC so that a summary kept for a
// day is the same for every caller; a caller's own time zone would need summaries per zone.

const DAY_MS = 86_400_000;

/** A day as "YYYY-MM-DD" (UTC). */
export type UtcDay = string;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "YYYY-MM-DD" of a real calendar day → its start in epoch ms; undefined when not one. */
export function parseUtcDay(text: string): number | undefined {
  const m = DAY_PATTERN.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-30 over into March: a day that does not exist reads back differently.
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text ? ms : undefined;
}

export function utcDayOf(ms: number): UtcDay {
  return new Date(ms).toISOString().slice(0, 10);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The days from `fromMs` to `toMs` (starts of days), both included, oldest first. */
export function daysBetween(fromMs: number, toMs: number): UtcDay[] {
  const days: UtcDay[] = [];
  for (let t = startOfUtcDay(fromMs); t <= toMs; t += DAY_MS) days.push(utcDayOf(t));
  return days;
}

/** [start, end) of a day in epoch ms. */
export function dayBounds(day: UtcDay): { start: number; end: number } {
  const start = parseUtcDay(day);
  if (start === undefined) throw new Error(`not a day: ${day}`);
  return { start, end: start + DAY_MS };
}

/**
 * The rules for a closed day's kept summary. Events can be written with a createdAt in the past (a
 * replayed offline update keeps the time the device recorded; POST /v1/track with replays), so a day
 * that has ended can still gain events: its summary is recomputed when older than `refreshMs` until it
 * has been computed `settleMs` after the day's end; from then on it is final and never recomputed. An
 * event replayed into a day later than that is not counted.
 */
export interface FinalityRules {
  settleMs: number;
  refreshMs: number;
}

export const DEFAULT_FINALITY: FinalityRules = { settleMs: DAY_MS, refreshMs: 10 * 60_000 };

/** Whether a summary computed at `computedAt` (ms) of the day ending at `dayEndMs` is final. */
export function isFinal(dayEndMs: number, computedAt: number, rules: FinalityRules): boolean {
  return computedAt >= dayEndMs + rules.settleMs;
}

/** Whether a kept summary may be answered as it is at `now`, or must be computed again. */
export function keptSummaryServes(kept: { final: boolean; computedAt: number }, now: number, rules: FinalityRules): boolean {
  return kept.final || now - kept.computedAt < rules.refreshMs;
}
