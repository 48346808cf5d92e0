// GET /v1/project/keys (ours): the caller's environment's keys as the store keeps them, so the dashboard
// can show the publishable key an app needs without a rotation. Secret keys are kept hashed: only their
// prefix is shown, and the other environment's keys never.
import { startTestServer, type TestServer } from '../support/server';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

interface ShownKey { kind: string; live: boolean; key?: string; display: string; createdAt: string }

async function keysOf(key: string): Promise<ShownKey[]> {
  const reply = await s.request('GET', '/v1/project/keys', { key });
  expect(reply.status).toBe(200);
  return reply.body.keys;
}

test('the test secret key sees the test publishable key whole and its own prefix, no live key', async () => {
  const k = await s.newProject('keys-shown');
  const keys = await keysOf(k.testSk);
  expect(keys.map((x) => [x.kind, x.live])).toEqual([['publishable', false], ['secret', false]]);
  expect(keys[0].key).toBe(k.testPk);
  expect(keys[0].display).toBe(k.testPk);
  expect(keys[1].key).toBeUndefined();
  expect(k.testSk.startsWith(keys[1].display.replace('…', ''))).toBe(true);
  expect(keys[1].display.length).toBeLessThan(k.testSk.length);
  const text = JSON.stringify(keys);
  expect(text).not.toContain(k.testSk);
  expect(text).not.toContain(k.livePk);

  const live = await keysOf(k.liveSk);
  expect(live.map((x) => [x.kind, x.live])).toEqual([['publishable', true], ['secret', true]]);
  expect(live[0].key).toBe(k.livePk);
});

test('after a rotation the new publishable key is shown, the live ones unchanged', async () => {
  const k = await s.newProject('keys-rotated');
  const rotated = await s.request('POST', '/v1/project/keys/rotate', { key: k.testSk });
  expect(rotated.status).toBe(200);
  const fresh = rotated.body.keys as Array<{ key: string; kind: string }>;
  const pk = fresh.find((x) => x.kind === 'publishable')!.key;
  const sk = fresh.find((x) => x.kind === 'secret')!.key;
  const keys = await keysOf(sk);
  expect(keys.filter((x) => x.kind === 'publishable').map((x) => x.key)).toEqual([pk]);
  expect((await keysOf(k.liveSk))[0].key).toBe(k.livePk);
  expect((await s.request('GET', '/v1/project/keys', { key: k.testSk })).status).toBe(401);
});

test('a publishable key cannot list keys', async () => {
  const k = await s.newProject('keys-pk');
  const reply = await s.request('GET', '/v1/project/keys', { key: k.testPk });
  expect([401, 403]).toContain(reply.status);
  expect(JSON.stringify(reply.body)).not.toContain(k.testPk.slice(12));
});
