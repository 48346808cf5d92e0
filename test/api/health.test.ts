// GET /, /health and /ready: what load balancers, orchestrators and a newcomer's browser see first.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

test('GET / says what this is, its version and where the docs are', async () => {
  const r = await server.request('GET', '/');
  expect(r.status).toBe(200);
  const { version } = require('../../package.json') as { version: string };
  expect(r.body).toMatchObject({ meta: { code: 200 }, name: 'Waymark', version, docs: '/docs', openapi: '/v1/openapi.json', health: '/health', ready: '/ready' });
});

test('GET /health answers without a key', async () => {
  const r = await server.request('GET', '/health');
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ meta: { code: 200 }, status: 'ok', uptimeSeconds: expect.any(Number) });
});

test('GET /ready checks the store and loads the region data', async () => {
  const r = await server.request('GET', '/ready');
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ status: 'ready', checks: { store: { ok: true }, regions: { ok: true } } });
  expect(r.headers.get('cache-control')).toBe('no-store');
});

test('GET /ready is 503 naming the store when the store cannot answer; /health stays 200', async () => {
  const broken = await startTestServer();
  try {
    await broken.running.gateway.adapters.store.close();
    const r = await broken.request('GET', '/ready');
    expect(r.status).toBe(503);
    expect(r.body.meta).toMatchObject({ code: 503, message: 'Not ready: store' });
    expect(r.body.checks.store).toMatchObject({ ok: false, detail: expect.any(String) });
    expect((await broken.request('GET', '/health')).status).toBe(200);
  } finally {
    await broken.close().catch(() => undefined);
  }
});

test('other methods on them are refused, not served', async () => {
  const r = await server.request('POST', '/health');
  expect(r.status).toBe(404);
});
