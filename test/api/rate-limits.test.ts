// Rate limits (spec "Limits", DESIGN §2) on a server with the real limits (rateLimitScale 1): 10 per second
// per key on get/delete user and beacon and on settings; over the limit → 429 with meta.message,
// meta.type and Retry-After, and the refused request changes nothing.
//
// No timing assertions: a bucket starts full, so the first 10 requests always pass; the test then keeps
// asking until a 429 comes (it must, long before the refill could keep up) and checks what it says.
import { startTestServer, type ProjectKeys, type Reply, type TestServer } from '../support/server';
import { assertWant, call } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 1 });
});
afterAll(async () => {
  await s.close();
});

const BURST = 10;
const PATIENCE = 60;
const ATTEMPTS = 5;

type Send = () => Promise<Reply>;

/** Sends until refused; returns the statuses of the passed requests and the 429. */
async function exhaust(send: Send): Promise<{ passed: number[]; refused: Reply | undefined }> {
  const passed: number[] = [];
  for (let i = 0; i < PATIENCE; i++) {
    const reply = await send();
    if (reply.status === 429) return { passed, refused: reply };
    passed.push(reply.status);
  }
  return { passed, refused: undefined };
}

function assertRateLimited(reply: Reply | undefined): void {
  expect(reply).toBeDefined();
  const r = reply as Reply;
  assertWant(r, { status: 429, type: 'ERROR_RATE_LIMIT', message: /^Rate limit exceeded: .+ allows 10 request\(s\) per second per API key$/ });
  const retryAfter = r.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
}

