// GET /v1/data/analytics against the real gateway: exact counts over several days holding more than
// 10,000 events (what the dashboard used to stop at), closed days' summaries kept and reused (also after
// a restart), today counted live, bad periods refused; on PostgreSQL, two nodes asked for the same
// days at once compute each day once and both answer the same counts.
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { put, type Scope } from '../../ports/store';
import { SUMMARY_VERSION } from '../../core/analytics/day-summary';
import { B, DAY, dayOf, seedEvents, todayStart, writeAll } from '../support/analytics-events';
import { ANALYTICS_DAYS, dayRowId } from '../../server/features/analytics/analytics-service';
import { eachStore } from '../support/each-store';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

function expectExactCounts(body: any): void {
  expect(body.events).toBe(12_013);
  expect(body.byType).toEqual({ 'user.entered_geofence': 11_007, 'user.exited_geofence': 1000, 'user.started_trip': 3, 'user.arrived_at_trip_destination': 3 });
  expect(body.days.map((d: { day: string; events: number }) => [d.day, d.events])).toEqual([
    [dayOf(6), 0], [dayOf(5), 7000], [dayOf(4), 5000], [dayOf(3), 6], [dayOf(2), 0], [dayOf(1), 0], [dayOf(0), 7],
  ]);
  expect(body.topGeofences.map((g: any) => [g.externalId, g.description, g.entries])).toEqual([['b2', 'North store', 7000], ['a1', 'Harbor store', 4007]]);
  // Under 5: durations 0–4 of each 20 → 100; 5–15: 5–14 → 200, plus none; 15–60: 15–19 → 100 and 400 of 16; 4 h+: 200.
  expect(body.visits.map((v: any) => v.exits)).toEqual([100, 200, 500, 0, 200]);
  expect(body.trips).toEqual({
    started: 3, arrived: 3, arrivedLate: 1,
    durationToArrival: { counted: 3, median: 20, p90: 30 }, delay: { counted: 1, median: 5, p90: 5 },
  });
  expect(body.today).toEqual({ day: dayOf(0), events: 7, capped: false, cap: 50_000 });
}

describe.each(eachStore('analytics'))('GET /v1/data/analytics on %s', (_name, storeConfig) => {
  let server: TestServer;
  let scope: Scope;
  const config = storeConfig();

  beforeAll(async () => {
    server = await startTestServer(config);
    scope = { projectId: server.keys.id, live: false };
    await writeAll(server.running.gateway.adapters.store, scope, seedEvents());
  }, 120_000);
  afterAll(() => server?.close());

  const analytics = (query: Record<string, string | number>) => server.request('GET', '/v1/data/analytics', { key: server.keys.testSk, query });

  test('exact counts over a week holding more than 10,000 events; closed days computed once and kept', async () => {
    const first = await analytics({ days: 7 });
    expect(first.status).toBe(200);
    expect(first.body.period).toEqual({ from: dayOf(6), to: dayOf(0), days: 7, timeZone: 'UTC', hours: null });
    expectExactCounts(first.body);
    expect(first.body.summaries).toEqual({ reused: 0, built: 6, eventsRead: 12_013 });
    const kept = await server.running.gateway.adapters.store.get(ANALYTICS_DAYS, scope, dayRowId('UTC', dayOf(5)));
    expect(kept).toMatchObject({ day: dayOf(5), final: true, eventsRead: 7000, summary: { events: 7000 } });
    // Yesterday ended less than a day ago: kept, but computed again once older than the refresh time.
    expect((await server.running.gateway.adapters.store.get(ANALYTICS_DAYS, scope, dayRowId('UTC', dayOf(1))))?.final).toBe(false);

    const again = await analytics({ days: 7 });
    expectExactCounts(again.body);
    // Only today's events read: the closed days come from their rows.
    expect(again.body.summaries).toEqual({ reused: 6, built: 0, eventsRead: 7 });
  }, 120_000);

  test('a kept row written by another version of the summary is computed again, not misread', async () => {
    const store = server.running.gateway.adapters.store;
    const kept = (await store.get(ANALYTICS_DAYS, scope, dayRowId('UTC', dayOf(5))))!;
    await store.write([put(ANALYTICS_DAYS, scope, { ...kept, version: 0, summary: { ...kept.summary, events: 1 } })]);
    const r = await analytics({ from: dayOf(5), to: dayOf(5) });
    expect([r.body.events, r.body.summaries.built]).toEqual([7000, 1]);
    expect((await store.get(ANALYTICS_DAYS, scope, dayRowId('UTC', dayOf(5))))?.version).toBe(SUMMARY_VERSION);
  });

  test('a from–to period; top geofences cut to top; the secret key only', async () => {
    const r = await analytics({ from: dayOf(5), to: dayOf(4), top: 1 });
    expect(r.status).toBe(200);
    expect(r.body.events).toBe(12_000);
    expect(r.body.today).toBeNull();
    expect(r.body.topGeofences).toEqual([{ _id: B._id, tag: 'store', externalId: 'b2', description: 'North store', entries: 7000 }]);
    const pk = await server.request('GET', '/v1/data/analytics', { key: server.keys.testPk });
    expect(pk.status).toBe(403);
  });

  test('bad periods: 400 naming the parameter', async () => {
    const far = new Date(todayStart + 3 * DAY).toISOString().slice(0, 10);
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ days: 0 }, 'days'], [{ days: 367 }, 'days'], [{ days: 'week' }, 'days'], [{ days: 1e12 }, 'days'],
      [{ from: '2026-02-30', to: '2026-03-02' }, 'from'], [{ from: '2026-11-01' }, 'to'], [{ to: '2026-11-01' }, 'from'],
      [{ from: dayOf(1), to: dayOf(3) }, 'from'], [{ from: '2020-01-01', to: '2021-01-02' }, 'to'],
      [{ days: 7, from: dayOf(3), to: dayOf(1) }, 'days'], [{ from: far, to: far }, 'from'],
      [{ from: 'x'.repeat(100_00), to: dayOf(0) }, 'from'], [{ from: '2026-11-01\u0000', to: dayOf(0) }, 'from'], [{ days: 7, top: 1000 }, 'top'],
    ];
    for (const [query, param] of cases) {
      const r = await analytics(query);
      expect([JSON.stringify(query).slice(0, 80), r.status, r.body.meta.param]).toEqual([JSON.stringify(query).slice(0, 80), 400, param]);
      expect(r.body.meta.message).toEqual(expect.any(String));
    }
  });

  test('a year is allowed; a later day than today counts as today', async () => {
    const r = await analytics({ from: new Date(todayStart - 365 * DAY).toISOString().slice(0, 10), to: new Date(todayStart + DAY).toISOString().slice(0, 10) });
    expect(r.status).toBe(200);
    expect(r.body.period.days).toBe(366);
    expect(r.body.period.to).toBe(dayOf(0));
    expect(r.body.events).toBe(12_013);
  }, 120_000);
});

