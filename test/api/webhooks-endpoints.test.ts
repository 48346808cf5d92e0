// Managing webhooks over HTTP, and the safety rules: URLs on loopback, private, link-local or metadata
// addresses are refused unless configuration allows them, redirects are followed only to allowed
// addresses, responses are read only so far, /metrics is guarded.
import { configFromEnv, type WebhookConfig } from '../../server/config';
import { verifyWaymarkSignature } from '../../core/webhooks/signature';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';
import { startReceiver, type Received, type TestReceiver } from './webhooks-receiver';

const CAFE = { lat: 40.7831, lng: -73.9712 };

function strictWebhooks(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  // Private addresses refused; only the test receiver's own address is let through.
  return {
    ...configFromEnv({}).webhooks,
    allowPrivate: false, allowedNetworks: ['127.0.0.1/32'], pollMs: 20, timeoutMs: 1000, backoffBaseMs: 30, backoffMaxMs: 60, maxAttempts: 2, ...overrides,
  };
}

let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ webhooks: strictWebhooks(), metricsToken: 'operator-secret' });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.script = [];
  receiver.fallback = { status: 200 };
});

describe('managing webhooks', () => {
  test('create, read, list, update, rotate the token, delete', async () => {
    const sk = server.keys.testSk;
    const created = await server.request('POST', '/v1/webhooks', { key: sk, body: { url: `${receiver.url}/crud#frag`, description: 'CRM' } });
    expect(created.status).toBe(200);
    const hook = created.body.webhook;
    expect(hook).toMatchObject({ url: `${receiver.url}/crud`, types: null, mode: 'single', enabled: true, live: false, description: 'CRM' });
    expect(hook._id).toMatch(/^[0-9a-f]{24}$/);
    expect(hook.token).toMatch(/^[0-9a-f]{48}$/);
    expect(hook.createdAt).toMatch(/\.\d{3}Z$/);

    expect((await server.request('GET', `/v1/webhooks/${hook._id}`, { key: sk })).body.webhook).toEqual(hook);
    expect((await server.request('GET', '/v1/webhooks', { key: sk })).body.webhooks.map((w: { _id: string }) => w._id)).toContain(hook._id);
    expect((await server.request('GET', '/v1/webhooks', { key: server.keys.liveSk })).body.webhooks).toEqual([]);

    const patched = await server.request('PATCH', `/v1/webhooks/${hook._id}`, {
      key: sk, form: true, body: { types: 'user.entered_geofence,user.exited_geofence', batch: 'true', enabled: 'false' },
    });
    expect(patched.body.webhook).toMatchObject({ types: ['user.entered_geofence', 'user.exited_geofence'], mode: 'batch', enabled: false, token: hook.token });
    const allAgain = await server.request('PATCH', `/v1/webhooks/${hook._id}`, { key: sk, body: { types: 'all', mode: 'single' } });
    expect(allAgain.body.webhook).toMatchObject({ types: null, mode: 'single' });

    const rotated = await server.request('POST', `/v1/webhooks/${hook._id}/token`, { key: sk });
    expect(rotated.body.webhook.token).toMatch(/^[0-9a-f]{48}$/);
    expect(rotated.body.webhook.token).not.toBe(hook.token);
    expect(rotated.body.webhook._previousToken).toBeUndefined();

    expect((await server.request('DELETE', `/v1/webhooks/${hook._id}`, { key: sk })).body).toEqual({ meta: { code: 200 } });
    expect((await server.request('GET', `/v1/webhooks/${hook._id}`, { key: sk })).status).toBe(404);
    expect((await server.request('GET', `/v1/webhooks/${hook._id}/deliveries`, { key: sk })).status).toBe(404);
  });

  test.each([
    ['no url', {}, 'url', 'url is required'],
    ['not a URL', { url: 'not a url' }, 'url', 'url must be an absolute http or https URL'],
    ['ftp', { url: 'ftp://8.8.8.8/x' }, 'url', 'url must use http or https'],
    ['bad mode', { url: 'http://8.8.8.8/', mode: 'bulk' }, 'mode', 'mode must be one of single, batch'],
    ['bad type', { url: 'http://8.8.8.8/', types: ['user entered'] }, 'types', undefined],
    ['bad enabled', { url: 'http://8.8.8.8/', enabled: 'maybe' }, 'enabled', 'enabled must be a boolean (true or false)'],
  ])('create with %s → 400', async (_name, body, param, message) => {
    const r = await server.request('POST', '/v1/webhooks', { key: server.keys.testSk, body });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe(param);
    if (message) expect(r.body.meta.message).toBe(message);
  });

  test('a publishable key is refused, an unknown id is 404', async () => {
    expect((await server.request('GET', '/v1/webhooks', { key: server.keys.testPk })).status).toBe(403);
    expect((await server.request('GET', '/v1/webhooks/ffffffffffffffffffffffff', { key: server.keys.testSk })).status).toBe(404);
    expect((await server.request('PATCH', '/v1/webhooks/nope', { key: server.keys.testSk, body: { enabled: false } })).status).toBe(404);
  });
});

