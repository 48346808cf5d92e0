import fs from 'node:fs';
import path from 'node:path';
import { isOperating, localClock, normalizeDayKey, parseOperatingHours } from '../../core/operating-hours';
import type { OperatingHours } from '../../core/types';
import { files, requires } from '../support/requires';

describe('parseOperatingHours accepts and normalises', () => {
  const cases: Array<{ name: string; input: unknown; expected: OperatingHours }> = [
    {
      name: 'canonical keys and 24 h times unchanged',
      input: { Mon: [['08:00', '20:30']], Sat: [['08:00', '18:00']] },
      expected: { Mon: [['08:00', '20:30']], Sat: [['08:00', '18:00']] },
    },
    { name: 'full lower-case day name', input: { monday: [['08:00', '17:00']] }, expected: { Mon: [['08:00', '17:00']] } },
    { name: 'upper-case abbreviation', input: { TUE: [['08:00', '17:00']] }, expected: { Tue: [['08:00', '17:00']] } },
    { name: 'lower-case abbreviation', input: { wed: [['08:00', '17:00']] }, expected: { Wed: [['08:00', '17:00']] } },
    { name: 'mixed-case full name', input: { ThUrSdAy: [['08:00', '17:00']] }, expected: { Thu: [['08:00', '17:00']] } },
    { name: 'key with surrounding spaces', input: { ' fri ': [['08:00', '17:00']] }, expected: { Fri: [['08:00', '17:00']] } },
    { name: 'SUNDAY upper-case', input: { SUNDAY: [['10:00', '16:00']] }, expected: { Sun: [['10:00', '16:00']] } },
    {
      name: 'h:mm am/pm variants',
      input: { Mon: [['8:00 am', '12:30 PM'], ['1:15pm', '11:59 p.m.']] },
      expected: { Mon: [['08:00', '12:30'], ['13:15', '23:59']] },
    },
    { name: '12:00 am is midnight, 12:00 pm is noon', input: { Mon: [['12:00 am', '12:00 pm']] }, expected: { Mon: [['00:00', '12:00']] } },
    { name: 'single-digit 24 h hour padded', input: { Mon: [['8:05', '17:00']] }, expected: { Mon: [['08:05', '17:00']] } },
    { name: 'period crossing midnight', input: { Fri: [['22:00', '02:00']] }, expected: { Fri: [['22:00', '02:00']] } },
    { name: '24:00 as a close time', input: { Mon: [['00:00', '24:00']] }, expected: { Mon: [['00:00', '24:00']] } },
    {
      name: 'several pairs in one day kept in order',
      input: { Mon: [['03:43', '12:12'], ['13:45', '20:54']] },
      expected: { Mon: [['03:43', '12:12'], ['13:45', '20:54']] },
    },
    {
      name: 'JSON string of the dictionary',
      input: '{"mon":[["8:00 am","5:00 pm"]],"Sun":[["10:00","14:00"]]}',
      expected: { Mon: [['08:00', '17:00']], Sun: [['10:00', '14:00']] },
    },
    { name: 'day value as a JSON string', input: { Mon: '[["08:00","17:00"]]' }, expected: { Mon: [['08:00', '17:00']] } },
    { name: 'a single pair without the outer list', input: { Mon: ['08:00', '17:00'] }, expected: { Mon: [['08:00', '17:00']] } },
    { name: 'empty day list means closed that day', input: { Mon: [] }, expected: { Mon: [] } },
    { name: 'empty dictionary', input: {}, expected: {} },
  ];
  it.each(cases)('$name', ({ input, expected }) => {
    const result = parseOperatingHours(input);
    expect(result).toEqual({ ok: true, value: expected });
  });

  it('orders keys Mon..Sun whatever order the caller used', () => {
    const result = parseOperatingHours({ sun: [['10:00', '11:00']], wed: [['10:00', '11:00']], Mon: [['10:00', '11:00']] });
    expect(result.ok && Object.keys(result.value)).toEqual(['Mon', 'Wed', 'Sun']);
  });
});

