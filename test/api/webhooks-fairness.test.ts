// Issue 31 item 4, against the real server: slow receivers on a shared host. One receiver host (one
// origin) serves twenty webhooks of project A, whose requests it accepts, reads and then stalls until
// the test lets them go (and then dribbles the answer a byte at a time), and one webhook of project B,
// answered at once.
// - No wait for a connection: all twenty of A's requests are on the wire at the same time (with a shared
//   limit of 8 connections per host, twelve waited, and their deadline ran while they did).
// - Another project's slow receivers delay nothing: B's event arrives while A's twenty are all stalled.
// - The stalled requests, once answered, are delivered: none was cut by a deadline that started
//   before it was on the wire.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startTestServer, type ProjectKeys, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';

const CAFE = { lat: 40.7831, lng: -73.9712 };
const SLOW_HOOKS = 20;

interface Arrival {
  path: string;
  eventId: string;
}

/** The shared host: /slow/* stalls until release(), then dribbles its answer; anything else answers at once. */
async function sharedHost() {
  const arrivals: Arrival[] = [];
  const stalled: Array<() => void> = [];
  let released = false;
  let inFlight = 0;
  let maxInFlight = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const dribble = (res: http.ServerResponse): void => {
    // The status line and headers a byte at a time: the answer is slow, not absent.
    // Written by hand on the socket, which then closes: the server's own response object is never used.
    const head = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    const socket = res.socket!;
    let i = 0;
    const next = (): void => {
      if (socket.destroyed) return;
      if (i >= head.length) {
        inFlight--;
        socket.end();
        return;
      }
      socket.write(head.subarray(i, ++i));
      const t = setTimeout(() => {
        timers.delete(t);
        next();
      }, 5);
      timers.add(t);
    };
    next();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: { _id: string } };
      arrivals.push({ path: req.url ?? '', eventId: json.event._id });
      if (!(req.url ?? '').startsWith('/slow/')) {
        res.end('ok');
        return;
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (released) dribble(res);
      else stalled.push(() => dribble(res));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    maxInFlight: () => maxInFlight,
    stalledCount: () => stalled.length,
    release: () => {
      released = true;
      for (const go of stalled.splice(0)) go();
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let server: TestServer;
let host: Awaited<ReturnType<typeof sharedHost>>;

beforeAll(async () => {
  host = await sharedHost();
  // A deadline far longer than the test needs: a request cut by it would be a failure of the test, not a race.
  server = await startTestServer({ webhooks: fastWebhooks({ timeoutMs: 30_000 }) });
});

afterAll(async () => {
  await server.close();
  await host.close();
});

async function projectWithHooks(keys: ProjectKeys, paths: string[]): Promise<string[]> {
  await server.request('PUT', '/v1/geofences/venue/cafe', { key: keys.testSk, body: { type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, description: 'Café' } });
  const ids: string[] = [];
  for (const p of paths) {
    const r = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: host.url + p } });
    expect(r.status).toBe(200);
    ids.push(r.body.webhook._id);
  }
  return ids;
}

async function enter(keys: ProjectKeys, deviceId: string): Promise<string> {
  const r = await server.request('POST', '/v1/track', { key: keys.testPk, body: { deviceId, latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true } });
  expect(r.status).toBe(200);
  return r.body.events[0]._id;
}

test('twenty slow receivers of one project on a shared host: all on the wire at once, another project on that host is not delayed, and every stalled request is delivered', async () => {
  const a = server.keys;
  const b = await server.newProject('healthy');
  const slowPaths = Array.from({ length: SLOW_HOOKS }, (_, i) => `/slow/${i}`);
  const slowIds = await projectWithHooks(a, slowPaths);
  await projectWithHooks(b, ['/healthy']);

  const slowEvent = await enter(a, 'slow-device');
  await until('all twenty of A\'s requests on the wire', () => host.stalledCount() === SLOW_HOOKS);
  expect(host.maxInFlight()).toBe(SLOW_HOOKS);

  // A's twenty are held open by the receiver; B's event goes through regardless.
  const healthyEvent = await enter(b, 'healthy-device');
  await until('B\'s delivery', () => host.arrivals.some((x) => x.path === '/healthy'));
  expect(host.stalledCount()).toBe(SLOW_HOOKS);
  expect(host.arrivals.find((x) => x.path === '/healthy')!.eventId).toBe(healthyEvent);

  host.release();
  // Every slow webhook's log says delivered on the first attempt: no deadline ran before the request was sent.
  for (const id of slowIds) {
    let log: Array<{ outcome: string; attempt: number; error?: string }> = [];
    const deadline = Date.now() + 20_000;
    while (log.length === 0 && Date.now() < deadline) {
      log = (await server.request('GET', `/v1/webhooks/${id}/deliveries`, { key: a.testSk })).body.deliveries;
      if (log.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(log.map((e) => [e.outcome, e.attempt, e.error])).toEqual([['delivered', 1, undefined]]);
  }
  const slowArrivals = host.arrivals.filter((x) => x.path.startsWith('/slow/'));
  expect(slowArrivals.map((x) => x.eventId)).toEqual(Array(SLOW_HOOKS).fill(slowEvent));
});