describe('URL safety', () => {
  test.each([
    // 127.0.0.1 itself is the allowed network of this server (the receiver's address).
    ['loopback IPv4', 'http://127.0.0.2:9/x', 'loopback'],
    ['loopback as a decimal number', 'http://2130706434/', 'loopback'],
    ['loopback IPv6', 'http://[::1]/', 'loopback'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.2]/', 'loopback'],
    ['unspecified', 'http://0.0.0.0/', 'unspecified'],
    ['RFC 1918', 'http://10.1.2.3/', 'private'],
    ['RFC 1918 192.168', 'https://192.168.1.10/', 'private'],
    ['ULA', 'http://[fd12::1]/', 'private'],
    ['link-local', 'http://169.254.10.10/', 'link-local'],
    ['AWS/GCP metadata', 'http://169.254.169.254/latest/meta-data', 'metadata'],
    ['GCP metadata name', 'http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['Alibaba metadata', 'http://100.100.100.200/', 'metadata'],
    ['CGNAT', 'http://100.64.0.1/', 'shared'],
  ])('%s is refused', async (_name, url, word) => {
    const r = await server.request('POST', '/v1/webhooks', { key: server.keys.testSk, body: { url } });
    expect(r.status).toBe(400);
    expect(r.body.meta.param).toBe('url');
    expect(r.body.meta.message).toMatch(/^url refused: /);
    expect(r.body.meta.message).toContain(word);
  });

  test('a public address and an allowed network are accepted; an update to a refused URL is not', async () => {
    const pub = await server.request('POST', '/v1/webhooks', { key: server.keys.liveSk, body: { url: 'https://8.8.8.8/hook', enabled: false } });
    expect(pub.status).toBe(200);
    const allowed = await server.request('POST', '/v1/webhooks', { key: server.keys.liveSk, body: { url: `${receiver.url}/allowed`, enabled: false } });
    expect(allowed.status).toBe(200);
    const moved = await server.request('PATCH', `/v1/webhooks/${allowed.body.webhook._id}`, { key: server.keys.liveSk, body: { url: 'http://192.168.0.1/' } });
    expect(moved.status).toBe(400);
    expect((await server.request('GET', `/v1/webhooks/${allowed.body.webhook._id}`, { key: server.keys.liveSk })).body.webhook.url).toBe(`${receiver.url}/allowed`);
    for (const id of [pub.body.webhook._id, allowed.body.webhook._id]) await server.request('DELETE', `/v1/webhooks/${id}`, { key: server.keys.liveSk });
  });
});

type LogEntry = { attempt: number; outcome: string; status: number | null; error?: string };

async function deliveriesOf(keys: { testSk: string }, hookId: string, count: number): Promise<LogEntry[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await server.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key: keys.testSk });
    if (r.body.deliveries.length >= count) return r.body.deliveries;
    if (Date.now() > deadline) throw new Error(`delivery log has ${r.body.deliveries.length} entries, wanted ${count}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** A fresh project with a geofence and one webhook at `path`; returns a function producing one event. */
async function hookAt(path: string): Promise<{ keys: { testSk: string; testPk: string }; hookId: string; token: string; fire: () => Promise<string> }> {
  const keys = await server.newProject(`p-${Math.random().toString(36).slice(2)}`);
  await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
  const created = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path } });
  expect(created.status).toBe(200);
  let inside = false;
  const fire = async (): Promise<string> => {
    inside = !inside;
    const where = inside ? CAFE : { lat: 40.77, lng: -73.98 };
    const r = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId: 'd', latitude: where.lat, longitude: where.lng, accuracy: 5, foreground: true } });
    expect(r.body.events).toHaveLength(1);
    return r.body.events[0]._id;
  };
  return { keys, hookId: created.body.webhook._id, token: created.body.webhook.token, fire };
}

function at(path: string): (rs: Received[]) => Received[] {
  return (rs) => rs.filter((r) => r.path === path);
}

describe('delivery safety', () => {
  test('a 307 to an allowed address is followed with the same body and signatures', async () => {
    const { keys, hookId, fire } = await hookAt('/hop');
    receiver.script = [{ status: 307, headers: { location: '/hop-final' } }];
    const eventId = await fire();
    await receiver.waitFor((rs) => at('/hop-final')(rs).length === 1, undefined, 'the redirected request');
    const [first, final] = [at('/hop')(receiver.received)[0], at('/hop-final')(receiver.received)[0]];
    expect(final.json.event._id).toBe(eventId);
    expect(final.body).toBe(first.body);
    expect(final.headers['x-radar-signature']).toBe(first.headers['x-radar-signature']);
    expect((await deliveriesOf(keys, hookId, 1))[0]).toMatchObject({ outcome: 'delivered', status: 200 });
  });

  test.each([
    ['loopback IPv6', 307, () => `http://[::1]:${receiver.port}/x`, 'refused: ::1 is a loopback address (operators may allow it with WAYMARK_WEBHOOK_ALLOW_PRIVATE=true)'],
    ['cloud metadata', 308, () => 'http://169.254.169.254/latest/meta-data', 'refused: 169.254.169.254 is a cloud metadata address'],
    ['a 302 (would become a GET)', 302, () => `${receiver.url}/elsewhere`, 'redirect (302) not followed: deliveries follow only 307 and 308'],
  ])('a redirect to %s is not followed', async (_name, status, location, error) => {
    const path = `/redirect-${status}-${Math.random().toString(36).slice(2)}`;
    const { keys, hookId, fire } = await hookAt(path);
    receiver.fallback = { status, headers: { location: location() } };
    await fire();
    const log = await deliveriesOf(keys, hookId, 2);
    expect(log.map((e) => e.outcome)).toEqual(['dead', 'retry']);
    expect(log[1].error).toBe(error);
    // The log narrowed to one outcome.
    const byOutcome = async (outcome: string) => (await server.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key: keys.testSk, query: { outcome } })).body.deliveries as LogEntry[];
    expect([(await byOutcome('retry')).map((e) => [e.outcome, e.attempt]), await byOutcome('delivered')]).toEqual([[['retry', 1]], []]);
    expect(receiver.received.filter((r) => r.path === '/elsewhere' || r.path === '/x')).toEqual([]);
  });

  test('a huge response body is not read to the end: the status decides', async () => {
    const { keys, hookId, fire } = await hookAt('/huge');
    receiver.script = [{ status: 200, bytes: 200 * 1024 * 1024 }];
    await fire();
    const [entry] = await deliveriesOf(keys, hookId, 1);
    expect(entry).toMatchObject({ outcome: 'delivered', status: 200, attempt: 1 });
  });

  test('after a token rotation both tokens sign X-Waymark-Signature; X-Radar-Signature uses the new one', async () => {
    const { keys, hookId, token: oldToken, fire } = await hookAt('/rotated');
    const newToken = (await server.request('POST', `/v1/webhooks/${hookId}/token`, { key: keys.testSk })).body.webhook.token;
    await fire();
    await receiver.waitFor((rs) => at('/rotated')(rs).length === 1, undefined, 'the delivery');
    const req = at('/rotated')(receiver.received)[0];
    const header = String(req.headers['x-waymark-signature']);
    expect(header.split(',')).toHaveLength(2);
    for (const token of [newToken, oldToken]) {
      expect(verifyWaymarkSignature({ header, timestamp: String(req.headers['x-waymark-timestamp']), body: req.body, token, now: new Date() })).toBe(true);
    }
    expect(verifyWaymarkSignature({ header, timestamp: String(req.headers['x-waymark-timestamp']), body: req.body, token: 'x', now: new Date() })).toBe(false);
  });
});

