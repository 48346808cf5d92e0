import fs from 'node:fs';
import path from 'node:path';
import { timeZoneObject } from '../../core/time-zone';
import { files, requires } from '../support/requires';

const RADAR = path.resolve(__dirname, '../../../shared/fixtures/radar');

/** Some of Radar's iOS fixtures have trailing commas. */
const readLenientJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8').replace(/,(\s*[}\]])/g, '$1'));

const radarSamples = (): Array<[string, Record<string, unknown>]> => {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const dir of ['android', 'ios', 'ios/historical']) {
    const full = path.join(RADAR, dir);
    if (!fs.existsSync(full)) continue;
    for (const name of fs.readdirSync(full).filter((n) => n.startsWith('geocode') && n.endsWith('.json'))) {
      const body = readLenientJson(path.join(full, name)) as { addresses?: Array<{ timeZone?: Record<string, unknown> }> };
      for (const address of body.addresses ?? []) {
        if (address.timeZone !== undefined) out.push([`${dir}/${name}`, address.timeZone]);
      }
    }
  }
  return out;
};

const samples = radarSamples();
const withRadar = samples.length > 0 ? describe : requires('time zones of the Radar SDK fixtures', files(RADAR));
withRadar("Radar's own timeZone objects", () => {
  test.each(samples)('%s', (_file, expected) => {
    const now = new Date(String(expected.currentTime));
    expect(timeZoneObject(String(expected.id), now)).toEqual(expected);
  });
});

describe('timeZoneObject', () => {
  test.each([
    ['New York in summer', 'America/New_York', '2025-07-04T16:00:00Z',
      { name: 'Eastern Daylight Time', code: 'EDT', currentTime: '2025-07-04T12:00:00-04:00', utcOffset: -14400, dstOffset: 3600 }],
    ['London in summer', 'Europe/London', '2025-07-04T16:00:00Z',
      { name: 'British Summer Time', code: 'BST', currentTime: '2025-07-04T17:00:00+01:00', utcOffset: 3600, dstOffset: 3600 }],
    ['Paris in winter', 'Europe/Paris', '2025-01-10T08:30:00Z',
      { name: 'Central European Standard Time', code: 'CET', currentTime: '2025-01-10T09:30:00+01:00', utcOffset: 3600, dstOffset: 0 }],
    ['Sydney in January (southern summer)', 'Australia/Sydney', '2025-01-10T00:00:00Z',
      { name: 'Australian Eastern Daylight Time', code: 'AEDT', currentTime: '2025-01-10T11:00:00+11:00', utcOffset: 39600, dstOffset: 3600 }],
    ['Sydney in July', 'Australia/Sydney', '2025-07-10T00:00:00Z',
      { name: 'Australian Eastern Standard Time', code: 'AEST', currentTime: '2025-07-10T10:00:00+10:00', utcOffset: 36000, dstOffset: 0 }],
    ['Lord Howe: half-hour daylight saving', 'Australia/Lord_Howe', '2025-01-10T00:00:00Z',
      { currentTime: '2025-01-10T11:00:00+11:00', utcOffset: 39600, dstOffset: 1800 }],
    ['Kolkata: half-hour offset', 'Asia/Kolkata', '2025-03-01T00:00:00Z',
      { name: 'India Standard Time', code: 'IST', currentTime: '2025-03-01T05:30:00+05:30', utcOffset: 19800, dstOffset: 0 }],
    ['Kathmandu: no abbreviation, tzdata numeric form', 'Asia/Kathmandu', '2025-03-01T00:00:00Z',
      { code: '+0545', currentTime: '2025-03-01T05:45:00+05:45', utcOffset: 20700, dstOffset: 0 }],
    ['São Paulo', 'America/Sao_Paulo', '2025-03-01T12:00:00Z',
      { code: '-03', currentTime: '2025-03-01T09:00:00-03:00', utcOffset: -10800, dstOffset: 0 }],
    ["St. John's, Newfoundland", 'America/St_Johns', '2025-01-10T12:00:00Z',
      { code: 'NST', currentTime: '2025-01-10T08:30:00-03:30', utcOffset: -12600, dstOffset: 0 }],
    ['Dublin in summer', 'Europe/Dublin', '2025-07-01T12:00:00Z', { code: 'IST', utcOffset: 3600, dstOffset: 3600 }],
    ['an ocean zone (geo-tz answers these at sea)', 'Etc/GMT+2', '2025-01-10T12:00:00Z',
      { code: '-02', currentTime: '2025-01-10T10:00:00-02:00', utcOffset: -7200, dstOffset: 0 }],
    ['UTC', 'UTC', '2025-01-10T12:00:00Z', { name: 'Coordinated Universal Time', code: 'UTC', currentTime: '2025-01-10T12:00:00Z', utcOffset: 0 }],
    ['one second before New York springs forward', 'America/New_York', '2025-03-09T06:59:59Z',
      { code: 'EST', currentTime: '2025-03-09T01:59:59-05:00', dstOffset: 0 }],
    ['the instant New York springs forward', 'America/New_York', '2025-03-09T07:00:00Z',
      { code: 'EDT', currentTime: '2025-03-09T03:00:00-04:00', dstOffset: 3600 }],
    ['milliseconds are cut, not rounded', 'America/Chicago', '2025-01-10T12:00:59.999Z',
      { code: 'CST', currentTime: '2025-01-10T06:00:59-06:00' }],
    ['a local date before the UTC date', 'Pacific/Honolulu', '2025-01-01T05:00:00Z',
      { code: 'HST', currentTime: '2024-12-31T19:00:00-10:00', utcOffset: -36000 }],
  ])('%s', (_name, id, instant, expected) => {
    const tz = timeZoneObject(id, new Date(instant));
    expect(tz).toMatchObject({ id, ...expected });
  });

  test('unknown zones and invalid instants give undefined', () => {
    expect(timeZoneObject('Mars/Olympus_Mons', new Date('2025-01-01T00:00:00Z'))).toBeUndefined();
    expect(timeZoneObject('America/New_York', new Date(Number.NaN))).toBeUndefined();
  });
});
