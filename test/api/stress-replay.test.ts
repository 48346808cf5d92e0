// Issue #10 item 6: POST /v1/track/replay is charged to the device its updates carry. A new top-level
// deviceId per request used to buy a fresh bucket each time (100 updates accepted in 2 s where track
// allows about 3); a legitimate offline batch of one device still goes through in one request.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 1 });
});
afterAll(() => server?.close());

const update = (deviceId: string, i: number) => ({
  deviceId, userId: deviceId, latitude: 40.7 + i / 10_000, longitude: -73.9, accuracy: 10, updatedAt: new Date(Date.now() - (100 - i) * 60_000).toISOString(),
});
const replay = (body: Record<string, unknown>) => server.request('POST', '/v1/track/replay', { key: server.keys.testPk, body });

test('a batch of 50 offline updates of one device is processed in order, each answered', async () => {
  const r = await replay({ replays: Array.from({ length: 50 }, (_, i) => update('offline-phone', i)) });
  expect(r.status).toBe(200);
  expect(r.body.results).toHaveLength(50);
  expect(r.body.results.every((x: { meta: { code: number } }) => x.meta.code === 200)).toBe(true);
  expect(r.body.results[49].user.location.coordinates[1]).toBeCloseTo(40.7049, 6);
});

test('a new top-level deviceId per request does not buy a new budget for the same device', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await replay({ deviceId: `decoy-${i}`, replays: [update('victim', i)] });
    statuses.push(r.status);
    if (r.status === 400) expect(r.body.meta).toMatchObject({ param: 'replays[0].deviceId' });
  }
  expect(statuses.every((s) => s === 400)).toBe(true);
  const users = await server.request('GET', '/v1/users', { key: server.keys.testSk, query: { limit: 100 } });
  expect(users.body.users.map((u: { deviceId: string }) => u.deviceId)).not.toContain('victim');
});

test('replays without a top-level deviceId are charged to the device they carry', async () => {
  const first = await replay({ replays: [update('carried', 1)] });
  expect(first.status).toBe(200);
  const second = await replay({ replays: [update('carried', 2)] });
  expect(second.status).toBe(429);
  // The device's track budget is its own: another device still replays.
  expect((await replay({ replays: [update('carried-other', 1)] })).status).toBe(200);
});

test('a batch that mixes devices is refused whole, naming the first stranger', async () => {
  const r = await replay({ replays: [update('mix-a', 1), update('mix-a', 2), update('mix-b', 3)] });
  expect(r.status).toBe(400);
  expect(r.body.meta).toMatchObject({ param: 'replays[2].deviceId' });
  const users = await server.request('GET', '/v1/users', { key: server.keys.testSk, query: { limit: 100 } });
  expect(users.body.users.map((u: { deviceId: string }) => u.deviceId)).not.toContain('mix-a');
});

test('more than 500 updates in one request are refused', async () => {
  const r = await replay({ replays: Array.from({ length: 501 }, (_, i) => update('too-many', i)) });
  expect(r.status).toBe(400);
  expect(r.body.meta.param).toBe('replays');
});
