// Local days of a time zone as instants (core/analytics/zone-days.ts): a day runs from its local midnight
// to the next, so US daylight-saving days last 23 and 25 hours, India's days start at 18:30 UTC, and a
// zone that skips midnight or a whole day still gives each date one [start, end).
import { zoneDays } from '../../core/analytics/zone-days';

const iso = (ms: number) => new Date(ms).toISOString();
function bounds(zone: string, day: string): [string, string, number] {
  const b = zoneDays(zone)!.bounds(day);
  return [iso(b.start), iso(b.end), (b.end - b.start) / 3_600_000];
}
const dayAt = (zone: string, at: string) => new Date(zoneDays(zone)!.dayOf(Date.parse(at))).toISOString().slice(0, 10);

describe('a local day from its midnight to the next', () => {
  test('New York: the day clocks go forward lasts 23 hours, the day they go back 25', () => {
    expect(bounds('America/New_York', '2026-03-08')).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z', 23]);
    expect(bounds('America/New_York', '2026-11-01')).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z', 25]);
    expect(bounds('America/New_York', '2026-11-20')).toEqual(['2026-11-20T05:00:00.000Z', '2026-11-21T05:00:00.000Z', 24]);
  });

  test('a half-hour offset: Kolkata (UTC+5:30); and UTC itself', () => {
    expect(bounds('Asia/Kolkata', '2026-11-20')).toEqual(['2026-11-19T18:30:00.000Z', '2026-11-20T18:30:00.000Z', 24]);
    expect(bounds('UTC', '2026-11-20')).toEqual(['2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z', 24]);
  });

  test('a zone whose clock skips midnight starts the day at the skip: Santiago, 24:00 → 01:00', () => {
    expect(bounds('America/Santiago', '2026-09-06')).toEqual(['2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z', 23]);
  });

  test('a date the zone never had is an empty day: Apia skipped 2011-12-30', () => {
    expect(bounds('Pacific/Apia', '2011-12-30')).toEqual(['2011-12-30T10:00:00.000Z', '2011-12-30T10:00:00.000Z', 0]);
    expect(bounds('Pacific/Apia', '2011-12-31')).toEqual(['2011-12-30T10:00:00.000Z', '2011-12-31T10:00:00.000Z', 24]);
  });

  test('the local date of an instant, either side of local midnight', () => {
    expect(dayAt('America/New_York', '2026-11-01T03:59:59.999Z')).toBe('2026-10-31');
    expect(dayAt('America/New_York', '2026-11-01T04:00:00.000Z')).toBe('2026-11-01');
    expect(dayAt('America/New_York', '2026-11-02T04:59:59.999Z')).toBe('2026-11-01');
    expect(dayAt('Asia/Kolkata', '2026-11-19T18:29:59.999Z')).toBe('2026-11-19');
    expect(dayAt('Asia/Kolkata', '2026-11-19T18:30:00.000Z')).toBe('2026-11-20');
  });
});

test('zones by their canonical name; an unknown zone is none', () => {
  expect(zoneDays('us/eastern')?.zone).toBe('America/New_York');
  expect(zoneDays('Etc/UTC')?.zone).toBe('UTC');
  expect(zoneDays('Asia/Kolkata')?.zone).toBe(zoneDays('Asia/Calcutta')?.zone);
  expect(zoneDays('Mars/Olympus_Mons')).toBeUndefined();
  expect(zoneDays('')).toBeUndefined();
});