describe('parseOperatingHours rejects with a message naming the day and value', () => {
  const cases: Array<{ name: string; input: unknown; message: RegExp }> = [
    { name: 'an array', input: [['08:00', '17:00']], message: /^operatingHours must be a dictionary/ },
    { name: 'a number', input: 42, message: /^operatingHours must be a dictionary.*got 42/ },
    { name: 'null', input: null, message: /^operatingHours must be a dictionary/ },
    { name: 'invalid JSON string', input: '{mon: 8-5}', message: /^operatingHours must be a dictionary .* JSON string; got "\{mon: 8-5\}"/ },
    { name: 'JSON string of an array', input: '[1,2]', message: /^operatingHours must be a dictionary/ },
    { name: 'unknown day', input: { Funday: [['08:00', '17:00']] }, message: /unknown day "Funday"/ },
    { name: 'two-letter abbreviation', input: { mo: [['08:00', '17:00']] }, message: /unknown day "mo"/ },
    { name: 'same day twice', input: { mon: [['08:00', '17:00']], Monday: [['18:00', '19:00']] }, message: /monday twice \("mon" and "Monday"\)/ },
    { name: 'day value not a list', input: { Mon: 8 }, message: /^operatingHours\.Mon must be a list of \[open, close\] pairs; got 8/ },
    { name: 'day value unparseable string', input: { tue: '08:00-17:00' }, message: /^operatingHours\.tue must be a list.*"08:00-17:00"/ },
    { name: 'pair of three', input: { Mon: [['08:00', '12:00', '17:00']] }, message: /^operatingHours\.Mon must be an \[open, close\] pair/ },
    { name: 'pair not a list', input: { Mon: [['08:00', '12:00'], '13:00'] }, message: /^operatingHours\.Mon period 2 must be an \[open, close\] pair; got "13:00"/ },
    { name: 'numeric time', input: { Mon: [[800, '17:00']] }, message: /^operatingHours\.Mon open time must be a string; got 800/ },
    { name: 'hour 25', input: { Wed: [['08:00', '25:00']] }, message: /^operatingHours\.Wed close time "25:00" is not a time of day/ },
    { name: 'minute 60', input: { Wed: [['12:60', '13:00']] }, message: /open time "12:60" is not a time of day/ },
    { name: '13 pm', input: { Wed: [['13:00 pm', '14:00']] }, message: /open time "13:00 pm"/ },
    { name: '0:30 am', input: { Wed: [['0:30 am', '14:00']] }, message: /open time "0:30 am"/ },
    { name: 'hour without minutes', input: { Wed: [['8am', '5pm']] }, message: /open time "8am"/ },
    { name: 'seconds', input: { Wed: [['08:00:00', '17:00']] }, message: /open time "08:00:00"/ },
    { name: '24:00 as an open time', input: { Wed: [['24:00', '02:00']] }, message: /open time "24:00"/ },
    { name: 'open equals close', input: { Thu: [['08:00', '08:00']] }, message: /^operatingHours\.Thu opens and closes at 08:00/ },
    { name: 'open equals close across formats', input: { Thu: [['12:00 am', '00:00']] }, message: /opens and closes at 00:00/ },
    { name: 'bad second period is numbered', input: { sat: [['08:00', '12:00'], ['13:00', 'late']] }, message: /^operatingHours\.sat period 2 close time "late"/ },
  ];
  it.each(cases)('$name', ({ input, message }) => {
    const result = parseOperatingHours(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('normalizeDayKey', () => {
  it.each([
    ['monday', 'Mon'],
    ['MON', 'Mon'],
    ['Sun', 'Sun'],
    ['saturday', 'Sat'],
    ['sa', undefined],
    ['', undefined],
  ])('%s → %s', (name, expected) => {
    expect(normalizeDayKey(name)).toBe(expected);
  });
});

describe('isOperating', () => {
  // 2024-01-01 is a Monday.
  const weekdays: OperatingHours = { Mon: [['08:00', '20:30']] };
  const overnightFriday: OperatingHours = { Fri: [['22:00', '02:00']] };
  const overnightSunday: OperatingHours = { Sun: [['22:00', '02:00']] };
  const untilMidnight: OperatingHours = { Mon: [['20:00', '00:00']] };
  const allDay: OperatingHours = { Mon: [['00:00', '24:00']] };
  const splitDay: OperatingHours = { Mon: [['03:43', '12:12'], ['13:45', '20:54']] };
  const cases: Array<{ name: string; hours: OperatingHours; at: string; zone?: string; expected: boolean }> = [
    { name: 'open time is inclusive', hours: weekdays, at: '2024-01-01T08:00:00Z', expected: true },
    { name: 'a minute before opening', hours: weekdays, at: '2024-01-01T07:59:59Z', expected: false },
    { name: 'last minute of the period', hours: weekdays, at: '2024-01-01T20:29:59Z', expected: true },
    { name: 'close time is exclusive', hours: weekdays, at: '2024-01-01T20:30:00Z', expected: false },
    { name: 'another day of the week is closed', hours: weekdays, at: '2024-01-02T12:00:00Z', expected: false },
    { name: 'undefined zone reads UTC', hours: weekdays, at: '2024-01-01T08:00:00Z', zone: undefined, expected: true },
    { name: 'zone shifts the day: Mon 08:00 UTC is Mon 03:00 in New York', hours: weekdays, at: '2024-01-01T08:00:00Z', zone: 'America/New_York', expected: false },
    { name: 'Mon 13:00 UTC is 08:00 in New York', hours: weekdays, at: '2024-01-01T13:00:00Z', zone: 'America/New_York', expected: true },
    { name: 'half-hour zone: 02:30 UTC is 08:00 in Kolkata', hours: weekdays, at: '2024-01-01T02:30:00Z', zone: 'Asia/Kolkata', expected: true },
    { name: 'half-hour zone: 02:29 UTC is 07:59 in Kolkata', hours: weekdays, at: '2024-01-01T02:29:00Z', zone: 'Asia/Kolkata', expected: false },
    { name: 'Sunday 21:00 UTC is Monday 10:00 in Auckland', hours: weekdays, at: '2023-12-31T21:00:00Z', zone: 'Pacific/Auckland', expected: true },
    { name: 'overnight: Friday late evening', hours: overnightFriday, at: '2024-01-05T23:00:00Z', expected: true },
    { name: 'overnight: Saturday 01:00 belongs to Friday', hours: overnightFriday, at: '2024-01-06T01:00:00Z', expected: true },
    { name: 'overnight: Saturday 02:00 is closed', hours: overnightFriday, at: '2024-01-06T02:00:00Z', expected: false },
    { name: 'overnight: Friday 01:00 is not covered (Thursday has no hours)', hours: overnightFriday, at: '2024-01-05T01:00:00Z', expected: false },
    { name: 'overnight: Friday 21:59 is closed', hours: overnightFriday, at: '2024-01-05T21:59:00Z', expected: false },
    { name: 'overnight: Saturday 23:00 is closed', hours: overnightFriday, at: '2024-01-06T23:00:00Z', expected: false },
    { name: 'overnight Sunday wraps into Monday', hours: overnightSunday, at: '2024-01-08T01:30:00Z', expected: true },
    { name: 'overnight in zone: Sat 01:00 New York', hours: overnightFriday, at: '2024-01-06T06:00:00Z', zone: 'America/New_York', expected: true },
    { name: 'close 00:00 runs to midnight', hours: untilMidnight, at: '2024-01-01T23:59:00Z', expected: true },
    { name: 'close 00:00 does not reach into Tuesday', hours: untilMidnight, at: '2024-01-02T00:00:00Z', expected: false },
    { name: '00:00–24:00 at midnight', hours: allDay, at: '2024-01-01T00:00:00Z', expected: true },
    { name: '00:00–24:00 at 23:59', hours: allDay, at: '2024-01-01T23:59:00Z', expected: true },
    { name: '00:00–24:00 ends with the day', hours: allDay, at: '2024-01-02T00:00:00Z', expected: false },
    { name: 'several pairs: first period', hours: splitDay, at: '2024-01-01T03:43:00Z', expected: true },
    { name: 'several pairs: the gap', hours: splitDay, at: '2024-01-01T12:30:00Z', expected: false },
    { name: 'several pairs: second period', hours: splitDay, at: '2024-01-01T14:00:00Z', expected: true },
    { name: 'several pairs: after the last', hours: splitDay, at: '2024-01-01T20:54:00Z', expected: false },
    { name: 'no days at all is always open', hours: {}, at: '2024-01-01T03:00:00Z', expected: true },
    { name: 'only an empty Monday: closed', hours: { Mon: [] }, at: '2024-01-01T12:00:00Z', expected: false },
    { name: 'unknown zone falls back to UTC', hours: weekdays, at: '2024-01-01T08:00:00Z', zone: 'Mars/Olympus_Mons', expected: true },
  ];
  it.each(cases)('$name', ({ hours, at, zone, expected }) => {
    expect(isOperating(hours, new Date(at), zone)).toBe(expected);
  });
});

describe('isOperating across New York DST changes', () => {
  // 2024-03-10 (Sunday): 02:00 EST jumps to 03:00 EDT at 07:00 UTC.
  // 2024-11-03 (Sunday): 02:00 EDT falls back to 01:00 EST at 06:00 UTC.
  const zone = 'America/New_York';
  const springEarly: OperatingHours = { Sun: [['01:00', '04:00']] };
  const springDay: OperatingHours = { Sun: [['09:00', '17:00']] };
  const fallHour: OperatingHours = { Sun: [['01:00', '02:00']] };
  const overnightSat: OperatingHours = { Sat: [['22:00', '03:00']] };
  const cases: Array<{ name: string; hours: OperatingHours; at: string; expected: boolean }> = [
    { name: 'spring: 01:30 EST, before the jump', hours: springEarly, at: '2024-03-10T06:30:00Z', expected: true },
    { name: 'spring: 03:30 EDT, after the jump', hours: springEarly, at: '2024-03-10T07:30:00Z', expected: true },
    { name: 'spring: 04:00 EDT is closing time (a fixed -5 offset would say 03:00)', hours: springEarly, at: '2024-03-10T08:00:00Z', expected: false },
    { name: 'spring: 09:30 EDT (a fixed -5 offset would say 08:30)', hours: springDay, at: '2024-03-10T13:30:00Z', expected: true },
    { name: 'spring: 08:59 EDT', hours: springDay, at: '2024-03-10T12:59:00Z', expected: false },
    { name: 'fall: first 01:30 (EDT)', hours: fallHour, at: '2024-11-03T05:30:00Z', expected: true },
    { name: 'fall: second 01:30 (EST)', hours: fallHour, at: '2024-11-03T06:30:00Z', expected: true },
    { name: 'fall: 02:00 EST', hours: fallHour, at: '2024-11-03T07:00:00Z', expected: false },
    { name: 'fall: overnight Saturday still open at the second 01:30', hours: overnightSat, at: '2024-11-03T06:30:00Z', expected: true },
    { name: 'fall: overnight Saturday closed at 03:00 EST', hours: overnightSat, at: '2024-11-03T08:00:00Z', expected: false },
    { name: 'spring: overnight Saturday closed at 03:00 EDT (the night is an hour shorter)', hours: overnightSat, at: '2024-03-10T07:00:00Z', expected: false },
    { name: 'spring: overnight Saturday open at 01:59 EST', hours: overnightSat, at: '2024-03-10T06:59:00Z', expected: true },
  ];
  it.each(cases)('$name', ({ hours, at, expected }) => {
    expect(isOperating(hours, new Date(at), zone)).toBe(expected);
  });
});

describe('localClock', () => {
  it('gives the New York wall clock on both sides of the spring jump', () => {
    expect(localClock(new Date('2024-03-10T06:59:00Z'), 'America/New_York')).toEqual({ weekday: 6, minutes: 1 * 60 + 59 });
    expect(localClock(new Date('2024-03-10T07:00:00Z'), 'America/New_York')).toEqual({ weekday: 6, minutes: 3 * 60 });
  });
  it('answers alternating zones at one instant independently', () => {
    const at = new Date('2024-01-01T23:30:00Z');
    expect(localClock(at, 'UTC')).toEqual({ weekday: 0, minutes: 23 * 60 + 30 });
    expect(localClock(at, 'Asia/Tokyo')).toEqual({ weekday: 1, minutes: 8 * 60 + 30 });
    expect(localClock(at, 'UTC')).toEqual({ weekday: 0, minutes: 23 * 60 + 30 });
  });
});

describe('localClock agrees with Intl at every instant', () => {
  // The quarter-hour offset cache must give exactly what formatting each instant would give,
  // including half- and quarter-hour zones and their DST changes (Lord Howe shifts by 30 minutes).
  const zones = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns', 'Africa/Casablanca'];
  const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  function viaIntl(at: Date, zone: string): { weekday: number; minutes: number } {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
    const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
    return { weekday: weekdays.indexOf(get('weekday')), minutes: Number(get('hour')) * 60 + Number(get('minute')) };
  }
  // Seeded instants across 2020–2030, plus minutes around every offset change in that span.
  let seed = 12345;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const start = Date.UTC(2020, 0, 1);
  const span = Date.UTC(2030, 0, 1) - start;
  it.each(zones)('%s', (zone) => {
    const instants: number[] = [];
    for (let i = 0; i < 400; i++) instants.push(start + Math.floor(random() * span));
    // Walk hour by hour through 2024 and add the minutes around each change of offset.
    let previous: number | undefined;
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 3600_000) {
      const c = viaIntl(new Date(t), zone).minutes;
      const expectedNoChange = previous === undefined ? c : (previous + 60) % 1440;
      if (c !== expectedNoChange) for (let m = -90; m <= 90; m += 1) instants.push(t + m * 60_000);
      previous = c;
    }
    const mismatches = instants
      .map((t) => new Date(t))
      .filter((at) => JSON.stringify(localClock(at, zone)) !== JSON.stringify(viaIntl(at, zone)))
      .map((at) => at.toISOString());
    expect(mismatches).toEqual([]);
  });
});

const fixture = path.resolve(__dirname, '../../../shared/fixtures/radar/android/search_geofences.json');
const withFixture = requires('operating hours of the Radar SDK fixture geofences', files(fixture));
withFixture('Radar fixture operatingHours', () => {
  it('parses to itself (already canonical)', () => {
    const body = JSON.parse(fs.readFileSync(fixture, 'utf8')) as { geofences: Array<{ operatingHours: unknown }> };
    const hours = body.geofences[0].operatingHours;
    expect(parseOperatingHours(hours)).toEqual({ ok: true, value: hours });
  });
});
