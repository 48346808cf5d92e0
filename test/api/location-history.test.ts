// A user's location history and events over HTTP (ours: GET /v1/users/:id/locations and /events), on
// SQLite and (with DATABASE_URL) PostgreSQL: rows written by track and listed newest first with their
// cursors, one for every acknowledged update, none for an update that did not move within its minute
// or was held back, deleted by the expiry job past locationHistoryDays and with their user, and bad
// input refused with its parameter named.
import { LOCATIONS } from '../../server/api/collections';
import type { ListQuery, Store } from '../../ports/store';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { startTestServer, type ProjectKeys, type Reply, type TestServer } from '../support/server';
import { eachStore } from '../support/each-store';
import { assertWant, type Want } from './foundation-expect';

const BASE = { lat: 40.7, lng: -74.0 };
/** About 111 m north per step: every step moves, so every update is worth a row. */
const STEP = 0.001;
const DAY = 86_400_000;

interface Row {
  _id: string;
  createdAt: string;
  location: { coordinates: [number, number] };
  locationAccuracy: number;
  expiresAt: string;
  events?: string[];
  replayed?: boolean;
}

describe.each(eachStore('location history'))('location history on %s', (_name, storeConfig) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(storeConfig());
  });
  afterAll(async () => {
    await server?.close();
  });

  const store = (): Store => server.running.gateway.adapters.store;
  const track = (keys: ProjectKeys, userId: string, i: number, extra: Record<string, unknown> = {}) => server.request('POST', '/v1/track', {
    key: keys.testPk, body: { deviceId: `${userId}-device`, userId, latitude: BASE.lat + i * STEP, longitude: BASE.lng, accuracy: 7, ...extra },
  });
  const locations = (keys: ProjectKeys, id: string, query: Record<string, string | number> = {}) =>
    server.request('GET', `/v1/users/${encodeURIComponent(id)}/locations`, { key: keys.testSk, query });
  const rows = async (keys: ProjectKeys, id: string): Promise<Row[]> => {
    const r = await locations(keys, id, { limit: 1000 });
    expect(r.status).toBe(200);
    return r.body.locations;
  };
  const countOf = (keys: ProjectKeys, userRef: string) =>
    store().count(LOCATIONS, { projectId: keys.id, live: false }, { limit: 100_000, sortBy: 'createdAt', equals: { userRef } });
  const runExpiry = async (at: Date): Promise<number> => {
    const job = server.running.gateway.installed.features.get('history')?.jobs?.find((j) => j.job.name === 'location-expiry')?.job;
    if (!job) throw new Error('the history feature has no location-expiry job');
    return job.run(at);
  };

  test('track writes a row per update; listed newest first, paged by createdBefore, by _id, userId or deviceId', async () => {
    const keys = await server.newProject('history-list');
    const start = Date.now() - 10 * 60_000;
    const times = [0, 1, 2, 3, 4].map((i) => new Date(start + i * 1000).toISOString());
    let userObjectId = '';
    for (const [i, at] of times.entries()) {
      const r = await track(keys, 'walker', i, { updatedAt: at, foreground: true, stopped: i === 4 });
      expect(r.status).toBe(200);
      userObjectId = r.body.user._id;
    }
    await track(keys, 'other', 0);

    const all = await rows(keys, 'walker');
    expect(all.map((l) => l.createdAt)).toEqual([...times].reverse());
    expect(all[0]).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/), createdAt: times[4], live: false,
      location: { type: 'Point', coordinates: [BASE.lng, BASE.lat + 4 * STEP] }, locationAccuracy: 7, foreground: true, stopped: true,
      expiresAt: new Date(Date.parse(times[4]) + 30 * DAY).toISOString(),
    });
    expect(all[4].location.coordinates).toEqual([BASE.lng, BASE.lat]);
    expect((await rows(keys, userObjectId)).map((l) => l._id)).toEqual(all.map((l) => l._id));
    expect((await rows(keys, 'walker-device')).map((l) => l._id)).toEqual(all.map((l) => l._id));

    // Pages of two, the next one from the last item's createdAt.
    const seen: string[] = [];
    let query: Record<string, string | number> = { limit: 2 };
    for (;;) {
      const r = await locations(keys, 'walker', query);
      expect(r.status).toBe(200);
      seen.push(...r.body.locations.map((l: Row) => l._id));
      if (!r.body.meta.hasMore) break;
      query = { limit: 2, createdBefore: r.body.locations.at(-1).createdAt };
    }
    expect(seen).toEqual(all.map((l) => l._id));
    const after = await locations(keys, 'walker', { createdAfter: times[2] });
    expect(after.body.locations.map((l: Row) => l.createdAt)).toEqual([times[4], times[3]]);
    const asc = await locations(keys, 'walker', { order: 'asc', limit: 2 });
    expect(asc.body.locations.map((l: Row) => l.createdAt)).toEqual([times[0], times[1]]);
    expect(asc.body.meta.hasMore).toBe(true);
  });

  test('an update that stays within 10 m in the same minute writes no row; a new minute or an event does', async () => {
    const keys = await server.newProject('history-still');
    await server.request('PUT', '/v1/geofences/store/corner', {
      key: keys.testSk, body: { description: 'Corner', type: 'circle', coordinates: [BASE.lng, BASE.lat + 10 * STEP], radius: 50 },
    });
    const minute = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000;
    const at = (ms: number) => new Date(minute + ms).toISOString();
    await track(keys, 'sitter', 0, { updatedAt: at(1000) });
    await track(keys, 'sitter', 0, { updatedAt: at(20_000), latitude: BASE.lat + 0.00005 });
    await track(keys, 'sitter', 0, { updatedAt: at(40_000) });
    expect((await rows(keys, 'sitter')).map((l) => l.createdAt)).toEqual([at(1000)]);
    await track(keys, 'sitter', 0, { updatedAt: at(61_000) });
    const entered = await track(keys, 'sitter', 10, { updatedAt: at(62_000) });
    expect(entered.body.events.map((e: { type: string }) => e.type)).toEqual(['user.entered_geofence']);
    const list = await rows(keys, 'sitter');
    expect(list.map((l) => l.createdAt)).toEqual([at(62_000), at(61_000), at(1000)]);
    expect(list[0].events).toEqual(['user.entered_geofence']);
    expect(list[1].events).toBeUndefined();
  });

  test('every acknowledged update has its row: 12 users × 8 updates sent at once', async () => {
    const keys = await server.newProject('history-concurrent');
    const users = Array.from({ length: 12 }, (_, u) => `busy-${u}`);
    const sent = users.flatMap((userId, u) => Array.from({ length: 8 }, (_, i) => ({ userId, lng: BASE.lng + u * STEP, i })));
    const answers = await Promise.all(sent.map(async (s) => ({
      s, r: await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: `${s.userId}-device`, userId: s.userId, latitude: BASE.lat + s.i * STEP, longitude: s.lng, accuracy: 5 } }),
    })));
    for (const userId of users) {
      const acknowledged = answers.filter((a) => a.s.userId === userId && a.r.status === 200);
      expect(acknowledged.length).toBeGreaterThan(0);
      const stored = await rows(keys, userId);
      const key = (p: [number, number]) => p.map((x) => x.toFixed(6)).join(',');
      // Each acknowledged update is in the history with the time the user got from it.
      const byPoint = new Map(stored.map((l) => [key(l.location.coordinates), l.createdAt]));
      for (const { r } of acknowledged) expect(byPoint.get(key(r.body.user.location.coordinates))).toBe(r.body.user.updatedAt);
      expect(stored).toHaveLength(acknowledged.length);
    }
  });

  test('a held-back update (fraud blocking) writes no row', async () => {
    const keys = await server.newProject('history-held');
    await server.request('PATCH', '/v1/project/settings', { key: keys.testSk, body: { fraud: true, fraudBlocking: true } });
    expect((await track(keys, 'suspect', 0)).status).toBe(200);
    expect((await server.request('PUT', '/v1/users/suspect/fraud', { key: keys.testSk, body: { blocked: true } })).status).toBe(200);
    const held = await track(keys, 'suspect', 3);
    expect(held.status).toBe(200);
    expect(held.body.user.location.coordinates).toEqual([BASE.lng, BASE.lat]);
    expect((await rows(keys, 'suspect')).map((l) => l.location.coordinates)).toEqual([[BASE.lng, BASE.lat]]);
  });

  test('retention: the job deletes rows past locationHistoryDays, others stay; 0 writes none', async () => {
    const keep = await server.newProject('history-keep');
    const short = await server.newProject('history-short');
    expect((await server.request('PATCH', '/v1/project/settings', { key: short.testSk, body: { locationHistoryDays: 1 } })).status).toBe(200);
    const t0 = Date.now() - 60_000;
    const kept = await track(keep, 'keeper', 0, { updatedAt: new Date(t0).toISOString() });
    const first = await track(short, 'brief', 0, { updatedAt: new Date(t0).toISOString() });
    await track(short, 'brief', 1, { updatedAt: new Date(t0 + 1000).toISOString() });
    const briefRows = await rows(short, 'brief');
    expect(briefRows.map((l) => l.expiresAt)).toEqual([new Date(t0 + 1000 + DAY).toISOString(), new Date(t0 + DAY).toISOString()]);

    await runExpiry(new Date(t0 + DAY - 1000));
    expect(await rows(short, 'brief')).toHaveLength(2);
    expect(await runExpiry(new Date(t0 + DAY))).toBeGreaterThanOrEqual(1);
    expect((await rows(short, 'brief')).map((l) => l.createdAt)).toEqual([new Date(t0 + 1000).toISOString()]);
    await runExpiry(new Date(t0 + DAY + 1000));
    expect(await countOf(short, first.body.user._id)).toBe(0);
    expect(await rows(keep, 'keeper')).toHaveLength(1);
    expect(await countOf(keep, kept.body.user._id)).toBe(1);

    expect((await server.request('PATCH', '/v1/project/settings', { key: short.testSk, body: { locationHistoryDays: 0 } })).status).toBe(200);
    const off = await track(short, 'brief', 5);
    expect(off.status).toBe(200);
    expect(await rows(short, 'brief')).toEqual([]);
  });

  test('deleting a user deletes its history, more than one batch of it; another user keeps theirs', async () => {
    const keys = await server.newProject('history-delete');
    const start = Date.now() - 3 * 3_600_000;
    // Replayed offline updates, 20 m apart a second apart: 1,050 rows in three requests.
    const replays = Array.from({ length: 1050 }, (_, i) => ({ deviceId: 'leaver-device', userId: 'leaver', latitude: BASE.lat + i * 0.0002, longitude: BASE.lng, accuracy: 5, updatedAt: new Date(start + i * 1000).toISOString() }));
    for (let i = 0; i < replays.length; i += 500) {
      const r = await server.request('POST', '/v1/track/replay', { key: keys.testPk, body: { deviceId: 'leaver-device', replays: replays.slice(i, i + 500) } });
      expect(r.status).toBe(200);
      expect(r.body.results.filter((x: { meta: { code: number } }) => x.meta.code !== 200)).toEqual([]);
    }
    const stay = await track(keys, 'stayer', 0);
    const user = (await server.request('GET', '/v1/users/leaver', { key: keys.testSk })).body.user;
    const newest = await locations(keys, 'leaver', { limit: 1 });
    expect(newest.body.locations[0]).toMatchObject({ createdAt: replays[1049].updatedAt, replayed: true });
    expect(await countOf(keys, user._id)).toBe(1050);

    expect((await server.request('DELETE', '/v1/users/leaver', { key: keys.testSk })).status).toBe(200);
    expect(await countOf(keys, user._id)).toBe(0);
    expect((await locations(keys, user._id)).status).toBe(404);
    expect(await countOf(keys, stay.body.user._id)).toBe(1);
  });

  test('a user\'s events, newest first from their own index', async () => {
    const keys = await server.newProject('history-events');
    await server.request('PUT', '/v1/geofences/store/a', { key: keys.testSk, body: { description: 'A', type: 'circle', coordinates: [BASE.lng, BASE.lat + 5 * STEP], radius: 50 } });
    for (const i of [0, 5, 0, 5]) await track(keys, 'shopper', i);
    for (const i of [0, 5]) await track(keys, 'neighbour', i);
    const r = await server.request('GET', '/v1/users/shopper/events', { key: keys.testSk });
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(['user.entered_geofence', 'user.exited_geofence', 'user.entered_geofence']);
    expect(r.body.events.every((e: { user: { userId: string } }) => e.user.userId === 'shopper')).toBe(true);
    expect(r.body.events[0]).not.toHaveProperty('userRef');
    const page = await server.request('GET', '/v1/users/shopper-device/events', { key: keys.testSk, query: { limit: 1, createdBefore: r.body.events[0].createdAt } });
    expect(page.body.events.map((e: { _id: string }) => e._id)).toEqual([r.body.events[1]._id]);
    expect(page.body.meta.hasMore).toBe(true);
  });

  test('both lists read one user\'s rows from a (userRef, createdAt) index, with no sort', async () => {
    const sqlite = store();
    // PostgreSQL's planner chooses by its statistics, which a test's few rows do not make meaningful.
    if (!(sqlite instanceof SqliteStore)) return;
    const query: ListQuery = { limit: 100, sortBy: 'createdAt', equals: { userRef: '0123456789abcdef01234567' }, ranges: [{ field: 'createdAt', before: new Date().toISOString() }] };
    for (const collection of ['locations', 'events']) {
      const plan = sqlite.explainList(collection, { projectId: server.keys.id, live: false }, query);
      expect(plan).toContain(`coll_${collection}_sorted_userref`);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });

  describe('bad input', () => {
    let keys: ProjectKeys;
    beforeAll(async () => {
      keys = await server.newProject('history-bad');
      await track(keys, 'someone', 0);
    });
    const cases: Array<{ name: string; path?: string; query?: Record<string, string>; key?: 'pk'; want: Want }> = [
      { name: 'limit 0', query: { limit: '0' }, want: { status: 400, param: 'limit' } },
      { name: 'limit 1001', query: { limit: '1001' }, want: { status: 400, param: 'limit' } },
      { name: 'limit huge', query: { limit: '1e308' }, want: { status: 400, param: 'limit' } },
      { name: 'limit a word', query: { limit: 'ten' }, want: { status: 400, param: 'limit' } },
      { name: 'createdBefore not a date', query: { createdBefore: 'yesterday' }, want: { status: 400, param: 'createdBefore' } },
      { name: 'createdAfter with a NUL byte', query: { createdAfter: '2026-01-01\u0000' }, want: { status: 400, param: 'createdAfter' } },
      { name: 'beforeId without createdBefore', query: { beforeId: '0123456789abcdef01234567' }, want: { status: 400, param: 'beforeId' } },
      { name: 'afterId newest first', query: { afterId: '0123456789abcdef01234567', createdAfter: '2026-01-01T00:00:00.000Z' }, want: { status: 400, param: 'afterId' } },
      { name: 'order sideways', query: { order: 'sideways' }, want: { status: 400, param: 'order' } },
      { name: 'beforeId very long', query: { beforeId: 'x'.repeat(10_000), createdBefore: '2026-01-01T00:00:00.000Z' }, want: { status: 400, param: 'beforeId' } },
      { name: 'unknown user', path: '/v1/users/nobody/locations', want: { status: 404, param: 'id' } },
      { name: 'unknown user, events', path: '/v1/users/nobody/events', want: { status: 404, param: 'id' } },
      { name: 'a NUL byte in the id', path: '/v1/users/some%00one/locations', want: { status: 400, param: 'id' } },
      { name: 'a 5,000-character id', path: `/v1/users/${'u'.repeat(5000)}/locations`, want: { status: 404, param: 'id' } },
      { name: 'a publishable key', key: 'pk', want: { status: 403 } },
    ];
    test.each(cases)('$name → $want.status $want.param', async ({ path, query, key, want }) => {
      for (const route of path ? [path] : ['/v1/users/someone/locations', '/v1/users/someone/events']) {
        const r: Reply = await server.request('GET', route, { key: key === 'pk' ? keys.testPk : keys.testSk, query });
        assertWant(r, want);
      }
    });
  });
});
