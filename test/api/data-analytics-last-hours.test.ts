// GET /v1/data/analytics?hours=N, the rolling last hours (ours), against the real gateway: only the events
// of the window are counted, however the days fall, its days are the local days' slices it crosses (cut at
// the zone's midnights), nothing is kept, and bad combinations are 400s naming hours.
import { put, type Scope } from '../../ports/store';
import { newObjectId } from '../../core/object-id';
import type { EventDoc } from '../../core/model/event';
import { EVENTS } from '../../server/api/collections';
import { startTestServer, type TestServer } from '../support/server';

const HOUR = 3_600_000;
function entered(ms: number): EventDoc {
  const createdAt = new Date(ms).toISOString();
  return { _id: newObjectId(new Date(ms)), type: 'user.entered_geofence', live: false, createdAt, updatedAt: createdAt, actualCreatedAt: createdAt, geofence: { _id: 'a1'.padStart(24, '0'), tag: 'store', externalId: 'a1', description: 'Harbor store', type: 'circle' } };
}
const localDay = (zone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

describe('GET /v1/data/analytics?hours=', () => {
  let server: TestServer;
  let scope: Scope;
  const written = Date.now();

  beforeAll(async () => {
    server = await startTestServer();
    scope = { projectId: server.keys.id, live: false };
    // Inside the last 24 hours: 3 at 23 h ago, 5 at 12 h ago, 2 a minute ago; outside: 40 at 25 h ago, 80 two days ago.
    const docs = [
      ...Array.from({ length: 3 }, () => entered(written - 23 * HOUR)), ...Array.from({ length: 5 }, () => entered(written - 12 * HOUR)),
      ...Array.from({ length: 2 }, () => entered(written - 60_000)), ...Array.from({ length: 40 }, () => entered(written - 25 * HOUR)),
      ...Array.from({ length: 80 }, () => entered(written - 48 * HOUR)),
    ];
    await server.running.gateway.adapters.store.write(docs.map((d) => put(EVENTS, scope, d)));
  }, 60_000);
  afterAll(() => server?.close());

  const analytics = (query: Record<string, string | number>) => server.request('GET', '/v1/data/analytics', { key: server.keys.testSk, query });

  test.each(['UTC', 'America/New_York', 'Asia/Kolkata'])('the last 24 hours in %s: only the window\'s events, in the local days it crosses', async (timeZone) => {
    const r = await analytics({ hours: 24, timeZone });
    expect(r.status).toBe(200);
    expect(r.body.events).toBe(10);
    expect(r.body.period).toMatchObject({ hours: 24, to: r.body.days[r.body.days.length - 1].day });
    expect(r.body.summaries).toEqual({ reused: 0, built: 0, eventsRead: 10 });
    expect(r.body.today).toMatchObject({ events: 10, capped: false });
    // Each slice is a local day's part: its date is the zone's at its start, and the slices tile the window.
    const days: Array<{ day: string; start: string; end: string; events: number }> = r.body.days;
    for (const d of days) expect(localDay(timeZone, Date.parse(d.start))).toBe(d.day);
    for (let i = 1; i < days.length; i++) expect(days[i].start).toBe(days[i - 1].end);
    expect(Date.parse(days[days.length - 1].end) - Date.parse(days[0].start)).toBe(24 * HOUR + 1);
    const dayOfEvents = (ago: number) => localDay(timeZone, written - ago);
    const expected = new Map<string, number>();
    for (const [ago, n] of [[23 * HOUR, 3], [12 * HOUR, 5], [60_000, 2]] as const) expected.set(dayOfEvents(ago), (expected.get(dayOfEvents(ago)) ?? 0) + n);
    expect(days.filter((d) => d.events > 0).map((d) => [d.day, d.events])).toEqual([...expected]);
  });

  test('hours with a day period, or past 24: 400 naming hours', async () => {
    for (const [query, param] of [[{ hours: 24, days: 7 }, 'hours'], [{ hours: 25 }, 'hours'], [{ hours: 0 }, 'hours'], [{ hours: 24, from: '2026-11-01', to: '2026-11-02' }, 'hours']] as const) {
      const r = await analytics(query);
      expect([query, r.status, r.body.meta?.param]).toEqual([query, 400, param]);
    }
  });
});
