// Issue #10: a bounded, seeded fuzz run against a real server on each store. Hostile values (deep
// nesting, NUL, lone surrogates, huge numbers, long strings, wrong types) are put into the fields of
// real requests; no answer may be a 5xx. 600 requests per store by default (FUZZ_REQUESTS to change).
import { prng } from '../../bench/support/prng';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 600);
const stores = eachStore('fuzz run');

const HOSTILE: Array<(r: () => number) => string> = [
  () => '"a\\u0000b"', () => '"\\ud800"', () => '"x\\udc00y"', () => '1e308', () => '-1e308', () => '"NaN"',
  () => `${'['.repeat(3000)}1${']'.repeat(3000)}`, () => `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  (r) => `"${'z'.repeat(1 + Math.floor(r() * 5000))}"`, () => 'null', () => 'true', () => '[]', () => '{}',
  () => '{"\\u0000":1}', () => '"😀"', () => '-0', () => '12345678901234567890123',
];

const TARGETS: Array<{ method: string; path: string; key: 'pk' | 'sk'; fields: Record<string, string> }> = [
  { method: 'POST', path: '/v1/track', key: 'pk', fields: { deviceId: '"d"', userId: '"u"', latitude: '40.7', longitude: '-73.9', accuracy: '10', metadata: '{"k":1}', ip: '"8.8.8.8"', updatedAt: '"2026-01-01T00:00:00Z"' } },
  { method: 'PUT', path: '/v1/geofences/fz/one', key: 'sk', fields: { description: '"d"', type: '"circle"', coordinates: '[-73.9,40.7]', radius: '100', metadata: '{}' } },
  { method: 'POST', path: '/v1/trips', key: 'sk', fields: { externalId: '"t1"', userId: '"u"', mode: '"car"', metadata: '{}' } },
  { method: 'PATCH', path: '/v1/project/settings', key: 'sk', fields: { stopDetection: 'false', tripExpirationHours: '1' } },
  { method: 'POST', path: '/v1/track/replay', key: 'pk', fields: { replays: '[{"deviceId":"r","latitude":1,"longitude":1,"accuracy":5}]' } },
];
const PATHS = ['/v1/users/%00', '/v1/users/%ED%A0%80', '/v1/geofences/%00/x', '/v1/trips/a%00b', `/v1/users/${'x'.repeat(3000)}`, '/v1/events/%FF'];

describe.each(stores)('seeded fuzz on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
  });
  afterAll(() => server?.close());

  test(`${REQUESTS} hostile requests, no 5xx`, async () => {
    const random = prng(20261123);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    const failures: string[] = [];
    const counts = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      let reply;
      let what: string;
      if (random() < 0.15) {
        what = `GET ${pick(PATHS)}`;
        reply = await fetch(`${server.url}${what.slice(4)}`, { headers: { authorization: server.keys.testSk } });
      } else {
        const target = pick(TARGETS);
        const fields = { ...target.fields };
        const names = Object.keys(fields);
        for (let n = 1 + Math.floor(random() * 2); n > 0; n--) fields[pick(names)] = pick(HOSTILE)(random);
        const text = `{${Object.entries(fields).map(([k, v]) => `"${k}":${v}`).join(',')}}`;
        what = `${target.method} ${target.path} ${text.slice(0, 120)}`;
        reply = await fetch(`${server.url}${target.path}`, {
          method: target.method, body: text,
          headers: { authorization: target.key === 'pk' ? server.keys.testPk : server.keys.testSk, 'content-type': 'application/json' },
        });
      }
      await reply.arrayBuffer();
      counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
      if (reply.status >= 500) failures.push(`${reply.status} ${what}`);
    }
    console.log(`fuzz on ${_name}: ${REQUESTS} requests, statuses ${JSON.stringify(Object.fromEntries([...counts].sort((a, b) => a[0] - b[0])))}`);
    expect(failures).toEqual([]);
  }, 120_000);
});