describe('/metrics with an operator token', () => {
  test.each([
    ['no Authorization', 401, undefined],
    ['a wrong token', 401, 'Bearer nope'],
    ['a project secret key', 401, 'SK'],
    ['the operator token', 200, 'Bearer operator-secret'],
  ])('%s → %i', async (_name, status, auth) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth === 'SK' ? server.keys.testSk : auth;
    let res = await fetch(`${server.url}/metrics`, { headers });
    expect(res.status).toBe(status);
    let text = await res.text();
    if (status === 200) {
      // A delivered row stays pending in the store until its endpoint's buffered outcomes are written
      // (FLUSH_MS after the group began, delivery-outcome-buffer.ts): wait for that write.
      await until('the last outcomes written', async () => {
        res = await fetch(`${server.url}/metrics`, { headers });
        text = await res.text();
        return /^waymark_webhook_pending 0$/m.test(text);
      }, 10_000, 50);
      expect(text).toContain('# TYPE waymark_webhook_requests_total counter');
      // The three refused redirects above ended as dead letters; nothing else is waiting.
      expect(text).toMatch(/^waymark_webhook_dead_letters 3$/m);
      expect(text).toMatch(/^waymark_webhook_pending 0$/m);
      expect(text).toMatch(/^waymark_webhook_dead_letters_total\{reason="max-attempts"\} 3$/m);
    }
    else expect(JSON.parse(text).meta).toMatchObject({ code: status, type: 'ERROR_UNAUTHORIZED' });
  });
});
