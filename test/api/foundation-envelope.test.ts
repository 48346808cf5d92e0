// The envelope (DESIGN §2): every response is JSON with meta.code equal to the status, errors name their
// param, unknown paths 404, wrong methods 405, bad bodies 400/413/415, a request id on every response,
// helmet's headers, and never a stack trace.
import { gzipSync } from 'node:zlib';
import { startServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import type { Logger } from '../../ports/logger';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';
import { assertEnvelope, call, expectCase, type Case } from './foundation-expect';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

/** A raw request, for what the harness's helper cannot send (odd headers, compressed bodies). */
async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  const res = await fetch(s.url + path, { method, headers: init.headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

describe('unknown paths and wrong methods', () => {
  const sk = (): string => s.keys.testSk;
  const cases: Array<Omit<Case, 'opts'> & { key?: boolean; allow?: string[] }> = [
    { name: 'path outside /v1', method: 'GET', path: '/nope', want: { status: 404, param: 'path', type: 'ERROR_NOT_FOUND', message: 'No endpoint GET /nope' } },
    { name: 'root with another method', method: 'DELETE', path: '/', want: { status: 404, param: 'path', type: 'ERROR_NOT_FOUND' } },
    { name: 'unknown /v1 resource', method: 'GET', path: '/v1/nothing', key: true, want: { status: 404, param: 'path', message: 'No endpoint GET /v1/nothing' } },
    { name: 'unknown /v2 path', method: 'GET', path: '/v2/users', key: true, want: { status: 404, param: 'path' } },
    { name: 'too many segments', method: 'GET', path: '/v1/beacons/a/b/c', key: true, want: { status: 404, param: 'path' } },
    { name: 'unknown path, POST', method: 'POST', path: '/v1/whatever', key: true, want: { status: 404, param: 'path', message: 'No endpoint POST /v1/whatever' } },
    { name: 'unknown path, no key: 404 not 401', method: 'GET', path: '/v1/nothing', want: { status: 404, param: 'path' } },
    {
      name: 'POST on a GET-only list', method: 'POST', path: '/v1/users', key: true, allow: ['GET', 'HEAD', 'OPTIONS'],
      want: { status: 405, param: null, type: 'ERROR_METHOD_NOT_ALLOWED', message: 'POST is not allowed on /v1/users' },
    },
    { name: 'PATCH on the beacons list', method: 'PATCH', path: '/v1/beacons', key: true, allow: ['GET', 'HEAD', 'POST', 'OPTIONS'], want: { status: 405, type: 'ERROR_METHOD_NOT_ALLOWED' } },
    { name: 'POST on a beacon', method: 'POST', path: '/v1/beacons/abc', key: true, allow: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'], want: { status: 405, message: 'POST is not allowed on /v1/beacons/abc' } },
    { name: 'PATCH on a beacon by tag', method: 'PATCH', path: '/v1/beacons/t/e', key: true, allow: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'], want: { status: 405 } },
    { name: 'PUT on settings', method: 'PUT', path: '/v1/settings', key: true, allow: ['GET', 'HEAD', 'PATCH', 'OPTIONS'], want: { status: 405 } },
    { name: 'DELETE on project settings', method: 'DELETE', path: '/v1/project/settings', key: true, allow: ['GET', 'HEAD', 'PATCH', 'OPTIONS'], want: { status: 405 } },
    { name: 'wrong method, no key: 405 not 401', method: 'PUT', path: '/v1/users', allow: ['GET', 'HEAD', 'OPTIONS'], want: { status: 405 } },
    { name: 'OPTIONS on a known path', method: 'OPTIONS', path: '/v1/beacons', allow: ['GET', 'HEAD', 'POST', 'OPTIONS'], want: { status: 200 } },
    { name: 'OPTIONS on an unknown path', method: 'OPTIONS', path: '/v1/nothing', want: { status: 404, param: 'path' } },
  ];
  test.each(cases)('$name: $method $path → $want.status', async (c) => {
    const reply = await expectCase(s, { ...c, opts: { key: c.key ? sk() : undefined } });
    if (c.allow) {
      const allow = (reply.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow.sort()).toEqual([...c.allow].sort());
    }
  });

  test('HEAD on a GET endpoint answers its status without a body', async () => {
    const ok = await raw('HEAD', '/v1/beacons', { headers: { authorization: s.keys.testSk } });
    const refused = await raw('HEAD', '/v1/beacons');
    expect([ok.status, ok.text, refused.status, refused.text]).toEqual([200, '', 401, '']);
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('request bodies', () => {
  const sk = (): string => s.keys.testSk;
  const json = (text: string) => ({ raw: { contentType: 'application/json', text } });
  const cases: Array<{ name: string; method: string; path: string; body: { raw: { contentType: string; text: string } }; want: Case['want'] }> = [
    { name: 'truncated JSON', method: 'POST', path: '/v1/beacons', body: json('{"description":'), want: { status: 400, param: 'body', message: 'Request body is not valid JSON' } },
    { name: 'JSON with a trailing comma', method: 'PATCH', path: '/v1/settings', body: json('{"chainMetadata":{},}'), want: { status: 400, param: 'body', message: 'Request body is not valid JSON' } },
    { name: 'single quotes', method: 'PUT', path: '/v1/beacons/t/e', body: json("{'type':'ibeacon'}"), want: { status: 400, param: 'body' } },
    { name: 'a bare string', method: 'PATCH', path: '/v1/project/settings', body: json('"stopDetection"'), want: { status: 400, param: 'body' } },
    { name: 'null', method: 'POST', path: '/v1/beacons', body: json('null'), want: { status: 400, param: 'body' } },
    { name: 'JSON+suffix type, malformed', method: 'POST', path: '/v1/beacons', body: { raw: { contentType: 'application/vnd.api+json', text: '{' } }, want: { status: 400, param: 'body' } },
    { name: 'unsupported charset', method: 'POST', path: '/v1/beacons', body: { raw: { contentType: 'application/json; charset=latin9', text: '{}' } }, want: { status: 415, param: 'body', type: 'ERROR_UNSUPPORTED_MEDIA_TYPE' } },
    { name: 'malformed form charset', method: 'PATCH', path: '/v1/settings', body: { raw: { contentType: 'application/x-www-form-urlencoded; charset=klingon', text: 'a=1' } }, want: { status: 415, param: 'body' } },
  ];
  test.each(cases)('$name → $want.status', async (c) => {
    await expectCase(s, { method: c.method, path: c.path, opts: { key: sk(), ...c.body }, want: c.want });
  });

  test('a body that does not decompress → 400 body', async () => {
    const reply = await raw('POST', '/v1/beacons', { headers: { authorization: sk(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: 'not gzip at all' });
    assertEnvelope(reply);
    expect([reply.status, reply.body.meta.param]).toEqual([400, 'body']);
  });

  test('an unknown content encoding → 415 body', async () => {
    const reply = await raw('POST', '/v1/beacons', { headers: { authorization: sk(), 'content-type': 'application/json', 'content-encoding': 'x-snappy' }, body: '{}' });
    assertEnvelope(reply);
    expect([reply.status, reply.body.meta.param]).toEqual([415, 'body']);
  });

  test('a gzip-compressed JSON body is read', async () => {
    const body = gzipSync(JSON.stringify({ chainMetadata: { gz: { ok: true } } }));
    const reply = await raw('PATCH', '/v1/settings', { headers: { authorization: sk(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
    assertEnvelope(reply);
    expect([reply.status, reply.body.settings.chainMetadata]).toEqual([200, { gz: { ok: true } }]);
  });

  test('a form body with thousands of fields → 413 body', async () => {
    const text = Array.from({ length: 1500 }, (_, i) => `f${i}=1`).join('&');
    await expectCase(s, {
      method: 'PATCH', path: '/v1/settings', opts: { key: sk(), raw: { contentType: 'application/x-www-form-urlencoded', text } },
      want: { status: 413, param: 'body', type: 'ERROR_PAYLOAD_TOO_LARGE' },
    });
  });

  test('a path segment that is not valid percent-encoding → 400 path', async () => {
    await expectCase(s, {
      method: 'GET', path: '/v1/beacons/%E0%A4%A', opts: { key: sk() },
      want: { status: 400, param: 'path', message: 'Request path is not valid percent-encoding' },
    });
  });

  test('a malformed body changes nothing', async () => {
    const k = await s.newProject('malformed');
    await call(s, 'POST', '/v1/beacons', { key: k.testSk, raw: { contentType: 'application/json', text: '{"tag":"a","externalId":"b"' } });
    await call(s, 'PATCH', '/v1/settings', { key: k.testSk, raw: { contentType: 'application/json', text: '{"chainMetadata":{"a":1}' } });
    expect((await call(s, 'GET', '/v1/beacons', { key: k.testSk })).body.beacons).toEqual([]);
    expect((await call(s, 'GET', '/v1/settings', { key: k.testSk })).body.settings.chainMetadata).toEqual({});
  });
});

describe('body size limit', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ bodyLimit: '1kb' });
  });
  afterAll(async () => {
    await small.close();
  });
  const big = { chainMetadata: { filler: { text: 'x'.repeat(2000) } } };
  const rows: Array<[string, boolean]> = [['JSON', false], ['form-encoded', true]];

  test.each(rows)('a %s body over the limit → 413 body', async (_name, form) => {
    await expectCase(small, {
      method: 'PATCH', path: '/v1/settings', opts: { key: small.keys.testSk, body: big, form },
      want: { status: 413, param: 'body', type: 'ERROR_PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1024 bytes' },
    });
  });

  test.each(rows)('a %s body under the limit is accepted', async (_name, form) => {
    await expectCase(small, {
      method: 'PATCH', path: '/v1/settings', opts: { key: small.keys.testSk, body: { chainMetadata: { filler: { text: 'x'.repeat(500) } } }, form },
      want: { status: 200 },
    });
  });

  test('an oversized body changes nothing', async () => {
    await call(small, 'PATCH', '/v1/settings', { key: small.keys.liveSk, body: big });
    expect((await call(small, 'GET', '/v1/settings', { key: small.keys.liveSk })).body.settings.chainMetadata).toEqual({});
  });
});

describe('x-request-id', () => {
  const rows: Array<[string, string | undefined, boolean]> = [
    ['none sent: one is made up', undefined, false],
    ['a sane id is echoed', 'client-42_a.b:c', true],
    ['a 128-character id is echoed', 'a'.repeat(128), true],
    ['a 129-character id is replaced', 'a'.repeat(129), false],
    ['an id with spaces is replaced', 'two words', false],
    ['an id with markup is replaced', '<script>', false],
    ['an id with a newline-looking escape is replaced', 'a%0d%0ab', false],
  ];
  test.each(rows)('%s', async (_name, sent, echoed) => {
    const headers: Record<string, string> = sent === undefined ? {} : { 'x-request-id': sent };
    const reply = await call(s, 'GET', '/v1/beacons', { key: s.keys.testSk, headers });
    const id = reply.headers.get('x-request-id');
    if (echoed) expect(id).toBe(sent);
    else {
      expect(id).not.toBe(sent);
      expect(id).toMatch(/^[\w.:-]{1,128}$/);
    }
  });

  test('every kind of response carries one, and made-up ids differ', async () => {
    const replies = await Promise.all([
      s.request('GET', '/v1/beacons', { key: s.keys.testSk }),
      s.request('GET', '/v1/beacons'),
      s.request('GET', '/v1/beacons', { key: s.keys.testPk }),
      s.request('GET', '/v1/nowhere'),
      s.request('POST', '/v1/users'),
      s.request('GET', '/v1/beacons', { key: s.keys.testSk, query: { limit: 0 } }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 401, 403, 404, 405, 400]);
    const ids = replies.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^\S+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('security headers', () => {
  const rows: Array<[string, () => Promise<{ headers: Headers }>]> = [
    ['a success', () => s.request('GET', '/v1/beacons', { key: s.keys.testSk })],
    ['a 401', () => s.request('GET', '/v1/beacons')],
    ['a 404', () => s.request('GET', '/nope')],
    ['a 400', () => s.request('POST', '/v1/beacons', { key: s.keys.testSk, raw: { contentType: 'application/json', text: '{' } })],
  ];
  test.each(rows)('helmet headers on %s', async (_name, send) => {
    const { headers } = await send();
    expect({
      nosniff: headers.get('x-content-type-options'),
      frame: headers.get('x-frame-options'),
      hsts: headers.get('strict-transport-security') !== null,
      csp: headers.get('content-security-policy') !== null,
      referrer: headers.get('referrer-policy'),
      poweredBy: headers.get('x-powered-by'),
      // No body hash on API answers (app.ts): they change with every update.
      etag: headers.get('etag'),
    }).toEqual({ nosniff: 'nosniff', frame: 'SAMEORIGIN', hsts: true, csp: true, referrer: 'no-referrer', poweredBy: null, etag: null });
  });
});

describe('success envelopes', () => {
  test('list: meta.code and meta.hasMore beside the array', async () => {
    const k = await s.newProject('envelopes');
    const reply = await call(s, 'GET', '/v1/beacons', { key: k.testSk });
    expect(reply.body).toEqual({ meta: { code: 200, hasMore: false }, beacons: [] });
  });

  test('delete: meta alone', async () => {
    const k = await s.newProject('envelopes-delete');
    await call(s, 'PUT', '/v1/beacons/t/e', {
      key: k.testSk,
      body: { description: 'd', type: 'eddystone', uid: 'ab'.repeat(10), instance: 'cd'.repeat(6), coordinates: [0, 0] },
    });
    const reply = await call(s, 'DELETE', '/v1/beacons/t/e', { key: k.testSk });
    expect(reply.body).toEqual({ meta: { code: 200 } });
  });
});

describe('internal failures', () => {
  test('a failing store answers 500 with a plain message and no stack', async () => {
    const broken = await startTestServer();
    try {
      await broken.running.gateway.adapters.store.close();
      // A 500 is no documented answer: the OpenAPI check would (rightly) refuse it.
      const reply = await broken.request('GET', '/v1/beacons', { key: broken.keys.testSk, openApi: false });
      assertEnvelope(reply);
      expect(reply.body).toEqual({ meta: { code: 500, message: 'Internal server error', type: 'ERROR_SERVER' } });
    } finally {
      await broken.close();
    }
  });
});

describe('log lines', () => {
  test('every request line, and every error line, carries the request id', async () => {
    const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
    const sink = (level: string) => (message: string, fields: Record<string, unknown> = {}) => void lines.push({ level, message, fields });
    const logger: Logger = { info: sink('info'), warn: sink('warn'), error: sink('error') };
    const server = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', dataDir: tempDataDir(), logRequests: true, rateLimitScale: 0 }, logger);
    try {
      const created = await server.gateway.shared.projects.create('logged');
      const sk = created.keys[2].key;
      await fetch(`${server.url}/v1/beacons`, { headers: { authorization: sk, 'x-request-id': 'trace-ok' } });
      await fetch(`${server.url}/v1/nowhere`, { headers: { 'x-request-id': 'trace-404' } });
      await server.gateway.adapters.store.close();
      const failed = await fetch(`${server.url}/v1/beacons`, { headers: { authorization: 'prj_test_sk_unknown', 'x-request-id': 'trace-500' } });
      expect(failed.status).toBe(500);
      const requestLines = lines.filter((l) => l.message === 'request').map((l) => [l.fields.requestId, l.fields.method, l.fields.path, l.fields.status]);
      expect(requestLines).toEqual([
        ['trace-ok', 'GET', '/v1/beacons', 200],
        ['trace-404', 'GET', '/v1/nowhere', 404],
        ['trace-500', 'GET', '/v1/beacons', 500],
      ]);
      const errors = lines.filter((l) => l.level === 'error');
      expect(errors.map((l) => l.fields.requestId)).toEqual(['trace-500']);
    } finally {
      await server.close();
    }
  });
});
