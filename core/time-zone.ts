/**
 * Radar's `timeZone` object for an IANA zone at a given instant, from Intl alone.
 *
 * Shapes follow Radar's geocode responses (SDK fixtures):
 *   { id: "America/New_York", name: "Eastern Standard Time", code: "EST",
 *     currentTime: "2025-01-21T12:19:23-05:00", utcOffset: -18000, dstOffset: 0 }
 * Offsets are in seconds; utcOffset is the whole offset in force (standard + DST),
 * dstOffset the daylight-saving part of it. currentTime is local wall time to the
 * second, with "Z" when the offset is zero (Radar's London sample).
 */
export interface TimeZoneObject {
  id: string;
  name: string;
  code: string;
  currentTime: string;
  utcOffset: number;
  dstOffset: number;
}

/**
 * Abbreviations tzdata uses for zones whose en-US short name is only "GMT+n", keyed
 * by the English long name Intl gives. A fact table; zones absent here get tzdata's
 * numeric form ("+04", "-03", "+0530"), as tzdata itself writes them.
 */
const ABBREVIATION_BY_LONG_NAME: Readonly<Record<string, string>> = {
  'British Summer Time': 'BST',
  'Irish Standard Time': 'IST',
  'Western European Standard Time': 'WET',
  'Western European Summer Time': 'WEST',
  'Central European Standard Time': 'CET',
  'Central European Summer Time': 'CEST',
  'Eastern European Standard Time': 'EET',
  'Eastern European Summer Time': 'EEST',
  'Moscow Standard Time': 'MSK',
  'Israel Standard Time': 'IST',
  'Israel Daylight Time': 'IDT',
  'India Standard Time': 'IST',
  'Pakistan Standard Time': 'PKT',
  'Western Indonesia Time': 'WIB',
  'Central Indonesia Time': 'WITA',
  'Eastern Indonesia Time': 'WIT',
  'China Standard Time': 'CST',
  'Hong Kong Standard Time': 'HKT',
  'Japan Standard Time': 'JST',
  'Korean Standard Time': 'KST',
  'Australian Western Standard Time': 'AWST',
  'Australian Central Standard Time': 'ACST',
  'Australian Central Daylight Time': 'ACDT',
  'Australian Eastern Standard Time': 'AEST',
  'Australian Eastern Daylight Time': 'AEDT',
  'New Zealand Standard Time': 'NZST',
  'New Zealand Daylight Time': 'NZDT',
  'Chamorro Standard Time': 'ChST',
  'Samoa Standard Time': 'SST',
  'American Samoa Standard Time': 'SST',
  'Hawaii-Aleutian Daylight Time': 'HDT',
  'Newfoundland Standard Time': 'NST',
  'Newfoundland Daylight Time': 'NDT',
  'South Africa Standard Time': 'SAST',
  'West Africa Time': 'WAT',
  'West Africa Standard Time': 'WAT',
  'Central Africa Time': 'CAT',
  'East Africa Time': 'EAT',
};

interface ZoneFormatters {
  wallClock: Intl.DateTimeFormat;
  longName: Intl.DateTimeFormat;
  shortName: Intl.DateTimeFormat;
}

/** Building a DateTimeFormat costs tens of µs; the formatters of a zone never change. */
const formatterCache = new Map<string, ZoneFormatters | null>();

function formattersFor(id: string): ZoneFormatters | undefined {
  let cached = formatterCache.get(id);
  if (cached === undefined) {
    try {
      cached = {
        wallClock: new Intl.DateTimeFormat('en-US', {
          timeZone: id, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
          hour: '2-digit', minute: '2-digit', second: '2-digit',
        }),
        longName: new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'long' }),
        shortName: new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'short' }),
      };
    } catch {
      cached = null; // Intl throws RangeError for ids it does not know
    }
    formatterCache.set(id, cached);
  }
  return cached ?? undefined;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(format: Intl.DateTimeFormat, at: Date): WallClock {
  const value: Record<string, number> = {};
  for (const part of format.formatToParts(at)) {
    if (part.type !== 'literal') value[part.type] = Number(part.value);
  }
  return { year: value.year, month: value.month, day: value.day, hour: value.hour, minute: value.minute, second: value.second };
}

/** Seconds the zone is ahead of UTC at `at` (whole seconds: tzdata offsets since 1970 have no fractions). */
function offsetSeconds(format: Intl.DateTimeFormat, at: Date): number {
  const seconds = Math.floor(at.getTime() / 1000);
  const w = wallClock(format, new Date(seconds * 1000));
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000 - seconds;
}

function zoneName(format: Intl.DateTimeFormat, at: Date): string {
  return format.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function numericAbbreviation(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60;
  const hh = pad(Math.floor(minutes / 60));
  const mm = minutes % 60;
  return mm === 0 ? `${sign}${hh}` : `${sign}${hh}${pad(mm)}`;
}

function isoOffset(offset: number): string {
  if (offset === 0) return 'Z';
  const minutes = Math.abs(offset) / 60;
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The zone's canonical IANA name as Intl knows it ("us/eastern" → "America/New_York", "Etc/UTC" → "UTC"),
 * or undefined for an id it does not know. Not cached: a caller's unknown ids must not grow the cache.
 */
export function canonicalTimeZone(id: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The zone's wall clock (to the second) at `at`; undefined for an id Intl does not know. */
export function wallClockIn(id: string, at: Date): WallClock | undefined {
  const formats = formattersFor(id);
  return formats === undefined ? undefined : wallClock(formats.wallClock, at);
}

/** `undefined` for an id Intl does not know. `now` is the instant to describe. */
export function timeZoneObject(id: string, now: Date): TimeZoneObject | undefined {
  if (Number.isNaN(now.getTime())) return undefined;
  const formats = formattersFor(id);
  if (formats === undefined) return undefined;

  const utcOffset = offsetSeconds(formats.wallClock, now);
  // Standard time is the smaller of the January and July offsets (either hemisphere).
  const year = now.getUTCFullYear();
  const standard = Math.min(
    offsetSeconds(formats.wallClock, new Date(Date.UTC(year, 0, 1))),
    offsetSeconds(formats.wallClock, new Date(Date.UTC(year, 6, 1))),
  );

  const name = zoneName(formats.longName, now);
  const short = zoneName(formats.shortName, now);
  const code = /^[A-Z]{2,5}$/.test(short) ? short : ABBREVIATION_BY_LONG_NAME[name] ?? numericAbbreviation(utcOffset);

  const local = wallClock(formats.wallClock, new Date(Math.floor(now.getTime() / 1000) * 1000));
  const currentTime = `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}${isoOffset(utcOffset)}`;

  return { id, name, code, currentTime, utcOffset, dstOffset: utcOffset - standard };
}
