// GET /v1/users fraud=true (issue 33): exact, from the flagged-users rows that track writes when a user's
// fraud flags go up or down, rather than a scan of users. Users flagged by real track updates (project
// setting `fraud`, an update saying `mocked`), then 6,000 users updated after them: past any scan window
// (5,000), they come in one request with meta.exact/total; a later clean update unflags, deleting the
// user removes its row; a project from before the rows (created before the store first kept them, its
// flagged users without rows) is a scan until the next start fills it. SQLite and PostgreSQL, through real HTTP.
import { put, type WriteOp } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import { FLAGGED_USERS, USERS } from '../../server/api/collections';
import { eachStore } from '../support/each-store';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { until } from '../support/until';

const stores = eachStore('users flagged filter tests');
const NEWER = 6_000;
const FLAGGED = ['fraud-a', 'fraud-b', 'fraud-c'];
const MOCKED = { verified: false, passed: false, bypassed: false, blocked: false, mocked: true, jumped: false, compromised: false, inaccurate: false, proxy: false, sharing: false,
  lastMockedAt: '2025-12-01T00:00:00.000Z', lastJumpedAt: null, lastCompromisedAt: null, lastInaccurateAt: null, lastProxyAt: null, lastSharingAt: null };

describe.each(stores)('GET /v1/users fraud=true on %s', (_name, makeConfig) => {
  const config = makeConfig();
  let server: TestServer;
  const scope = () => ({ projectId: server.keys.id, live: false });
  const store = () => server.running.gateway.adapters.store;

  const track = (key: string, userId: string, extra: Record<string, unknown> = {}) => server.request('POST', '/v1/track', {
    key, body: { userId, deviceId: `device-${userId}`, latitude: 39.29, longitude: -76.61, accuracy: 10, ...extra },
  });
  const list = (query: Record<string, string | number>, key = server.keys.testSk) => server.request('GET', '/v1/users', { key, query });
  const ids = (body: { users: Array<{ userId?: string }> }) => body.users.map((u) => u.userId);

  /** `count` users written straight into the store as `template` with other ids, updated at `from` + i s. */
  async function writeUsers(sc: { projectId: string; live: boolean }, template: UserDoc, count: number, prefix: string, from: number, flagged: boolean): Promise<void> {
    const { _rev, ...base } = template;
    const ops: WriteOp[] = [];
    for (let i = 0; i < count; i++) {
      const t = new Date(from + i * 1000).toISOString();
      const doc: UserDoc = { ...base, _id: `${prefix}${String(i).padStart(24 - prefix.length, '0')}`, userId: `${prefix}-${i}`, deviceId: `${prefix}-device-${i}`, createdAt: t, updatedAt: t, actualUpdatedAt: t, geofences: [] };
      delete doc.fraud; delete doc.trip;
      if (flagged) doc.fraud = { ...MOCKED };
      ops.push(put(USERS, sc, doc));
    }
    for (let i = 0; i < ops.length; i += 2000) await store().write(ops.slice(i, i + 2000));
  }

  beforeAll(async () => {
    server = await startTestServer(config);
    expect((await server.request('PATCH', '/v1/project/settings', { key: server.keys.testSk, body: { fraud: true } })).status).toBe(200);
    for (const userId of FLAGGED) {
      const r = await track(server.keys.testPk, userId, { mocked: true });
      expect(r.status).toBe(200);
      expect(r.body.user.fraud.mocked).toBe(true);
    }
    expect((await track(server.keys.testPk, 'clean')).status).toBe(200);
    const template = (await store().findOne(USERS, scope(), { userId: 'clean' }))!;
    // Updated after the flagged ones: newest first, a scan reaches these 6,000 before any flagged user.
    await writeUsers(scope(), template, NEWER, 'b', Date.now() + 3_600_000, false);
  }, 120_000);
  afterAll(() => server?.close());

  test('flagged users past any scan window come in one request, newest update first, counted exactly', async () => {
    const r = await list({ fraud: 'true' });
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([...FLAGGED].reverse());
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: true, capped: false, total: 3 });
    expect(r.body.meta.scanned).toBeUndefined();
    // Paged with the plain list's cursors.
    const first = await list({ fraud: 'true', limit: 2 });
    expect(ids(first.body)).toEqual(['fraud-c', 'fraud-b']);
    expect(first.body.meta).toMatchObject({ hasMore: true, exact: true, total: 3 });
    const second = await list({ fraud: 'true', limit: 2, ...first.body.meta.next });
    expect(ids(second.body)).toEqual(['fraud-a']);
    expect(second.body.meta.hasMore).toBe(false);
  });

  test('combined with a search and with the other filters', async () => {
    const r = await list({ fraud: 'true', search: 'fraud-b' });
    expect(ids(r.body)).toEqual(['fraud-b']);
    expect(r.body.meta).toMatchObject({ exact: true, hasMore: false, total: 1 });
    const outside = await list({ fraud: 'true', inside: 'false' });
    expect(ids(outside.body)).toEqual(['fraud-c', 'fraud-b', 'fraud-a']);
    expect(outside.body.meta.exact).toBe(true);
    const onTrip = await list({ fraud: 'true', onTrip: 'true' });
    expect(ids(onTrip.body)).toEqual([]);
    expect(onTrip.body.meta).toMatchObject({ exact: true, total: 0 });
  });

  test('an update that keeps the user flagged writes no new row; a clean one unflags it and it is gone', async () => {
    const user = (await store().findOne(USERS, scope(), { userId: 'fraud-a' }))!;
    const row = await store().get(FLAGGED_USERS, scope(), user._id);
    expect(row?.userRef).toBe(user._id);
    expect((await track(server.keys.testPk, 'fraud-a', { mocked: true })).status).toBe(200);
    expect((await store().get(FLAGGED_USERS, scope(), user._id))?.createdAt).toBe(row!.createdAt);

    const clean = await track(server.keys.testPk, 'fraud-a');
    expect(clean.body.user.fraud.mocked).toBe(false);
    expect(await store().get(FLAGGED_USERS, scope(), user._id)).toBeUndefined();
    const r = await list({ fraud: 'true' });
    expect(ids(r.body)).toEqual(['fraud-c', 'fraud-b']);
    expect(r.body.meta).toMatchObject({ exact: true, total: 2 });
    // Flagged again: listed again, newest now.
    expect((await track(server.keys.testPk, 'fraud-a', { mocked: true })).status).toBe(200);
    expect(ids((await list({ fraud: 'true' })).body)).toEqual(['fraud-a', 'fraud-c', 'fraud-b']);
  });

  test('deleting a flagged user removes its row with it', async () => {
    expect((await track(server.keys.testPk, 'fraud-gone', { mocked: true })).status).toBe(200);
    const user = (await store().findOne(USERS, scope(), { userId: 'fraud-gone' }))!;
    expect(await store().get(FLAGGED_USERS, scope(), user._id)).toBeDefined();
    expect((await server.request('DELETE', '/v1/users/fraud-gone', { key: server.keys.testSk })).status).toBe(200);
    expect(await store().get(FLAGGED_USERS, scope(), user._id)).toBeUndefined();
    const r = await list({ fraud: 'true' });
    expect(ids(r.body)).not.toContain('fraud-gone');
    expect(r.body.meta).toMatchObject({ exact: true, total: 3 });
  });

  test('bad input is refused as before', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ fraud: '2' }, 'fraud'], [{ fraud: 'true', search: 'x'.repeat(257) }, 'search'], [{ fraud: 'true', search: 'a\u0000b' }, 'search'],
      [{ fraud: 'true', beforeId: 'b'.repeat(24) }, 'beforeId'], [{ fraud: 'true', scanLimit: 1_000_000 }, 'scanLimit'],
    ];
    for (const [query, param] of cases) {
      const r = await list(query);
      expect([JSON.stringify(query).slice(0, 40), r.status]).toEqual([JSON.stringify(query).slice(0, 40), 400]);
      expect(r.body.meta.param).toBe(param);
      expect(typeof r.body.meta.message).toBe('string');
    }
  });

  // Last: restarts the server.
  test('an environment from before the rows is a scan until the next start fills it, then exact', async () => {
    // As a database written before the rows existed: a project created before this store first kept them,
    // its flagged users without rows.
    const created = await server.running.gateway.shared.projects.create('upgraded', new Date('2025-11-01T00:00:00.000Z'));
    const old: ProjectKeys = { id: created.id, testPk: created.keys[0].key, livePk: created.keys[1].key, testSk: created.keys[2].key, liveSk: created.keys[3].key };
    expect(created.keys[2].record).toMatchObject({ live: false, kind: 'secret' });
    const sc = { projectId: old.id, live: false };
    const template = (await store().findOne(USERS, scope(), { userId: 'clean' }))!;
    await writeUsers(sc, { ...template, live: false }, 4, 'c', Date.parse('2025-12-01T00:00:00.000Z'), true);
    await writeUsers(sc, { ...template, live: false }, NEWER, 'd', Date.now() + 3_600_000, false);
    const before = await list({ fraud: 'true' }, old.testSk);
    expect(before.body.meta.exact).toBeUndefined();
    expect(before.body.meta).toMatchObject({ scanned: 5000, scanStopped: true, hasMore: true });
    expect(before.body.users).toEqual([]);

    const first = server.keys;
    await server.close();
    server = await startTestServer({ ...config, dataDir: server.dataDir });
    // The restart re-issues the keys of the oldest project, now the upgraded one.
    const sk = server.keys.id === old.id ? server.keys.testSk : old.testSk;
    await until('the flagged users filled', async () => (await list({ fraud: 'true' }, sk)).body.meta.exact === true, 60_000, 50);
    const after = await list({ fraud: 'true' }, sk);
    expect(ids(after.body)).toEqual(['c-3', 'c-2', 'c-1', 'c-0']);
    expect(after.body.meta).toMatchObject({ exact: true, total: 4, hasMore: false });
    // The first environment kept its rows and its answer.
    expect((await list({ fraud: 'true' }, first.id === server.keys.id ? server.keys.testSk : first.testSk)).body.meta).toMatchObject({ exact: true, total: 3 });
  }, 120_000);
});
