// Authentication (DESIGN §2, spec "Authentication"): the key in the Authorization header decides the
// project and the environment; publishable keys cannot call secret endpoints; rotated keys stop working;
// projects and environments never see each other's data.
import { gatewayRoutes } from '../../server/app';
import type { Route } from '../../server/http/route';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { assertWant, call, expectCase } from './foundation-expect';

let s: TestServer;
let routes: Route[];

beforeAll(async () => {
  s = await startTestServer();
  routes = gatewayRoutes(s.running.gateway);
});
afterAll(async () => {
  await s.close();
});

/** A concrete URL for a route pattern; "x" never collides with a literal path segment. */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+/g, 'x');
}

function beaconBody(tag: string, externalId: string): Record<string, unknown> {
  return {
    description: `${tag} ${externalId}`, tag, externalId, type: 'ibeacon',
    uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6', major: '100', minor: '7', coordinates: [-73.9857, 40.7484],
  };
}

const UNAUTHORIZED_MISSING = 'Unauthorized: a valid API key is required in the Authorization header';
const UNAUTHORIZED_UNKNOWN = 'Unauthorized: unknown API key';

describe('the route table', () => {
  // The foundation's own endpoints; the sweeps below then cover every route the table holds.
  const foundationSecret: Array<[string, string]> = [
    ['GET', '/v1/users'], ['GET', '/v1/users/:id'], ['DELETE', '/v1/users/:id'],
    ['GET', '/v1/beacons'], ['POST', '/v1/beacons'],
    ['GET', '/v1/beacons/:id'], ['PUT', '/v1/beacons/:id'], ['DELETE', '/v1/beacons/:id'],
    ['GET', '/v1/beacons/:tag/:externalId'], ['PUT', '/v1/beacons/:tag/:externalId'], ['DELETE', '/v1/beacons/:tag/:externalId'],
    ['GET', '/v1/settings'], ['PATCH', '/v1/settings'],
    ['GET', '/v1/project/settings'], ['PATCH', '/v1/project/settings'],
  ];
  test.each(foundationSecret)('%s %s is in the table as a secret endpoint', (method, path) => {
    const route = routes.find((r) => r.method === method && r.path === path);
    expect(route?.auth).toBe('secret');
  });
});

describe('every route of the table', () => {
  const table = (): Route[] => routes;
  // Built lazily: the table exists once the server is up. test.each needs rows at definition time, so the
  // sweep runs the whole table inside each test and reports the offending routes by name.
  async function sweep(pick: (r: Route) => boolean, key: (r: Route) => string | undefined, ok: (status: number) => boolean): Promise<string[]> {
    const bad: string[] = [];
    for (const r of table().filter(pick)) {
      const reply = await call(s, r.method, concrete(r.path), { key: key(r) });
      if (!ok(reply.status)) bad.push(`${r.method} ${r.path} → ${reply.status} ${reply.body.meta.message}`);
    }
    return bad;
  }

  test('no key → 401 everywhere', async () => {
    expect(await sweep(() => true, () => undefined, (st) => st === 401)).toEqual([]);
  });

  test('unknown key → 401 everywhere', async () => {
    expect(await sweep(() => true, () => 'prj_test_sk_0000000000000000000000000000000000000000', (st) => st === 401)).toEqual([]);
  });

  test('test publishable key on a secret endpoint → 403', async () => {
    expect(await sweep((r) => r.auth === 'secret', () => s.keys.testPk, (st) => st === 403)).toEqual([]);
  });

  test('live publishable key on a secret endpoint → 403', async () => {
    expect(await sweep((r) => r.auth === 'secret', () => s.keys.livePk, (st) => st === 403)).toEqual([]);
  });

  test('publishable key on a publishable endpoint is let through (and an empty request is never a 5xx)', async () => {
    expect(await sweep((r) => r.auth === 'publishable', () => s.keys.testPk, (st) => st !== 401 && st !== 403 && st < 500)).toEqual([]);
  });

  test('secret key is let through everywhere (and an empty request is never a 5xx)', async () => {
    const other = await s.newProject('sweep');
    // Key rotation would end the sweep's key halfway: it is swept last, on its own.
    const ROTATE = '/v1/project/keys/rotate';
    expect(await sweep((r) => r.path !== ROTATE, () => other.testSk, (st) => st !== 401 && st !== 403 && st < 500)).toEqual([]);
    expect(await sweep((r) => r.path === ROTATE, () => other.testSk, (st) => st === 200)).toEqual([]);
  });
});

