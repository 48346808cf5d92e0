// Users (spec "Users"): list, get and delete. Users are created only through track, so the first part
// covers what an empty project answers; the second makes users the way an SDK does (POST /v1/track with a
// publishable key) and reads them back through the secret endpoints.
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { afterMillisecond, call, expectCase, ISO_MS, OBJECT_ID, type Want } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

type User = Record<string, unknown> & { _id: string; updatedAt: string; userId?: string; deviceId: string };

describe('a project without users', () => {
  let k: ProjectKeys;
  beforeAll(async () => {
    k = await s.newProject('no-users');
  });

  const cases: Array<{ name: string; method: string; path: string; query?: Record<string, string>; want: Want; body?: unknown }> = [
    { name: 'list is empty', method: 'GET', path: '/v1/users', want: { status: 200 }, body: { meta: { code: 200, hasMore: false }, users: [] } },
    { name: 'list with limit 1', method: 'GET', path: '/v1/users', query: { limit: '1' }, want: { status: 200 } },
    { name: 'list with limit 1000', method: 'GET', path: '/v1/users', query: { limit: '1000' }, want: { status: 200 } },
    { name: 'list with date cursors', method: 'GET', path: '/v1/users', query: { updatedBefore: '2030-01-01', updatedAfter: '2020-01-01T00:00:00Z' }, want: { status: 200 } },
    { name: 'limit 0', method: 'GET', path: '/v1/users', query: { limit: '0' }, want: { status: 400, param: 'limit', message: 'limit must be between 1 and 1000' } },
    { name: 'limit 1001', method: 'GET', path: '/v1/users', query: { limit: '1001' }, want: { status: 400, param: 'limit', message: 'limit must be between 1 and 1000' } },
    { name: 'limit 9.5', method: 'GET', path: '/v1/users', query: { limit: '9.5' }, want: { status: 400, param: 'limit', message: 'limit must be an integer' } },
    { name: 'limit a word', method: 'GET', path: '/v1/users', query: { limit: 'all' }, want: { status: 400, param: 'limit', message: 'limit must be a number' } },
    { name: 'updatedBefore not a date', method: 'GET', path: '/v1/users', query: { updatedBefore: 'soon' }, want: { status: 400, param: 'updatedBefore', message: 'updatedBefore must be a date or an ISO 8601 datetime' } },
    { name: 'updatedAfter not a date', method: 'GET', path: '/v1/users', query: { updatedAfter: '2026-13-01' }, want: { status: 400, param: 'updatedAfter' } },
    { name: 'get by a word', method: 'GET', path: '/v1/users/alice', want: { status: 404, param: 'id', type: 'ERROR_NOT_FOUND', message: 'No user with _id, userId or deviceId "alice"' } },
    { name: 'get by an _id-shaped value', method: 'GET', path: `/v1/users/${'ab'.repeat(12)}`, want: { status: 404, param: 'id' } },
    { name: 'get by an encoded value', method: 'GET', path: `/v1/users/${encodeURIComponent('a b/c')}`, want: { status: 404, param: 'id', message: 'No user with _id, userId or deviceId "a b/c"' } },
    { name: 'delete by a word', method: 'DELETE', path: '/v1/users/alice', want: { status: 404, param: 'id', message: 'No user with _id, userId or deviceId "alice"' } },
    { name: 'delete by an _id-shaped value', method: 'DELETE', path: `/v1/users/${'cd'.repeat(12)}`, want: { status: 404, param: 'id' } },
  ];
  test.each(cases)('$name → $want.status', async ({ method, path, query, want, body }) => {
    const reply = await expectCase(s, { method, path, opts: { key: k.testSk, query }, want });
    if (body) expect(reply.body).toEqual(body);
  });
});

