// The webhook delivery client (gateway/jobs/delivery-http.ts) against a real receiver on 127.0.0.1.
// The address policy must hold for every connection the pool opens, not only for the attempt's own
// check before it: a client made with a strict policy refuses loopback even when the attempt's check
// was told to allow it, for an IP literal and for a name (through the lookup its sockets use).
// Keep-alive: a stream of deliveries to one receiver reuses its connections.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddressPolicy } from '../../gateway/engine/webhooks/address-safety';
import { deliveryClient, sendDelivery, type DeliveryClient } from '../../gateway/jobs/delivery-http';

const STRICT: AddressPolicy = { allowPrivate: false, allowedNetworks: [] };
const OPEN: AddressPolicy = { allowPrivate: true, allowedNetworks: [] };

let server: http.Server;
let port: number;
let requests = 0;
let connections = 0;
let answerBytes = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(answerBytes));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  requests = 0;
  connections = 0;
  answerBytes = 0;
});

const post = (client: DeliveryClient, url: string, policy: AddressPolicy, extra: { maxResponseBytes?: number } = {}) =>
  sendDelivery({ url, body: '{"events":[]}', headers: { 'content-type': 'application/json' } }, { timeoutMs: 2000, policy, client, ...extra });

describe('a client made with the strict policy', () => {
  let client: DeliveryClient;
  beforeAll(() => {
    client = deliveryClient(STRICT, 2000);
  });
  afterAll(async () => {
    await client.destroy();
  });

  test('refuses to connect to a loopback IP literal, whatever the attempt was told', async () => {
    const attempt = await post(client, `http://127.0.0.1:${port}/hook`, OPEN);
    expect(attempt).toMatchObject({ ok: false, error: 'refused: 127.0.0.1 is a loopback address (operators may allow it with WAYMARK_WEBHOOK_ALLOW_PRIVATE=true)' });
    expect(requests).toBe(0);
  });

  test('refuses to connect to a name that is loopback', async () => {
    const attempt = await post(client, `http://localhost:${port}/hook`, OPEN);
    expect(attempt.ok).toBe(false);
    expect(attempt.error).toMatch(/^refused: localhost names a loopback address/);
    expect(requests).toBe(0);
  });
});

describe('a client made with private addresses allowed', () => {
  let client: DeliveryClient;
  beforeAll(() => {
    client = deliveryClient(OPEN, 2000);
  });
  afterAll(async () => {
    await client.destroy();
  });

  test('delivers a stream of requests over kept-alive connections', async () => {
    for (let i = 0; i < 10; i++) expect(await post(client, `http://127.0.0.1:${port}/hook`, OPEN)).toMatchObject({ ok: true, status: 200 });
    expect(requests).toBe(10);
    // The pool may open a second connection while the first is being handed back; not one per request.
    expect(connections).toBeLessThanOrEqual(2);
  });

  test('delivers to a name once its addresses pass (localhost, allowed here)', async () => {
    expect(await post(client, `http://localhost:${port}/hook`, OPEN)).toMatchObject({ ok: true, status: 200 });
  });

  test('an answer longer than the read limit still gives its status', async () => {
    answerBytes = 200_000;
    expect(await post(client, `http://127.0.0.1:${port}/hook`, OPEN, { maxResponseBytes: 1024 })).toMatchObject({ ok: true, status: 200 });
  });

  test('a closed port is an error, not a status', async () => {
    const attempt = await post(client, 'http://127.0.0.1:9/hook', OPEN);
    expect(attempt.ok).toBe(false);
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });
});

describe('an attempt cut short', () => {
  // A receiver that reads the request and never answers.
  let silent: http.Server;
  let silentPort: number;
  let client: DeliveryClient;
  beforeAll(async () => {
    silent = http.createServer((req) => req.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
    client = deliveryClient(OPEN, 20_000);
  });
  afterAll(async () => {
    await client.destroy();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const request = { url: '', body: '{"events":[]}', headers: { 'content-type': 'application/json' } };

  test('by its deadline: an error naming the timeout, after it and not long after', async () => {
    const attempt = await sendDelivery({ ...request, url: `http://127.0.0.1:${silentPort}/hook` }, { timeoutMs: 300, policy: OPEN, client });
    expect(attempt).toMatchObject({ ok: false, error: 'timeout after 300 ms' });
    expect(attempt.aborted).toBeUndefined();
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(290);
    expect(attempt.latencyMs).toBeLessThan(5_000);
  });

  test('by shutdown: every attempt under the signal ends at once, as aborted, and later ones do not start', async () => {
    const shutdown = new AbortController();
    const options = { timeoutMs: 20_000, policy: OPEN, client, signal: shutdown.signal };
    const attempts = [1, 2, 3].map(() => sendDelivery({ ...request, url: `http://127.0.0.1:${silentPort}/hook` }, options));
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown.abort(new Error('stopping'));
    for (const attempt of await Promise.all(attempts)) {
      expect(attempt).toMatchObject({ ok: false, aborted: true, error: 'aborted (shutdown)' });
      expect(attempt.latencyMs).toBeLessThan(5_000);
    }
    expect(await sendDelivery({ ...request, url: `http://127.0.0.1:${silentPort}/hook` }, options)).toMatchObject({ aborted: true, latencyMs: 0 });
  });
});
