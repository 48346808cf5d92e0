// Geofence operating hours: parsing what callers write, and answering "open at this instant?".
//
// Stored form (as Radar renders it in its SDK fixtures): { Mon: [["08:00", "20:30"], ...], ... }.
// A period whose close is earlier than (or equal to midnight after) its open crosses midnight: it
// belongs to the day it opens on and runs into the next morning, so Fri 22:00–02:00 covers
// Saturday 01:00. "24:00" is accepted as a close time meaning the end of the day.
import type { DayKey, OperatingHours } from './types';

export type OperatingHoursResult = { ok: true; value: OperatingHours } | { ok: false; message: string };

/** Monday first, as the keys are written; index = position in the week. */
export const DAY_KEYS: readonly DayKey[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const FULL_DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Lower-cased full names and three-letter abbreviations → canonical key. */
const DAY_BY_NAME: ReadonlyMap<string, DayKey> = new Map(
  DAY_KEYS.flatMap((key, i): Array<[string, DayKey]> => [
    [key.toLowerCase(), key],
    [FULL_DAY_NAMES[i], key],
  ]),
);

/**
 * Canonical day key for a caller's day name ("monday", "Mon", "MON", " tue "), or undefined.
 * Exported for the CSV importer's `operatingHours.{day}` columns.
 */
export function normalizeDayKey(name: string): DayKey | undefined {
  return DAY_BY_NAME.get(name.trim().toLowerCase());
}

const TIME_24H = /^(\d{1,2}):(\d{2})$/;
// "8:00 am", "12:30 PM", "8:00pm", "8:00 p.m."
const TIME_12H = /^(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?$/i;

const MINUTES_PER_DAY = 24 * 60;

/** Minutes after midnight, or undefined when `text` is not a time. 1440 only for "24:00". */
function parseTimeOfDay(text: string): number | undefined {
  const trimmed = text.trim();
  let m = TIME_24H.exec(trimmed);
  if (m) {
    const hours = Number(m[1]);
    const minutes = Number(m[2]);
    if (minutes > 59) return undefined;
    if (hours === 24 && minutes === 0) return MINUTES_PER_DAY;
    if (hours > 23) return undefined;
    return hours * 60 + minutes;
  }
  m = TIME_12H.exec(trimmed);
  if (m) {
    const hours = Number(m[1]);
    const minutes = Number(m[2]);
    if (hours < 1 || hours > 12 || minutes > 59) return undefined;
    // 12 am is midnight, 12 pm is noon.
    const h24 = (hours % 12) + (m[3].toLowerCase() === 'p' ? 12 : 0);
    return h24 * 60 + minutes;
  }
  return undefined;
}

function formatTimeOfDay(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}`;
}

function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    // Cyclic values cannot be shown; fall through to the type name.
  }
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TIME_HINT = 'use HH:mm (24 h, e.g. "08:00") or h:mm am/pm (e.g. "8:00 am")';

/** One day's list of pairs → normalised pairs, or the message naming what is wrong. */
function parseDayPeriods(
  dayLabel: string,
  raw: unknown,
): { ok: true; value: Array<[string, string]> } | { ok: false; message: string } {
  let list = raw;
  // A day's value may itself arrive as a JSON string (CSV `operatingHours.{day}` columns, form bodies).
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return { ok: false, message: `${dayLabel} must be a list of [open, close] pairs; got ${showValue(raw)}` };
    }
  }
  if (!Array.isArray(list)) {
    return { ok: false, message: `${dayLabel} must be a list of [open, close] pairs; got ${showValue(raw)}` };
  }
  // Friendly to ["08:00", "20:00"] written without the outer list: two strings cannot be two pairs.
  const pairs: unknown[] = list.length === 2 && list.every((x) => typeof x === 'string') ? [list] : list;
  const out: Array<[string, string]> = [];
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    const where = pairs.length === 1 ? dayLabel : `${dayLabel} period ${i + 1}`;
    if (!Array.isArray(pair) || pair.length !== 2) {
      return { ok: false, message: `${where} must be an [open, close] pair; got ${showValue(pair)}` };
    }
    const [openRaw, closeRaw] = pair;
    if (typeof openRaw !== 'string') {
      return { ok: false, message: `${where} open time must be a string; got ${showValue(openRaw)}` };
    }
    if (typeof closeRaw !== 'string') {
      return { ok: false, message: `${where} close time must be a string; got ${showValue(closeRaw)}` };
    }
    const open = parseTimeOfDay(openRaw);
    if (open === undefined || open === MINUTES_PER_DAY) {
      return { ok: false, message: `${where} open time ${showValue(openRaw)} is not a time of day; ${TIME_HINT}` };
    }
    const close = parseTimeOfDay(closeRaw);
    if (close === undefined) {
      return { ok: false, message: `${where} close time ${showValue(closeRaw)} is not a time of day; ${TIME_HINT}` };
    }
    if (open === close) {
      return {
        ok: false,
        message: `${where} opens and closes at ${formatTimeOfDay(open)}; a period needs a length (all day is ["00:00", "24:00"])`,
      };
    }
    out.push([formatTimeOfDay(open), formatTimeOfDay(close)]);
  }
  return { ok: true, value: out };
}

/**
 * Parses operating hours as callers write them: a dictionary (or its JSON string) of day → list of
 * [open, close] pairs. Day keys are day names or three-letter abbreviations in any case; times are
 * `HH:mm` or `h:mm am/pm`. Keys come out as 'Mon'..'Sun', times as 'HH:mm'. A day given with an
 * empty list is kept (closed that day). Messages are whole sentences starting with
 * "operatingHours" and name the day as the caller wrote it ("operatingHours.monday period 2 ...").
 *
 * @example parseOperatingHours({ monday: [['8:00 am', '8:30 pm']] }) // → { ok: true, value: { Mon: [['08:00', '20:30']] } }
 */
export function parseOperatingHours(value: unknown): OperatingHoursResult {
  let dict = value;
  if (typeof dict === 'string') {
    try {
      dict = JSON.parse(dict);
    } catch {
      return { ok: false, message: `operatingHours must be a dictionary of day → [open, close] pairs or its JSON string; got ${showValue(value)}` };
    }
  }
  if (!isPlainObject(dict)) {
    return { ok: false, message: `operatingHours must be a dictionary of day → [open, close] pairs; got ${showValue(value)}` };
  }
  const out: OperatingHours = {};
  const writtenAs = new Map<DayKey, string>();
  for (const [name, periods] of Object.entries(dict)) {
    const day = normalizeDayKey(name);
    if (!day) {
      return { ok: false, message: `operatingHours has an unknown day ${JSON.stringify(name)}; use a day name or its three-letter abbreviation (Mon..Sun)` };
    }
    const earlier = writtenAs.get(day);
    if (earlier !== undefined) {
      return { ok: false, message: `operatingHours gives ${FULL_DAY_NAMES[DAY_KEYS.indexOf(day)]} twice (${JSON.stringify(earlier)} and ${JSON.stringify(name)})` };
    }
    writtenAs.set(day, name);
    const parsed = parseDayPeriods(`operatingHours.${name}`, periods);
    if (!parsed.ok) return parsed;
    out[day] = parsed.value;
  }
  // Canonical day order, so equal hours serialise equally whatever order the caller used.
  const ordered: OperatingHours = {};
  for (const day of DAY_KEYS) {
    const periods = out[day];
    if (periods) ordered[day] = periods;
  }
  return { ok: true, value: ordered };
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Per weekday (index 0 = Mon), periods as minute offsets; crossing periods have close <= open. */
interface CompiledHours {
  readonly empty: boolean;
  /** Flat [open, close, open, close, ...] per weekday. */
  readonly days: ReadonlyArray<readonly number[]>;
}

// Stored geofences are treated as immutable values, so compiling once per hours object is safe.
const compiled = new WeakMap<OperatingHours, CompiledHours>();

function compile(hours: OperatingHours): CompiledHours {
  const days: number[][] = [];
  let empty = true;
  for (const day of DAY_KEYS) {
    const flat: number[] = [];
    const periods = hours[day];
    if (periods) {
      empty = false;
      for (const [open, close] of periods) {
        const o = parseTimeOfDay(open);
        const c = parseTimeOfDay(close);
        // Stored hours were validated on write; an unreadable period is skipped rather than
        // failing a location update.
        if (o === undefined || c === undefined || o === c) continue;
        // "00:00" as a close is midnight after the open, the same as "24:00".
        flat.push(o, c === 0 ? MINUTES_PER_DAY : c);
      }
    }
    days.push(flat);
  }
  return { empty, days };
}

export interface LocalClock {
  /** 0 = Monday .. 6 = Sunday. */
  weekday: number;
  /** Minutes after local midnight. */
  minutes: number;
}

// Offsets change only at zone transitions, and every transition since the early 20th century falls
// on a quarter hour of UTC (offsets are multiples of 15 minutes and rules switch at :00 or :30 local
// time). One offset per zone and quarter hour therefore gives the exact wall clock, and Intl (about
// two microseconds a call) runs once per zone every fifteen minutes instead of once per geofence.
const BUCKET_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

interface ZoneClock {
  readonly format: Intl.DateTimeFormat;
  /** Quarter hour (ms since epoch / BUCKET_MS) whose offset is cached, and that offset in ms. */
  bucket: number;
  offsetMs: number;
}

// Building an Intl.DateTimeFormat costs tens of microseconds; keep one per zone.
const zoneClocks = new Map<string, ZoneClock>();

function zoneClock(timeZone: string): ZoneClock {
  let clock = zoneClocks.get(timeZone);
  if (!clock) {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      });
    } catch {
      // A stored zone the runtime does not know must not fail a location update: UTC is the
      // documented fallback for "no zone", so use it. Zones are validated where they are set.
      return zoneClock('UTC');
    }
    clock = { format, bucket: Number.NaN, offsetMs: 0 };
    zoneClocks.set(timeZone, clock);
  }
  return clock;
}

/** Zone offset (local − UTC, ms) at instant `ms`, read from Intl. */
function offsetAt(format: Intl.DateTimeFormat, ms: number): number {
  let year = 1970;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(ms)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  // `ms` is a quarter-hour boundary, so it has no seconds for the wall clock to drop.
  return Date.UTC(year, month - 1, day, hour, minute) - ms;
}

/** Wall-clock weekday (0 = Monday) and minute of `at` in `timeZone` (IANA name; UTC when undefined). */
export function localClock(at: Date, timeZone: string | undefined): LocalClock {
  const clock = zoneClock(timeZone ?? 'UTC');
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('localClock: invalid Date');
  const bucket = Math.floor(ms / BUCKET_MS);
  if (bucket !== clock.bucket) {
    clock.offsetMs = offsetAt(clock.format, bucket * BUCKET_MS);
    clock.bucket = bucket;
  }
  const local = ms + clock.offsetMs;
  const dayNumber = Math.floor(local / DAY_MS);
  // 1970-01-01 was a Thursday (index 3 with Monday = 0).
  const weekday = (((dayNumber + 3) % 7) + 7) % 7;
  const minutes = Math.floor((local - dayNumber * DAY_MS) / MINUTE_MS);
  return { weekday, minutes };
}

/**
 * True when `at` falls inside one of the periods, read in the geofence's local time zone (IANA
 * name; UTC when undefined). Open times are inclusive, close times exclusive. A period crossing
 * midnight counts for the day it opens on and continues into the next morning. Hours with no day
 * at all ({}) mean "always open", as a geofence without hours is.
 */
export function isOperating(hours: OperatingHours, at: Date, timeZone: string | undefined): boolean {
  let c = compiled.get(hours);
  if (!c) {
    c = compile(hours);
    compiled.set(hours, c);
  }
  if (c.empty) return true;
  const { weekday, minutes } = localClock(at, timeZone);
  const today = c.days[weekday];
  for (let i = 0; i < today.length; i += 2) {
    const open = today[i];
    const close = today[i + 1];
    if (close > open ? minutes >= open && minutes < close : minutes >= open) return true;
  }
  const yesterday = c.days[(weekday + 6) % 7];
  for (let i = 0; i < yesterday.length; i += 2) {
    // Only periods that crossed midnight reach into today.
    if (yesterday[i + 1] < yesterday[i] && minutes < yesterday[i + 1]) return true;
  }
  return false;
}
