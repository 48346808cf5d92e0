// Issue #10 items 5, 7, 11, 12: hostile input answered 400 naming the parameter on both stores, a
// rate limiter whose memory does not follow refused device ids, WAYMARK_TRUST_PROXY as documented, and
// SQLite's durability setting.
import { MemoryRateLimiter } from '../../adapters/rate-limiter/memory';
import { sqliteSynchronous } from '../../adapters/store/sqlite/sqlite-store';
import { configFromEnv } from '../../server/config';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const stores = eachStore('hostile-input tests');

/** JSON text with `value` nested `depth` arrays deep (built as text: JSON.stringify would overflow too). */
function nested(depth: number): string {
  return `${'['.repeat(depth)}0,0${']'.repeat(depth)}`;
}

describe.each(stores)('hostile input on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  const track = (body: Record<string, unknown>) => server.request('POST', '/v1/track', {
    key: server.keys.testPk, body: { deviceId: 'd1', latitude: 40.7, longitude: -73.9, accuracy: 10, ...body },
  });

  test.each([
    ['5,000-deep coordinates', 'PUT', '/v1/geofences/t/deep', `{"description":"d","type":"polygon","coordinates":${nested(5000)}}`, 'coordinates'],
    ['5,000-deep ip', 'POST', '/v1/track', `{"deviceId":"d","latitude":1,"longitude":1,"ip":${nested(5000)}}`, 'ip'],
    ['NUL in deviceId', 'POST', '/v1/track', { deviceId: 'a\u0000b', latitude: 1, longitude: 1 }, 'deviceId'],
    ['lone high surrogate in deviceId', 'POST', '/v1/track', { deviceId: '\ud800', latitude: 1, longitude: 1 }, 'deviceId'],
    ['lone low surrogate in a metadata value', 'POST', '/v1/track', { deviceId: 'd', latitude: 1, longitude: 1, metadata: { k: 'x\udc00' } }, 'metadata'],
    ['NUL in a metadata key', 'POST', '/v1/track', { deviceId: 'd', latitude: 1, longitude: 1, metadata: { 'a\u0000': 1 } }, 'metadata'],
  ])('%s → 400 naming the parameter', async (_case, method, path, body, param) => {
    const key = method === 'PUT' ? server.keys.testSk : server.keys.testPk;
    const r = await server.request(method, path, typeof body === 'string' ? { key, raw: { contentType: 'application/json', text: body } } : { key, body });
    expect(r.status).toBe(400);
    expect(r.body.meta).toMatchObject({ code: 400, param });
  });

  test('a NUL or a lone surrogate in a path id → 400, not 500', async () => {
    for (const id of ['%00', 'a%00b', '%ED%A0%80']) {
      const r = await server.request('GET', `/v1/users/${id}`, { key: server.keys.testSk });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const nul = await server.request('GET', '/v1/users/a%00b', { key: server.keys.testSk });
    expect(nul.body.meta).toMatchObject({ code: 400, param: 'id' });
  });

  test('a NUL inside a JSON-encoded form value → 400 naming it', async () => {
    const r = await server.request('POST', '/v1/track', {
      key: server.keys.testPk, form: true, body: { deviceId: 'form', latitude: 1, longitude: 1, accuracy: 10, metadata: '{"k":"a\\u0000"}' },
    });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('metadata');
  });

  test('refused input changes nothing; valid astral characters still pass', async () => {
    expect((await track({ deviceId: 'emoji-😀', metadata: { k: '🗺' } })).status).toBe(200);
    const users = await server.request('GET', '/v1/users', { key: server.keys.testSk, query: { limit: 100 } });
    expect(users.body.users.map((u: { deviceId: string }) => u.deviceId)).toEqual(['emoji-😀']);
  });
});

describe('rate-limiter memory under refused device ids (item 5)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitScale: 1 });
  });
  afterAll(() => server?.close());

  test('oversized deviceIds are refused and do not each get a bucket', async () => {
    const huge = (i: number) => `${i}-${'x'.repeat(300_000)}`;
    const replies = [];
    for (let i = 0; i < 30; i++) {
      replies.push(await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: huge(i), latitude: 1, longitude: 1 } }));
    }
    // Keyed by the client address instead: the first is a 400, the rest share one bucket (429 or 400).
    expect(replies[0].status).toBe(400);
    expect(replies.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const limiter = server.running.gateway.adapters.limiter as MemoryRateLimiter;
    expect(limiter.size).toBeLessThanOrEqual(2);
  });

  test('the in-memory limiter never holds more than its bound of buckets', async () => {
    const limiter = new MemoryRateLimiter(() => 1_000, 100);
    for (let i = 0; i < 1_000; i++) await limiter.take(`k${i}`, 1, 1);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The newest keys keep their state: k999 has spent its token.
    expect((await limiter.take('k999', 1, 1)).allowed).toBe(false);
  });
});

describe('WAYMARK_TRUST_PROXY as documented (item 11)', () => {
  test.each([
    ['', false], ['false', false], ['0', false], ['true', true], ['1', 1], ['2', 2],
    ['loopback', ['loopback']], ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
  ])('%j → %j', (raw, expected) => {
    expect(configFromEnv({ WAYMARK_TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  test.each(['1', 'true', 'loopback'])('"%s" starts and believes the proxy in front', async (raw) => {
    const server = await startTestServer({ trustProxy: configFromEnv({ WAYMARK_TRUST_PROXY: raw }).trustProxy });
    try {
      const r = await server.request('GET', '/v1/geocode/ip', { key: server.keys.testPk, headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(r.body.ip).toBe('8.8.8.8');
    } finally {
      await server.close();
    }
  });

  test('off: the proxy header is ignored', async () => {
    const server = await startTestServer({ trustProxy: configFromEnv({}).trustProxy });
    try {
      const r = await server.request('GET', '/v1/geocode/ip', { key: server.keys.testPk, headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(r.body.ip).not.toBe('8.8.8.8');
    } finally {
      await server.close();
    }
  });
});

describe('SQLite durability setting (item 12)', () => {
  test('FULL by default, NORMAL on request, anything else refused', () => {
    expect(sqliteSynchronous(undefined)).toBe('FULL');
    expect(sqliteSynchronous('')).toBe('FULL');
    expect(sqliteSynchronous('normal')).toBe('NORMAL');
    expect(() => sqliteSynchronous('OFF')).toThrow(/WAYMARK_SQLITE_SYNC must be FULL or NORMAL/);
  });
});