describe('kept summaries survive a restart', () => {
  test('the closed days are read from their rows after the gateway starts again on its data directory', async () => {
    const dataDir = tempDataDir();
    let server = await startTestServer({ dataDir });
    const scope = { projectId: server.keys.id, live: false };
    await writeAll(server.running.gateway.adapters.store, scope, seedEvents());
    expect((await server.request('GET', '/v1/data/analytics', { key: server.keys.testSk, query: { days: 7 } })).body.summaries.built).toBe(6);
    await server.close();
    server = await startTestServer({ dataDir });
    try {
      const r = await server.request('GET', '/v1/data/analytics', { key: server.keys.testSk, query: { days: 7 } });
      expectExactCounts(r.body);
      expect(r.body.summaries).toEqual({ reused: 6, built: 0, eventsRead: 7 });
    } finally {
      await server.close();
    }
  }, 120_000);
});

const postgres = eachStore('analytics on two nodes').filter(([name]) => name === 'postgres');
describe.each(postgres)('two gateway nodes on one %s schema asked for the same days at once', (_name, storeConfig) => {
  let nodeA: TestServer;
  let nodeB: RunningServer;
  const shared: Partial<GatewayConfig> = storeConfig();

  beforeAll(async () => {
    nodeA = await startTestServer(shared);
    nodeB = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', logRequests: false, jobIntervalMs: 0, rateLimitScale: 0, dataDir: tempDataDir(), ...shared }, silentLogger());
    await writeAll(nodeA.running.gateway.adapters.store, { projectId: nodeA.keys.id, live: false }, seedEvents());
  }, 120_000);
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
  });

  test('each closed day is computed by one node, and both answer the exact counts', async () => {
    const ask = async (url: string) => (await fetch(`${url}/v1/data/analytics?days=7`, { headers: { authorization: nodeA.keys.testSk } })).json() as Promise<any>;
    const answers = await Promise.all([ask(nodeA.url), ask(nodeB.url), ask(nodeA.url), ask(nodeB.url)]);
    for (const a of answers) expectExactCounts(a);
    expect(answers.reduce((n, a) => n + a.summaries.built, 0)).toBe(6);
    expect(answers.reduce((n, a) => n + a.summaries.reused, 0)).toBe(18);
  }, 120_000);

  test('the same in a time zone: New York\'s closed days built once between the nodes, every answer the same', async () => {
    const ask = async (url: string) => (await fetch(`${url}/v1/data/analytics?days=7&timeZone=America/New_York`, { headers: { authorization: nodeA.keys.testSk } })).json() as Promise<any>;
    const answers = await Promise.all([ask(nodeA.url), ask(nodeB.url), ask(nodeA.url), ask(nodeB.url)]);
    for (const a of answers) expect([a.period.timeZone, a.events, a.days]).toEqual([answers[0].period.timeZone, 12_013, answers[0].days]);
    expect(answers.reduce((n, a) => n + a.summaries.built, 0)).toBe(6);
  }, 120_000);
});
