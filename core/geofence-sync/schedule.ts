// When the nightly geofence sync of a project runs next. Pure: the clock is an argument.

/** A time of day in UTC. */
export interface DailyTime {
  hour: number;
  minute: number;
}

/**
 * The first instant strictly after `after` that falls on `at` (UTC). Strictly after, so a run that
 * finishes within its own minute does not schedule itself again for the same night.
 *
 * @example nextDailyRun(new Date('2026-03-01T02:59:00Z'), { hour: 3, minute: 0 }) // → 2026-03-01T03:00:00.000Z
 * @example nextDailyRun(new Date('2026-03-01T03:00:00Z'), { hour: 3, minute: 0 }) // → 2026-03-02T03:00:00.000Z
 */
export function nextDailyRun(after: Date, at: DailyTime): Date {
  if (!Number.isInteger(at.hour) || at.hour < 0 || at.hour > 23) throw new RangeError(`hour must be an integer from 0 to 23, got ${at.hour}`);
  if (!Number.isInteger(at.minute) || at.minute < 0 || at.minute > 59) throw new RangeError(`minute must be an integer from 0 to 59, got ${at.minute}`);
  const t = after.getTime();
  if (!Number.isFinite(t)) throw new RangeError('after must be a valid date');
  const sameDay = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), at.hour, at.minute);
  // UTC has no DST: adding a day in milliseconds always lands on the same wall-clock time.
  return new Date(sameDay > t ? sameDay : sameDay + 86_400_000);
}

/** "03:00 UTC", for settings views and mails. */
export function formatDailyTime(at: DailyTime): string {
  return `${String(at.hour).padStart(2, '0')}:${String(at.minute).padStart(2, '0')} UTC`;
}

/**
 * Reads "HH:mm" or "H" (hour only) as a time of day; undefined when it is neither. Used for the
 * WAYMARK_SYNC_TIME setting.
 */
export function parseDailyTime(text: string): DailyTime | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (hour > 23 || minute > 59) return undefined;
  return { hour, minute };
}