describe('the Authorization header', () => {
  const rows: Array<[string, (k: ProjectKeys) => string | undefined, number, string | undefined]> = [
    ['absent', () => undefined, 401, UNAUTHORIZED_MISSING],
    ['empty', () => '', 401, UNAUTHORIZED_MISSING],
    ['the key itself', (k) => k.testSk, 200, undefined],
    ['Bearer <key>', (k) => `Bearer ${k.testSk}`, 200, undefined],
    ['bearer <key> (any case)', (k) => `bearer ${k.testSk}`, 200, undefined],
    ['Bearer with several spaces', (k) => `Bearer    ${k.testSk}`, 200, undefined],
    ['Bearer alone', () => 'Bearer', 401, UNAUTHORIZED_UNKNOWN],
    ['Bearer and spaces only', () => 'Bearer   ', 401, UNAUTHORIZED_UNKNOWN],
    ['Basic credentials', (k) => `Basic ${Buffer.from(`${k.testSk}:`).toString('base64')}`, 401, UNAUTHORIZED_UNKNOWN],
    ['Bearer twice', (k) => `Bearer Bearer ${k.testSk}`, 401, UNAUTHORIZED_UNKNOWN],
    ['key with a character more', (k) => `${k.testSk}0`, 401, UNAUTHORIZED_UNKNOWN],
    ['key with a character less', (k) => k.testSk.slice(0, -1), 401, UNAUTHORIZED_UNKNOWN],
    ['key in upper case', (k) => k.testSk.toUpperCase(), 401, UNAUTHORIZED_UNKNOWN],
    ['well-formed key never issued', () => `prj_test_sk_${'ab'.repeat(20)}`, 401, UNAUTHORIZED_UNKNOWN],
  ];
  test.each(rows.map(([name, key, status, message]) => ({ name, key, status, message })))('$name → $status', async ({ key, status, message }) => {
    const reply = await s.request('GET', '/v1/beacons', { key: key(s.keys) });
    if (status === 200) assertWant(reply, { status });
    else assertWant(reply, { status, param: 'Authorization', type: 'ERROR_UNAUTHORIZED', message });
  });

  test('publishable key on a secret endpoint names the problem', async () => {
    await expectCase(s, {
      method: 'GET', path: '/v1/beacons', opts: { key: s.keys.testPk },
      want: { status: 403, param: 'Authorization', type: 'ERROR_FORBIDDEN', message: 'Forbidden: this endpoint needs a secret key; a publishable key was sent' },
    });
  });

  test('a 401 or 403 request changes nothing', async () => {
    const k = await s.newProject('refused-writes');
    for (const key of [undefined, 'nope', k.testPk, k.livePk]) {
      const reply = await call(s, 'POST', '/v1/beacons', { key, body: beaconBody('refused', String(key)) });
      expect([401, 403]).toContain(reply.status);
    }
    for (const key of [k.testSk, k.liveSk]) {
      const list = await call(s, 'GET', '/v1/beacons', { key });
      expect(list.body.beacons).toEqual([]);
    }
  });
});

describe('key rotation', () => {
  test('old keys stop working at once, new keys work, other projects are untouched', async () => {
    const k = await s.newProject('rotating');
    const bystander = await s.newProject('bystander');
    // Use the old keys first so they sit in the authenticator's cache: rotation must evict them.
    for (const key of [k.testSk, k.liveSk]) expect((await call(s, 'GET', '/v1/beacons', { key })).status).toBe(200);
    for (const key of [k.testPk, k.livePk]) expect((await call(s, 'GET', '/v1/beacons', { key })).status).toBe(403);

    const issued = await s.running.gateway.shared.projects.rotateKeys(k.id);
    const [testPk, livePk, testSk, liveSk] = issued.map((i) => i.key);

    const rows: Array<[string, string, number]> = [
      ['old test secret', k.testSk, 401], ['old live secret', k.liveSk, 401],
      ['old test publishable', k.testPk, 401], ['old live publishable', k.livePk, 401],
      ['new test secret', testSk, 200], ['new live secret', liveSk, 200],
      ['new test publishable', testPk, 403], ['new live publishable', livePk, 403],
      ['other project secret', bystander.testSk, 200],
    ];
    const got = [];
    for (const [name, key] of rows) got.push([name, (await call(s, 'GET', '/v1/beacons', { key })).status]);
    expect(got).toEqual(rows.map(([name, , status]) => [name, status]));
    expect(new Set([testPk, livePk, testSk, liveSk, k.testPk, k.livePk, k.testSk, k.liveSk]).size).toBe(8);
  });

  test('issued keys have the documented prefixes', async () => {
    const k = await s.newProject('prefixes');
    expect(k.testPk).toMatch(/^prj_test_pk_[0-9a-f]{40}$/);
    expect(k.livePk).toMatch(/^prj_live_pk_[0-9a-f]{40}$/);
    expect(k.testSk).toMatch(/^prj_test_sk_[0-9a-f]{40}$/);
    expect(k.liveSk).toMatch(/^prj_live_sk_[0-9a-f]{40}$/);
  });

  test('secret keys are not stored in the clear', async () => {
    const k = await s.newProject('hashed');
    const records = await s.running.gateway.adapters.store.projects.keys(k.id);
    const stored = JSON.stringify(records);
    expect(stored).not.toContain(k.testSk);
    expect(stored).not.toContain(k.liveSk);
    expect(records).toHaveLength(4);
  });
});