describe('users made by track', () => {
  async function track(key: string, body: Record<string, unknown>): Promise<User> {
    const reply = await call(s, 'POST', '/v1/track', { key, body: { latitude: 40.7484, longitude: -73.9857, accuracy: 10, ...body } });
    expect(reply.status).toBe(200);
    return reply.body.user as User;
  }

  test('get by _id, userId and deviceId; delete by each', async () => {
    const k = await s.newProject('users-addressing');
    const made = await track(k.testPk, { deviceId: 'device-1', userId: 'alice' });
    expect(made).toMatchObject({ _id: expect.stringMatching(OBJECT_ID), updatedAt: expect.stringMatching(ISO_MS), live: false, userId: 'alice', deviceId: 'device-1' });
    for (const id of [made._id, 'alice', 'device-1']) {
      const got = await call(s, 'GET', `/v1/users/${id}`, { key: k.testSk });
      expect([id, got.status, got.body.user?._id]).toEqual([id, 200, made._id]);
    }
    const rows: Array<[string, string, number]> = [
      ['delete by deviceId', 'DELETE /v1/users/device-1', 200],
      ['gone by _id', `GET /v1/users/${made._id}`, 404],
      ['gone by userId', 'GET /v1/users/alice', 404],
      ['delete again', 'DELETE /v1/users/alice', 404],
    ];
    const got = [];
    for (const [name, request] of rows) {
      const [method, path] = request.split(' ');
      got.push([name, (await call(s, method, path, { key: k.testSk })).status]);
    }
    expect(got).toEqual(rows.map(([name, , status]) => [name, status]));
    expect((await call(s, 'GET', '/v1/users', { key: k.testSk })).body.users).toEqual([]);
  });

  test('the list: newest update first, limit, hasMore, updatedBefore/updatedAfter', async () => {
    const k = await s.newProject('users-list');
    const users: User[] = [];
    for (let i = 0; i < 4; i++) {
      if (users.length) await afterMillisecond(users[users.length - 1].updatedAt);
      users.push(await track(k.testPk, { deviceId: `d${i}`, userId: `u${i}` }));
    }
    // A new update moves u0 to the front.
    await afterMillisecond(users[3].updatedAt);
    users[0] = await track(k.testPk, { deviceId: 'd0', userId: 'u0', latitude: 40.75 });
    const order = [users[0], users[3], users[2], users[1]].map((u) => u._id);
    const rows: Array<[string, Record<string, string | number>, string[], boolean]> = [
      ['all', {}, order, false],
      ['limit 2', { limit: 2 }, order.slice(0, 2), true],
      ['limit 4', { limit: 4 }, order, false],
      ['updatedBefore u3', { updatedBefore: users[3].updatedAt }, [users[2]._id, users[1]._id], false],
      ['updatedAfter u2', { updatedAfter: users[2].updatedAt }, [users[0]._id, users[3]._id], false],
    ];
    const got = [];
    for (const [name, query] of rows) {
      const reply = await call(s, 'GET', '/v1/users', { key: k.testSk, query });
      got.push([name, reply.body.users.map((u: User) => u._id), reply.body.meta.hasMore]);
    }
    expect(got).toEqual(rows.map(([name, , ids, more]) => [name, ids, more]));
  });

  test("deleting a user takes it out of its geofences' user lists", async () => {
    const k = await s.newProject('users-delete-presence');
    const fence = await call(s, 'PUT', '/v1/geofences/store/main', {
      key: k.testSk, body: { description: 'Main store', type: 'circle', coordinates: [-73.9857, 40.7484], radius: 200 },
    });
    expect(fence.status).toBe(200);
    // b enters first, a second: a's presence is the newest, so it leads the geofence's user list.
    const b = await track(k.testPk, { deviceId: 'device-b', userId: 'b' });
    const a = await track(k.testPk, { deviceId: 'device-a', userId: 'a' });
    const inside = await call(s, 'GET', '/v1/geofences/store/main/users', { key: k.testSk });
    expect(inside.body.users.map((u: User) => u._id).sort()).toEqual([a._id, b._id].sort());

    expect((await call(s, 'DELETE', '/v1/users/a', { key: k.testSk })).status).toBe(200);
    const rows: Array<[string, Record<string, number>, string[], boolean]> = [
      ['all', {}, [b._id], false],
      ['first page of one', { limit: 1 }, [b._id], false],
    ];
    const got = [];
    for (const [name, query] of rows) {
      const reply = await call(s, 'GET', '/v1/geofences/store/main/users', { key: k.testSk, query });
      got.push([name, reply.body.users.map((u: User) => u._id), reply.body.meta.hasMore]);
    }
    expect(got).toEqual(rows.map(([name, , ids, more]) => [name, ids, more]));
  });

  test('test and live users never meet', async () => {
    const k = await s.newProject('users-env');
    const t = await track(k.testPk, { deviceId: 'shared-device', userId: 'shared-user' });
    const l = await track(k.livePk, { deviceId: 'shared-device', userId: 'shared-user' });
    expect([t.live, l.live, t._id === l._id]).toEqual([false, true, false]);
    const rows: Array<[string, string, string, string | number]> = [
      ['test key, by userId', k.testSk, 'shared-user', t._id],
      ['live key, by userId', k.liveSk, 'shared-user', l._id],
      ['live key, test _id', k.liveSk, t._id, 404],
      ['test key, live _id', k.testSk, l._id, 404],
    ];
    const got = [];
    for (const [name, key, id] of rows) {
      const reply = await call(s, 'GET', `/v1/users/${id}`, { key });
      got.push([name, reply.status === 200 ? reply.body.user._id : reply.status]);
    }
    expect(got).toEqual(rows.map(([name, , , want]) => [name, want]));
  });
});
