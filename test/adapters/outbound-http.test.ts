// The checked outbound connector (adapters/outbound-http) that webhook delivery and the geofence sync
// both use, against real servers on loopback. DNS is the one part stood in for (a resolver that answers
// what the test says), to show a rebinding answer cannot reach a refused address.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkedAddresses, type Resolver } from '../../adapters/outbound-http/checked-addresses';
import { CheckedHttp } from '../../adapters/outbound-http/checked-http';
import { OutboundFailure, type AddressGuard, type SendOptions } from '../../ports/outbound-http';
import { webhookAddressGuard } from '../../server/features/webhooks/delivery/delivery-guard';

const STRICT = webhookAddressGuard({ allowPrivate: false, allowedNetworks: [] });
const OPEN = webhookAddressGuard({ allowPrivate: true, allowedNetworks: [] });
/** Loopback allowed except 127.0.0.1, where the servers listen: a name steered there must be refused. */
const NOT_THE_SERVER: AddressGuard = { refuseHost: () => undefined, refuseAddress: (ip) => (ip === '127.0.0.1' ? '127.0.0.1 is off limits' : undefined) };

const POST: SendOptions = {
  timeoutMs: 3000, deadlineFrom: 'wire', maxResponseBytes: 1024, overLimit: 'cut',
  redirects: { follow: new Set([307, 308]), max: 3 }, credentials: 'basic', keepAlive: true,
};

let server: http.Server;
let port: number;
let requests: Array<{ url: string; method: string; body: string; authorization?: string; remotePort?: number }> = [];
/** Requests being answered now (the stalling paths hold theirs). */
let open = 0;
let maxOpen = 0;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      requests.push({ url, method: req.method ?? '', body: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization, remotePort: req.socket.remotePort });
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.on('close', () => open--);
      if (url === '/stall') {
        held.push(res);
        return;
      }
      if (url.startsWith('/redirect-to?')) {
        res.writeHead(307, { location: decodeURIComponent(url.slice('/redirect-to?'.length)) }).end();
        return;
      }
      if (url === '/loop') {
        res.writeHead(308, { location: '/loop' }).end();
        return;
      }
      if (url === '/declared-huge') {
        res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
        res.write('x');
        return;
      }
      if (url === '/streamed-huge') {
        res.writeHead(200);
        res.write('x'.repeat(4096));
        res.end('x'.repeat(4096));
        return;
      }
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  maxOpen = 0;
});

const clients: CheckedHttp[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});
function connector(guard: AddressGuard, resolve?: Resolver, connectTimeoutMs = 3000): CheckedHttp {
  const c = new CheckedHttp({ guard, connectTimeoutMs, resolve });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<OutboundFailure> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundFailure);
    return err as OutboundFailure;
  }
  throw new Error('the request succeeded');
}

const post = (c: CheckedHttp, url: string, options: Partial<SendOptions> = {}) =>
  c.send({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"events":[]}' }, { ...POST, ...options });

describe('addresses', () => {
  test.each([
    ['a loopback literal', () => `http://127.0.0.1:${port}/`, 'refused: 127.0.0.1 is a loopback address (operators may allow it with WAYMARK_WEBHOOK_ALLOW_PRIVATE=true)'],
    ['an IPv4-mapped loopback literal', () => `http://[::ffff:127.0.0.1]:${port}/`, /^refused: ::ffff:7f00:1 is a loopback address/],
    ['localhost', () => `http://localhost:${port}/`, /^refused: localhost names a loopback address/],
    ['a cloud metadata address', () => 'http://169.254.169.254/latest/meta-data', /^refused: 169\.254\.169\.254 is a cloud metadata address$/],
  ])('the strict policy refuses %s, and nothing reaches the server', async (_name, url, message) => {
    const err = await failure(post(connector(STRICT), url()));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(message);
    expect(requests).toHaveLength(0);
  });

  test('private addresses allowed: a name is delivered to once its addresses pass', async () => {
    expect(await post(connector(OPEN), `http://localhost:${port}/ok`)).toMatchObject({ status: 200 });
  });

  test('DNS rebinding: a name that passed a check and then resolves to a refused address is refused when connecting', async () => {
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    const resolve: Resolver = async () => (answers.shift() ?? ['127.0.0.1']).map((address) => ({ address, family: 4 }));
    // The check when the URL is saved sees an allowed address...
    expect(await checkedAddresses('rebind.example', NOT_THE_SERVER, resolve)).toEqual([{ address: '127.0.0.2', family: 4 }]);
    // ...the connection resolves again and is refused, where the server would have answered.
    const err = await failure(post(connector(NOT_THE_SERVER, resolve), `http://rebind.example:${port}/ok`));
    expect(err).toMatchObject({ kind: 'refused', message: 'refused: rebind.example resolves to 127.0.0.1 is off limits', details: { host: 'rebind.example', address: '127.0.0.1' } });
    expect(requests).toHaveLength(0);
  });

  test('one refused address among those a name resolves to refuses the name', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.1', family: 4 }];
    expect((await failure(post(connector(NOT_THE_SERVER, resolve), `http://two.example:${port}/ok`))).kind).toBe('refused');
    expect(requests).toHaveLength(0);
  });

  test('a name that does not resolve says so', async () => {
    const resolve: Resolver = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    expect(await failure(post(connector(OPEN, resolve), 'http://nowhere.example/'))).toMatchObject({ kind: 'unresolved', message: 'nowhere.example could not be resolved (ENOTFOUND)' });
  });
});

