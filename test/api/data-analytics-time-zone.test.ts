// GET /v1/data/analytics in a team's time zone against the real gateway (SQLite and PostgreSQL): events
// either side of New York's local midnights land in New York's days (not UTC's), the 25-hour day holds
// its last hour, New York's and UTC's kept summaries of the same dates live side by side without mixing,
// the period's today is the zone's, and a zone Intl does not know is a 400 naming timeZone.
import type { Scope } from '../../ports/store';
import { midnightEvents, writeAll } from '../support/analytics-events';
import { ANALYTICS_DAYS, dayRowId } from '../../server/features/analytics/analytics-service';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const perDay = (body: any) => body.days.map((d: { day: string; events: number }) => [d.day, d.events]);

describe.each(eachStore('analytics in a time zone'))('GET /v1/data/analytics?timeZone= on %s', (_name, storeConfig) => {
  let server: TestServer;
  let scope: Scope;
  const config = storeConfig();

  beforeAll(async () => {
    server = await startTestServer(config);
    scope = { projectId: server.keys.id, live: false };
    await writeAll(server.running.gateway.adapters.store, scope, midnightEvents());
  }, 120_000);
  afterAll(() => server?.close());

  const analytics = (query: Record<string, string | number>) => server.request('GET', '/v1/data/analytics', { key: server.keys.testSk, query });

  test('events just before and after New York\'s midnight land in its local days; the 25-hour day counts its last hour', async () => {
    const ny = await analytics({ from: '2026-10-31', to: '2026-11-02', timeZone: 'America/New_York' });
    expect(ny.status).toBe(200);
    expect(ny.body.period).toEqual({ from: '2026-10-31', to: '2026-11-02', days: 3, timeZone: 'America/New_York', hours: null });
    expect(perDay(ny.body)).toEqual([['2026-10-31', 1], ['2026-11-01', 30], ['2026-11-02', 32]]);
    expect(ny.body.days[1]).toMatchObject({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
    expect(ny.body.summaries).toEqual({ reused: 0, built: 3, eventsRead: 63 });

    const spring = await analytics({ from: '2026-03-07', to: '2026-03-09', timeZone: 'America/New_York' });
    expect(perDay(spring.body)).toEqual([['2026-03-07', 256], ['2026-03-08', 128], ['2026-03-09', 64]]);
    expect(spring.body.days[1]).toMatchObject({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
  }, 60_000);

  test('UTC\'s and New York\'s summaries of the same dates are kept apart and each reused', async () => {
    const utc = await analytics({ from: '2026-10-31', to: '2026-11-02' });
    expect(utc.body.period.timeZone).toBe('UTC');
    expect(perDay(utc.body)).toEqual([['2026-10-31', 0], ['2026-11-01', 7], ['2026-11-02', 56]]);
    expect(utc.body.summaries.built).toBe(3);

    const store = server.running.gateway.adapters.store;
    expect((await store.get(ANALYTICS_DAYS, scope, dayRowId('America/New_York', '2026-11-01')))).toMatchObject({ timeZone: 'America/New_York', final: true, summary: { events: 30 } });
    expect((await store.get(ANALYTICS_DAYS, scope, dayRowId('UTC', '2026-11-01')))).toMatchObject({ timeZone: 'UTC', summary: { events: 7 } });

    // An alias of the zone shares its rows.
    const again = await analytics({ from: '2026-10-31', to: '2026-11-02', timeZone: 'US/Eastern' });
    expect(perDay(again.body)).toEqual([['2026-10-31', 1], ['2026-11-01', 30], ['2026-11-02', 32]]);
    expect(again.body.summaries).toEqual({ reused: 3, built: 0, eventsRead: 0 });
    const utcAgain = await analytics({ from: '2026-10-31', to: '2026-11-02', timeZone: 'UTC' });
    expect(perDay(utcAgain.body)).toEqual([['2026-10-31', 0], ['2026-11-01', 7], ['2026-11-02', 56]]);
    expect(utcAgain.body.summaries).toEqual({ reused: 3, built: 0, eventsRead: 0 });
  }, 60_000);

  test('the period\'s today is the zone\'s: 14 hours ahead of UTC in Kiritimati, 11 behind in Pago Pago', async () => {
    for (const [timeZone, hours] of [['Pacific/Kiritimati', 14], ['Pacific/Pago_Pago', -11]] as const) {
      const local = () => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 10);
      const before = local();
      const r = await analytics({ days: 1, timeZone });
      expect(r.status).toBe(200);
      expect([before, local()]).toContain(r.body.period.to);
      expect(r.body.today.day).toBe(r.body.period.to);
    }
  });

  test('a zone Intl does not know, or hostile text: 400 naming timeZone', async () => {
    for (const timeZone of ['Mars/Olympus_Mons', 'America/New_York\u0000', 'x'.repeat(10_000), '../../etc/passwd', 'America/New York']) {
      const r = await analytics({ days: 7, timeZone });
      expect([timeZone.slice(0, 40), r.status, r.body.meta?.param]).toEqual([timeZone.slice(0, 40), 400, 'timeZone']);
      expect(r.body.meta.message).toMatch(/IANA time zone|NUL character/);
    }
  });
});
