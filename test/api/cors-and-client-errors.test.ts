// Browser access (CORS) for the web SDK, and requests Node rejects before Express: both answer in the
// JSON envelope a client can read.
import net from 'node:net';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

test('a preflight is answered without a key, allowing the SDK headers', async () => {
  const res = await fetch(`${server.url}/v1/track`, {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Radar-SDK-Version/);
});

test('a cross-origin request gets the allow-origin header and a cross-origin resource policy', async () => {
  const r = await server.request('GET', '/v1/config', { key: server.keys.testPk, headers: { origin: 'https://shop.example' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
});

test('listed origins only, when the operator narrows them', async () => {
  const narrow = await startTestServer({ corsOrigins: ['https://app.example'] });
  try {
    const ok = await narrow.request('GET', '/v1/config', { key: narrow.keys.testPk, headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await narrow.request('GET', '/v1/config', { key: narrow.keys.testPk, headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  } finally {
    await narrow.close();
  }
});

describe('headers an app adds through the SDK (getRequestHeaders)', () => {
  const preflight = (url: string, origin: string, requested: string): Promise<Response> => fetch(`${url}/v1/track`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requested },
  });

  test('a configured origin may send the headers it asks for', async () => {
    const narrow = await startTestServer({ corsOrigins: ['https://app.example'] });
    try {
      const res = await preflight(narrow.url, 'https://app.example', 'authorization, x-app-tenant, x-trace-parent');
      expect(res.status).toBe(204);
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'x-app-tenant', 'x-trace-parent']));
      expect(res.headers.get('vary')).toMatch(/Access-Control-Request-Headers/);
      const other = await preflight(narrow.url, 'https://evil.example', 'x-app-tenant');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-allow-headers')).not.toMatch(/x-app-tenant/i);
    } finally {
      await narrow.close();
    }
  });

  test('any origin (the default) too', async () => {
    const res = await preflight(server.url, 'https://shop.example', 'x-app-tenant');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-app-tenant/);
  });

  test('a request for something that is not a header name gets the base list only', async () => {
    const res = await preflight(server.url, 'https://shop.example', 'x-ok, bad header');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).not.toMatch(/x-ok|bad/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });
});

test('x-radar-request-id carries the request id and browsers may read it', async () => {
  const r = await server.request('GET', '/v1/config', { key: server.keys.testPk, headers: { origin: 'https://shop.example', 'x-request-id': 'abc-123' } });
  expect(r.headers.get('x-radar-request-id')).toBe('abc-123');
  expect(r.headers.get('access-control-expose-headers')).toMatch(/x-radar-request-id/);
  const fresh = await server.request('GET', '/v1/config', { key: server.keys.testPk });
  expect(fresh.headers.get('x-radar-request-id')).toBe(fresh.headers.get('x-request-id'));
  expect(fresh.headers.get('x-radar-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

function rawRequest(text: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

test.each([
  ['headers over the limit', `GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers'],
  ['malformed request line', 'HELLO THERE\r\n\r\n', 400, 'request'],
])('%s: JSON envelope from the socket layer', async (_name, text, status, param) => {
  const reply = await rawRequest(text);
  const [head, body] = reply.split('\r\n\r\n');
  expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
  expect(head).toMatch(/x-request-id: /i);
  expect(JSON.parse(body)).toEqual({ meta: { code: status, message: expect.any(String), param } });
});