function ibeacon(externalId: string): Record<string, unknown> {
  return { description: 'd', tag: 'rl', externalId, type: 'ibeacon', uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6', major: '1', minor: '2', coordinates: [0, 0] };
}

async function listBeacons(key: string): Promise<string[]> {
  const reply = await call(s, 'GET', '/v1/beacons', { key });
  return reply.body.beacons.map((b: { externalId: string }) => b.externalId);
}

describe('10 per second endpoints', () => {
  const rows: Array<{ name: string; method: string; path: (k: ProjectKeys) => string; body?: Record<string, unknown>; okStatus: number }> = [
    { name: 'get user', method: 'GET', path: () => '/v1/users/nobody', okStatus: 404 },
    { name: 'delete user', method: 'DELETE', path: () => '/v1/users/nobody', okStatus: 404 },
    { name: 'get beacon by _id', method: 'GET', path: () => `/v1/beacons/${'0'.repeat(24)}`, okStatus: 404 },
    { name: 'get beacon by tag/externalId', method: 'GET', path: () => '/v1/beacons/rl/none', okStatus: 404 },
    { name: 'delete beacon by _id', method: 'DELETE', path: () => `/v1/beacons/${'0'.repeat(24)}`, okStatus: 404 },
    { name: 'delete beacon by tag/externalId', method: 'DELETE', path: () => '/v1/beacons/rl/none', okStatus: 404 },
    { name: 'get Places settings', method: 'GET', path: () => '/v1/settings', okStatus: 200 },
    { name: 'patch Places settings', method: 'PATCH', path: () => '/v1/settings', body: { chainMetadata: {} }, okStatus: 200 },
    { name: 'get project settings', method: 'GET', path: () => '/v1/project/settings', okStatus: 200 },
    { name: 'patch project settings', method: 'PATCH', path: () => '/v1/project/settings', body: { fraud: false }, okStatus: 200 },
  ];
  test.each(rows)('$name: 10 pass, then 429 with message, type and Retry-After', async ({ method, path, body, okStatus }) => {
    const k = await s.newProject('burst');
    const { passed, refused } = await exhaust(() => s.request(method, path(k), { key: k.testSk, body }));
    expect(passed.slice(0, BURST)).toEqual(Array(BURST).fill(okStatus));
    assertRateLimited(refused);
  });
});

describe('budgets', () => {
  test('per API key: the live key, and other projects, keep their own budget', async () => {
    const k = await s.newProject('per-key');
    const other = await s.newProject('per-key-other');
    assertRateLimited((await exhaust(() => s.request('GET', '/v1/settings', { key: k.testSk }))).refused);
    const rows: Array<[string, string, number]> = [
      ['the live secret key of the same project', k.liveSk, 200],
      ['another project', other.testSk, 200],
    ];
    const got = [];
    for (const [name, key] of rows) got.push([name, (await s.request('GET', '/v1/settings', { key })).status]);
    expect(got).toEqual(rows.map(([name, , status]) => [name, status]));
  });

  test('get and delete of a beacon, in both address forms, share one budget', async () => {
    // Rotating over four forms: with separate budgets some 40 requests would pass before the first 429.
    const k = await s.newProject('shared-budget');
    const forms = [['GET', `/v1/beacons/${'0'.repeat(24)}`], ['GET', '/v1/beacons/rl/x'], ['DELETE', '/v1/beacons/rl/x'], ['DELETE', `/v1/beacons/${'0'.repeat(24)}`]];
    let i = 0;
    const { passed, refused } = await exhaust(() => {
      const [method, path] = forms[i++ % forms.length];
      return s.request(method, path, { key: k.testSk });
    });
    assertRateLimited(refused);
    expect(passed.length).toBeLessThan(forms.length * BURST);
  });

  test('endpoints without a limit in the spec are not limited', async () => {
    const k = await s.newProject('unlimited');
    const statuses: string[] = [];
    for (let i = 0; i < 3 * BURST; i++) {
      statuses.push(`list beacons ${(await s.request('GET', '/v1/beacons', { key: k.testSk })).status}`);
      statuses.push(`list users ${(await s.request('GET', '/v1/users', { key: k.testSk })).status}`);
      statuses.push(`create beacon ${(await s.request('POST', '/v1/beacons', { key: k.testSk, body: ibeacon(`u${i}`) })).status}`);
      statuses.push(`upsert beacon ${(await s.request('PUT', `/v1/beacons/rl/u${i}`, { key: k.testSk, body: ibeacon('') })).status}`);
    }
    expect(statuses.filter((st) => !st.endsWith(' 200'))).toEqual([]);
  });

  test('the key is checked before the budget: no key is 401, not 429', async () => {
    const k = await s.newProject('auth-first');
    assertRateLimited((await exhaust(() => s.request('GET', '/v1/settings', { key: k.testSk }))).refused);
    expect([(await s.request('GET', '/v1/settings')).status, (await s.request('GET', '/v1/settings', { key: k.testPk })).status]).toEqual([401, 403]);
  });

  test('after Retry-After seconds the endpoint answers again', async () => {
    const k = await s.newProject('retry-after');
    const { refused } = await exhaust(() => s.request('GET', '/v1/settings', { key: k.testSk }));
    assertRateLimited(refused);
    const seconds = Number(refused?.headers.get('retry-after'));
    await new Promise((r) => setTimeout(r, seconds * 1000 + 50));
    expect((await s.request('GET', '/v1/settings', { key: k.testSk })).status).toBe(200);
  });
});

describe('a 429 changes nothing', () => {
  // The refused write must come while the budget is empty. On a loaded machine a token may come back
  // between the last 429 and the write, so a scenario that did not get its 429 starts over in a fresh
  // project; what is asserted is only ever about a write that was refused.
  async function refusedWrite(scenario: (k: ProjectKeys) => Promise<Reply>): Promise<{ k: ProjectKeys; reply: Reply }> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const k = await s.newProject(`no-change-${attempt}`);
      const reply = await scenario(k);
      if (reply.status === 429) return { k, reply };
    }
    throw new Error(`no write was refused in ${ATTEMPTS} attempts`);
  }
  const wait = (reply: Reply) => new Promise((r) => setTimeout(r, Number(reply.headers.get('retry-after')) * 1000 + 50));

  test('a rate-limited DELETE leaves the beacon in place', async () => {
    const { k, reply } = await refusedWrite(async (k) => {
      expect((await call(s, 'POST', '/v1/beacons', { key: k.testSk, body: ibeacon('keep') })).status).toBe(200);
      assertRateLimited((await exhaust(() => s.request('GET', '/v1/beacons/rl/none', { key: k.testSk }))).refused);
      return s.request('DELETE', '/v1/beacons/rl/keep', { key: k.testSk });
    });
    assertRateLimited(reply);
    // The list has no limit, so it can look at once.
    expect(await listBeacons(k.testSk)).toEqual(['keep']);
  });

  test('a rate-limited PATCH leaves the Places settings as they were', async () => {
    const { k, reply } = await refusedWrite(async (k) => {
      assertRateLimited((await exhaust(() => s.request('PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { n: '1' } } }))).refused);
      return s.request('PATCH', '/v1/settings', { key: k.testSk, body: { chainMappings: { changed: 'yes' } } });
    });
    assertRateLimited(reply);
    // Only this key reads these settings: wait out its Retry-After, then look.
    await wait(reply);
    expect((await call(s, 'GET', '/v1/settings', { key: k.testSk })).body.settings.chainMappings).toEqual({ n: '1' });
  });

  test('a rate-limited PATCH leaves the project settings as they were', async () => {
    const { k, reply } = await refusedWrite(async (k) => {
      assertRateLimited((await exhaust(() => s.request('GET', '/v1/project/settings', { key: k.testSk }))).refused);
      return s.request('PATCH', '/v1/project/settings', { key: k.testSk, body: { fraud: true } });
    });
    assertRateLimited(reply);
    // The live key has its own budget and sees the same project settings.
    expect((await call(s, 'GET', '/v1/project/settings', { key: k.liveSk })).body.settings.fraud).toBe(false);
  });
});
