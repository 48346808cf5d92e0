// The sync's HTTP source adapter on its own, against a loopback server, through the checked outbound
// connector with address guards chosen by the test: names are resolved and every resolved address
// checked, redirects re-checked, limits kept.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchHttpCsv } from '../../adapters/geofence-sources/http-source';
import { SourceError, type AddressGuard } from '../../ports/geofence-sources';
import { CheckedHttp } from '../../adapters/outbound-http/checked-http';

const allowAll: AddressGuard = { refuseHost: () => undefined, refuseAddress: () => undefined };
/** Lets every name through to DNS, then refuses loopback addresses: the resolved-address path. */
const refuseLoopback: AddressGuard = {
  refuseHost: () => undefined,
  refuseAddress: (ip) => (ip === '::1' || ip.startsWith('127.') ? 'a loopback address' : undefined),
};

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    switch (req.url) {
      case '/ok.csv':
        res.end('a,b\n');
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        res.end();
        return;
      case '/to-ftp':
        res.writeHead(301, { location: 'ftp://example.com/x.csv' });
        res.end();
        return;
      case '/declared-huge':
        // Declares a body far past the limit; the client must refuse before reading it.
        res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
        res.write('x');
        return;
      case '/chunked-huge':
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('x'.repeat(4096));
        res.end('x'.repeat(4096));
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const limits = { maxBytes: 1024, timeoutMs: 3000 };
const clients: CheckedHttp[] = [];
const through = (guard: AddressGuard): CheckedHttp => {
  const client = new CheckedHttp({ guard, connectTimeoutMs: limits.timeoutMs });
  clients.push(client);
  return client;
};
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

async function failure(url: string, guard: AddressGuard, maxBytes = limits.maxBytes): Promise<string> {
  try {
    await fetchHttpCsv(url, { ...limits, maxBytes, client: through(guard) });
  } catch (err) {
    expect(err).toBeInstanceOf(SourceError);
    return (err as Error).message;
  }
  throw new Error(`${url} was fetched`);
}

test('a plain download', async () => {
  expect((await fetchHttpCsv(`http://127.0.0.1:${port}/ok.csv`, { ...limits, client: through(allowAll) })).toString()).toBe('a,b\n');
});

test.each([
  ['a name that resolves to a refused address', () => `http://localhost:${port}/ok.csv`, refuseLoopback, /^refused to connect to localhost: it resolves to (127\.0\.0\.1|::1), a loopback address$/],
  ['a literal refused address', () => `http://127.0.0.1:${port}/ok.csv`, refuseLoopback, /^refused to connect to 127\.0\.0\.1: a loopback address$/],
  ['a redirect loop', () => `http://127.0.0.1:${port}/loop`, allowAll, /^too many redirects \(more than 5\)/],
  ['a redirect to another scheme', () => `http://127.0.0.1:${port}/to-ftp`, allowAll, /^ftp: URLs are not supported/],
  ['a declared length past the limit', () => `http://127.0.0.1:${port}/declared-huge`, allowAll, /is 10485760 bytes, larger than the limit of 1024 bytes$/],
  ['a streamed body past the limit', () => `http://127.0.0.1:${port}/chunked-huge`, allowAll, /larger than the limit of 1024 bytes$/],
  ['a server error', () => `http://127.0.0.1:${port}/boom`, allowAll, /answered HTTP 500/],
  ['a closed port', () => 'http://127.0.0.1:9/x.csv', allowAll, /^download failed: connect ECONNREFUSED 127\.0\.0\.1:9$/],
  ['not a URL', () => 'not a url', allowAll, /is not a valid URL$/],
])('refused: %s', async (_name, url, guard, message) => {
  expect(await failure(url(), guard)).toMatch(message);
});