describe('redirects', () => {
  test('a 307 is followed with the same method and body', async () => {
    const answer = await post(connector(OPEN), `http://127.0.0.1:${port}/redirect-to?${encodeURIComponent('/ok')}`);
    expect(answer).toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/ok` });
    expect(requests.map((r) => [r.url, r.method, r.body])).toEqual([
      ['/redirect-to?%2Fok', 'POST', '{"events":[]}'],
      ['/ok', 'POST', '{"events":[]}'],
    ]);
  });

  test('a redirect to a refused address is refused before connecting', async () => {
    const err = await failure(post(connector(OPEN), `http://127.0.0.1:${port}/redirect-to?${encodeURIComponent('http://169.254.169.254/latest')}`));
    expect(err).toMatchObject({ kind: 'refused', message: 'refused: 169.254.169.254 is a cloud metadata address' });
  });

  test('a loop ends after the maximum hops', async () => {
    const err = await failure(post(connector(OPEN), `http://127.0.0.1:${port}/loop`));
    expect(err).toMatchObject({ kind: 'too-many-redirects', details: { status: 308, location: '/loop' } });
    expect(requests).toHaveLength(4);
  });

  test('a status not in the followed set is the answer', async () => {
    const answer = await post(connector(OPEN), `http://127.0.0.1:${port}/redirect-to?x`, { redirects: { follow: new Set([308]), max: 3 } });
    expect(answer).toMatchObject({ status: 307, location: 'x' });
  });
});

describe('bounds', () => {
  test('cut: an answer past the read limit gives its status and what fits', async () => {
    const answer = await post(connector(OPEN), `http://127.0.0.1:${port}/streamed-huge`);
    expect(answer).toMatchObject({ status: 200, truncated: true });
    expect(answer.body.length).toBe(1024);
  });

  test.each([
    ['declared', '/declared-huge', /is 10485760 bytes, larger than the limit of 1024 bytes$/],
    ['streamed', '/streamed-huge', /is larger than the limit of 1024 bytes$/],
  ])('fail: a %s length past the limit fails the request', async (_name, path, message) => {
    const err = await failure(post(connector(OPEN), `http://127.0.0.1:${port}${path}`, { overLimit: 'fail' }));
    expect(err.kind).toBe('too-large');
    expect(err.message).toMatch(message);
  });

  test('a receiver that never answers is cut at the deadline', async () => {
    const err = await failure(post(connector(OPEN), `http://127.0.0.1:${port}/stall`, { timeoutMs: 300 }));
    expect(err).toMatchObject({ kind: 'timeout', message: 'timeout after 300 ms' });
  });

  test('shutdown ends every attempt under the signal at once, as aborted, and later ones do not start', async () => {
    const c = connector(OPEN);
    const shutdown = new AbortController();
    const attempts = [1, 2, 3].map(() => failure(post(c, `http://127.0.0.1:${port}/stall`, { timeoutMs: 20_000, signal: shutdown.signal })));
    await new Promise((r) => setTimeout(r, 100));
    shutdown.abort(new Error('stopping'));
    for (const err of await Promise.all(attempts)) expect(err.kind).toBe('aborted');
    expect((await failure(post(c, `http://127.0.0.1:${port}/ok`, { signal: shutdown.signal }))).kind).toBe('aborted');
  });
});

describe('connections', () => {
  test('a stream of requests to one receiver reuses kept-alive connections', async () => {
    const c = connector(OPEN);
    for (let i = 0; i < 20; i++) expect((await post(c, `http://127.0.0.1:${port}/ok`)).status).toBe(200);
    expect(requests).toHaveLength(20);
    // undici hands a connection back a loop turn after its answer, so a request sent at once takes
    // another one (two, alternating; a few more on a busy machine), but not one per request.
    expect(new Set(requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(10);
  });

  test('requests to a host whose receivers stall never wait for a connection: thirty stalled at once are all on the wire, and one more still answers', async () => {
    const c = connector(OPEN);
    const stalled = Array.from({ length: 30 }, () => failure(post(c, `http://127.0.0.1:${port}/stall`, { timeoutMs: 20_000, signal: stopStalls.signal })));
    const deadline = Date.now() + 15_000;
    while (requests.filter((r) => r.url === '/stall').length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(requests.filter((r) => r.url === '/stall')).toHaveLength(30);
    expect((await post(c, `http://127.0.0.1:${port}/ok`)).status).toBe(200);
    expect(maxOpen).toBe(31);
    stopStalls.abort(new Error('done'));
    for (const err of await Promise.all(stalled)) expect(err.kind).toBe('aborted');
  });
  const stopStalls = new AbortController();

  test('credentials in the URL: sent as Basic authentication, or refused', async () => {
    await post(connector(OPEN), `http://al%40ce:s3cret@127.0.0.1:${port}/ok`);
    expect(requests[0].authorization).toBe(`Basic ${Buffer.from('al@ce:s3cret').toString('base64')}`);
    const err = await failure(post(connector(OPEN), `http://alice:s3cret@127.0.0.1:${port}/ok`, { credentials: 'refuse' }));
    expect(err).toMatchObject({ kind: 'bad-url', message: 'URLs with a user name or password are not supported' });
  });
});
