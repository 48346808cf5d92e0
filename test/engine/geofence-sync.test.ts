// Pure parts of the nightly geofence sync: when the next run is, the run's status, and the mail text.
import { formatDailyTime, nextDailyRun, parseDailyTime } from '../../core/geofence-sync/schedule';
import { runStatus, syncMail, type EnvironmentOutcome, type SyncRunSummary } from '../../core/geofence-sync/sync-report';

describe('nextDailyRun', () => {
  test.each([
    ['before the time, same day', '2026-03-01T02:59:59.999Z', 3, 0, '2026-03-01T03:00:00.000Z'],
    ['exactly at the time: the next night', '2026-03-01T03:00:00.000Z', 3, 0, '2026-03-02T03:00:00.000Z'],
    ['just after the time: the next night', '2026-03-01T03:00:00.001Z', 3, 0, '2026-03-02T03:00:00.000Z'],
    ['across a month end', '2026-01-31T23:00:00.000Z', 3, 0, '2026-02-01T03:00:00.000Z'],
    ['across a year end', '2026-12-31T04:00:00.000Z', 3, 0, '2027-01-01T03:00:00.000Z'],
    ['leap day', '2028-02-28T12:00:00.000Z', 3, 0, '2028-02-29T03:00:00.000Z'],
    ['midnight', '2026-03-01T00:00:00.000Z', 0, 0, '2026-03-02T00:00:00.000Z'],
    ['with minutes', '2026-03-01T23:44:00.000Z', 23, 45, '2026-03-01T23:45:00.000Z'],
    // UTC has no DST: a European DST change night is a day like any other.
    ['DST change night in Europe', '2026-03-29T00:30:00.000Z', 3, 0, '2026-03-29T03:00:00.000Z'],
  ])('%s', (_name, after, hour, minute, expected) => {
    expect(nextDailyRun(new Date(after), { hour, minute }).toISOString()).toBe(expected);
  });

  test.each([
    ['hour 24', { hour: 24, minute: 0 }],
    ['negative minute', { hour: 3, minute: -1 }],
    ['fractional hour', { hour: 3.5, minute: 0 }],
  ])('refuses %s', (_name, at) => {
    expect(() => nextDailyRun(new Date('2026-01-01T00:00:00Z'), at)).toThrow(RangeError);
  });
});

describe('parseDailyTime and formatDailyTime', () => {
  test.each([
    ['03:00', { hour: 3, minute: 0 }, '03:00 UTC'],
    ['3', { hour: 3, minute: 0 }, '03:00 UTC'],
    [' 23:59 ', { hour: 23, minute: 59 }, '23:59 UTC'],
    ['0:05', { hour: 0, minute: 5 }, '00:05 UTC'],
  ])('%s', (text, at, shown) => {
    expect(parseDailyTime(text)).toEqual(at);
    expect(formatDailyTime(at)).toBe(shown);
  });

  test.each(['24:00', '3:60', '3pm', '', '03:0', '-1'])('refuses %p', (text) => {
    expect(parseDailyTime(text)).toBeUndefined();
  });
});

const ok = (environment: 'test' | 'live'): EnvironmentOutcome => ({ environment, source: `https://example.com/${environment}.csv`, ok: true, dataRows: 3, created: 2, updated: 1, errorCount: 0, durationMs: 5 });
const bad = (environment: 'test' | 'live'): EnvironmentOutcome => ({
  environment, source: `https://example.com/${environment}.csv`, ok: false, stage: 'validation', message: 'the file has 3 problems; nothing was imported',
  errors: [{ row: 2, column: 'radius', message: 'radius must be between 10 and 10000' }, { row: 1, column: '', message: 'the file is empty' }], errorCount: 3, durationMs: 5,
});

describe('runStatus', () => {
  test.each([
    ['all succeeded', [ok('test'), ok('live')], 'succeeded'],
    ['one failed', [ok('test'), bad('live')], 'partial'],
    ['all failed', [bad('test'), bad('live')], 'failed'],
    ['no environment', [], 'failed'],
  ] as const)('%s → %s', (_name, outcomes, status) => {
    expect(runStatus([...outcomes])).toBe(status);
  });
});

describe('syncMail', () => {
  const run = (environments: EnvironmentOutcome[]): SyncRunSummary => ({
    projectId: 'p1', projectName: 'Acme', trigger: 'nightly', startedAt: '2026-03-01T03:00:00.000Z', finishedAt: '2026-03-01T03:00:02.000Z',
    status: runStatus(environments), environments,
  });

  test('success: subject and one line per environment', () => {
    const mail = syncMail(run([ok('test'), ok('live')]));
    expect(mail.subject).toBe('Waymark geofence sync succeeded: Acme');
    expect(mail.text.split('\n')).toEqual(expect.arrayContaining([
      'Geofence sync of project "Acme" (p1) succeeded.',
      'Run nightly, from 2026-03-01T03:00:00.000Z to 2026-03-01T03:00:02.000Z.',
      'Test environment (https://example.com/test.csv): imported 3 geofences from 3 rows: 2 created, 1 updated.',
      'Live environment (https://example.com/live.csv): imported 3 geofences from 3 rows: 2 created, 1 updated.',
    ]));
  });

  test('failure: stage, message, each problem, and how many were left out', () => {
    const mail = syncMail(run([bad('test')]), 1);
    expect(mail.subject).toBe('Waymark geofence sync FAILED: Acme');
    expect(mail.text).toContain('Test environment (https://example.com/test.csv): failed at the file check stage. Nothing was written to this environment.\n'
      + '  the file has 3 problems; nothing was imported\n'
      + '  row 2, radius: radius must be between 10 and 10000\n'
      + '  … and 2 more problems (the run record lists up to 2).\n');
  });

  test('no source: says what to set', () => {
    expect(syncMail(run([])).text).toContain('No environment has a source configured');
  });
});