describe('test and live environments', () => {
  test('a beacon created with the test key is invisible with the live key, and the reverse', async () => {
    const k = await s.newProject('environments');
    const t = await call(s, 'POST', '/v1/beacons', { key: k.testSk, body: beaconBody('env', 'same') });
    const l = await call(s, 'POST', '/v1/beacons', { key: k.liveSk, body: beaconBody('env', 'same') });
    expect([t.status, t.body.beacon.live, l.status, l.body.beacon.live]).toEqual([200, false, 200, true]);
    expect(t.body.beacon._id).not.toBe(l.body.beacon._id);

    const rows: Array<[string, string, string, number, boolean | undefined]> = [
      ['test key, test _id', k.testSk, `/v1/beacons/${t.body.beacon._id}`, 200, false],
      ['live key, test _id', k.liveSk, `/v1/beacons/${t.body.beacon._id}`, 404, undefined],
      ['live key, live _id', k.liveSk, `/v1/beacons/${l.body.beacon._id}`, 200, true],
      ['test key, live _id', k.testSk, `/v1/beacons/${l.body.beacon._id}`, 404, undefined],
      ['test key, tag/externalId', k.testSk, '/v1/beacons/env/same', 200, false],
      ['live key, tag/externalId', k.liveSk, '/v1/beacons/env/same', 200, true],
    ];
    const got = [];
    for (const [name, key, path] of rows) {
      const reply = await call(s, 'GET', path, { key });
      got.push([name, reply.status, reply.body.beacon?.live]);
    }
    expect(got).toEqual(rows.map(([name, , , status, live]) => [name, status, live]));

    const testList = await call(s, 'GET', '/v1/beacons', { key: k.testSk });
    const liveList = await call(s, 'GET', '/v1/beacons', { key: k.liveSk });
    expect(testList.body.beacons.map((b: { _id: string }) => b._id)).toEqual([t.body.beacon._id]);
    expect(liveList.body.beacons.map((b: { _id: string }) => b._id)).toEqual([l.body.beacon._id]);

    // Deleting in one environment leaves the other's twin in place.
    expect((await call(s, 'DELETE', '/v1/beacons/env/same', { key: k.liveSk })).status).toBe(200);
    expect((await call(s, 'GET', '/v1/beacons/env/same', { key: k.testSk })).status).toBe(200);
    expect((await call(s, 'GET', '/v1/beacons/env/same', { key: k.liveSk })).status).toBe(404);
  });
});

describe('projects', () => {
  test("one project's keys never reach another project's data", async () => {
    const a = await s.newProject('project-a');
    const b = await s.newProject('project-b');
    const created = await call(s, 'POST', '/v1/beacons', { key: a.testSk, body: beaconBody('iso', 'one') });
    const id = created.body.beacon._id;
    const rows: Array<[string, string, string, string, number]> = [
      ['B gets A by _id', 'GET', `/v1/beacons/${id}`, b.testSk, 404],
      ['B gets A by tag/externalId', 'GET', '/v1/beacons/iso/one', b.testSk, 404],
      ['B deletes A by _id', 'DELETE', `/v1/beacons/${id}`, b.testSk, 404],
      ['B deletes A by tag/externalId', 'DELETE', '/v1/beacons/iso/one', b.testSk, 404],
      ['B upserts A by _id', 'PUT', `/v1/beacons/${id}`, b.testSk, 404],
      ['A still gets it', 'GET', `/v1/beacons/${id}`, a.testSk, 200],
    ];
    const got = [];
    for (const [name, method, path, key] of rows) {
      got.push([name, (await call(s, method, path, { key, body: method === 'PUT' ? beaconBody('x', 'y') : undefined })).status]);
    }
    expect(got).toEqual(rows.map(([name, , , , status]) => [name, status]));
    expect((await call(s, 'GET', '/v1/beacons', { key: b.testSk })).body.beacons).toEqual([]);
    expect((await call(s, 'GET', '/v1/beacons', { key: a.testSk })).body.beacons).toHaveLength(1);
  });
});
