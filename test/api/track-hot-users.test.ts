// The users a node keeps in memory for the track path (#14) never make it act on a stale user:
//   - two gateway nodes on one PostgreSQL, a device's updates alternating between them: each node's copy
//     is stale whenever the other tracked last, and the events are exactly those of one node alone (one
//     entry per entry, one exit per exit);
//   - on one node, a user deleted (DELETE /v1/users/:id) or changed (PUT /v1/users/:id/fraud) between two
//     updates is seen by the next update: the deleted user does not come back, the block applies.
// The two nodes run in this test process, each with its own store, connection pool, lock session and
// copies of users, as two processes would.
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv, type GatewayConfig } from '../../server/config';
import { silentLogger } from '../../ports/logger';
import { DATABASE_URL, describeWithPostgres, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { eachStore } from '../support/each-store';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const FENCE = { lat: 48.8566, lng: 2.3522 };
const INSIDE = { latitude: FENCE.lat, longitude: FENCE.lng };
// About 1.1 km north: well outside a 100 m circle.
const OUTSIDE = { latitude: FENCE.lat + 0.01, longitude: FENCE.lng };

async function createFence(server: TestServer): Promise<void> {
  const r = await server.request('PUT', '/v1/geofences/shop/s1', {
    key: server.keys.testSk, body: { description: 'Shop', type: 'circle', coordinates: [FENCE.lng, FENCE.lat], radius: 100 },
  });
  expect(r.status).toBe(200);
}

interface TrackReply {
  status: number;
  events: string[];
  user: { _id: string; geofences: Array<{ externalId: string }>; fraud?: { blocked?: boolean } };
}

async function trackOn(url: string, key: string, userId: string, where: { latitude: number; longitude: number }): Promise<TrackReply> {
  const r = await fetch(`${url}/v1/track`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId: `device-${userId}`, userId, ...where, accuracy: 5, foreground: true }),
  });
  const body = (await r.json()) as { events?: Array<{ type: string }>; user: TrackReply['user'] };
  return { status: r.status, events: (body.events ?? []).map((e) => e.type), user: body.user };
}

describe.each(eachStore('hot users on one node'))('one node, %s: a user changed between two updates', (_store, config) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(config());
    await createFence(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  const track = (userId: string, where: typeof INSIDE) => trackOn(server.url, server.keys.testPk, userId, where);

  test('a deleted user does not come back: the next update creates a new one', async () => {
    const { kept } = server.running.gateway.shared.track.hotUsers;
    // A new user is kept from its first update on, under its userId's key (though that update locked the device's).
    expect((await track('deleted-one', OUTSIDE)).events).toEqual([]);
    expect(server.running.gateway.shared.track.hotUsers.kept).toBe(kept + 1);
    const { used } = server.running.gateway.shared.track.hotUsers;
    const first = await track('deleted-one', INSIDE);
    expect([first.status, first.events]).toEqual([200, ['user.entered_geofence']]);
    expect(server.running.gateway.shared.track.hotUsers).toMatchObject({ kept: kept + 1, used: used + 1 });
    expect((await server.request('DELETE', '/v1/users/deleted-one', { key: server.keys.testSk })).status).toBe(200);

    const again = await track('deleted-one', INSIDE);
    // A new user: its own _id, and its own first entry (the old user's visit went with it).
    expect(again.status).toBe(200);
    expect(again.user._id).not.toBe(first.user._id);
    expect(again.events).toEqual(['user.entered_geofence']);
    const stored = await server.request('GET', '/v1/users/deleted-one', { key: server.keys.testSk });
    expect(stored.body.user._id).toBe(again.user._id);
    expect(stored.body.user._rev).toBeUndefined();
    expect((await server.request('GET', `/v1/users/${first.user._id}`, { key: server.keys.testSk })).status).toBe(404);
    // And it leaves from the state the new user was written with.
    expect((await track('deleted-one', OUTSIDE)).events).toEqual(['user.exited_geofence']);
  });

  test("updates with only a deviceId use the copy only while its user is the device's newest", async () => {
    const device = (body: Record<string, unknown>) => fetch(`${server.url}/v1/track`, {
      method: 'POST',
      headers: { authorization: server.keys.testPk, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'shared-device', ...INSIDE, accuracy: 5, ...body }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { user: { _id: string; userId?: string; updatedAt: string } } }));
    const stats = () => server.running.gateway.shared.track.hotUsers;
    const bob = await device({ userId: 'bob' });
    expect(bob.status).toBe(200);
    // The device's newest user is bob, at the revision this node kept: both updates start from the copy.
    let used = stats().used;
    let bobLast = bob;
    for (let i = 0; i < 2; i++) {
      bobLast = await device({});
      expect([bobLast.status, bobLast.body.user._id, bobLast.body.user.userId]).toEqual([200, bob.body.user._id, 'bob']);
      expect(stats().used).toBe(++used);
    }
    // Another user on the same device becomes its newest user; bob's copy stays as it was.
    const carol = await device({ userId: 'carol' });
    expect(carol.body.user._id).not.toBe(bob.body.user._id);
    // Acting on bob's copy would move bob; the update is carol's, as a read of the store says.
    const next = await device({});
    expect([next.status, next.body.user._id, next.body.user.userId]).toEqual([200, carol.body.user._id, 'carol']);
    const stored = await server.request('GET', '/v1/users/bob', { key: server.keys.testSk });
    expect(stored.body.user.updatedAt).toBe(bobLast.body.user.updatedAt);
  });

  test('a fraud block set between two updates holds back the next one', async () => {
    expect((await server.request('PATCH', '/v1/project/settings', { key: server.keys.testSk, body: { fraud: true } })).status).toBe(200);
    try {
      await track('blocked-one', OUTSIDE);
      const first = await track('blocked-one', OUTSIDE);
      expect([first.status, first.user.fraud?.blocked]).toEqual([200, false]);
      const set = await server.request('PUT', '/v1/users/blocked-one/fraud', { key: server.keys.testSk, body: { blocked: true } });
      expect(set.body.fraudOverride).toEqual({ bypassed: false, blocked: true });
      // A copy from before the block would let this entry through.
      const next = await track('blocked-one', INSIDE);
      expect([next.status, next.user.fraud?.blocked, next.events, next.user.geofences]).toEqual([200, true, ['user.failed_fraud'], []]);
    } finally {
      await server.request('PATCH', '/v1/project/settings', { key: server.keys.testSk, body: { fraud: false } });
    }
  });
});

describeWithPostgres('two gateway nodes on one PostgreSQL')('two nodes, one device alternating between them', () => {
  const schema = freshSchemaName();
  let nodeA: TestServer;
  let nodeB: RunningServer;
  beforeAll(async () => {
    const shared: Partial<GatewayConfig> = { store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema, rateLimitScale: 0 };
    nodeA = await startTestServer(shared);
    nodeB = await startServer(
      { ...configFromEnv({}), port: 0, host: '127.0.0.1', logRequests: false, jobIntervalMs: 0, dataDir: tempDataDir(), ...shared },
      silentLogger(),
    );
    await createFence(nodeA);
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await dropSchemas([schema]);
  });

  test('exactly one entry per entry and one exit per exit, whichever node each update reaches', async () => {
    const A = nodeA.url;
    const B = nodeB.url;
    // [node, where, the events one node alone would give]
    const steps: Array<[string, typeof INSIDE, string[]]> = [
      [A, OUTSIDE, []],
      [B, OUTSIDE, []],
      [B, INSIDE, ['user.entered_geofence']],
      // A's copy says outside: acting on it would enter again.
      [A, INSIDE, []],
      // B's copy says inside (as does the store), but A wrote last: B must notice and still exit once.
      [B, OUTSIDE, ['user.exited_geofence']],
      // A's copy says inside: acting on it would exit again.
      [A, OUTSIDE, []],
      [A, INSIDE, ['user.entered_geofence']],
      [B, INSIDE, []],
      [A, OUTSIDE, ['user.exited_geofence']],
      [B, OUTSIDE, []],
      [B, INSIDE, ['user.entered_geofence']],
      [A, OUTSIDE, ['user.exited_geofence']],
    ];
    const got: Array<[number, string, number, string[]]> = [];
    let userObjectId: string | undefined;
    for (const [i, [node, where]] of steps.entries()) {
      const r = await trackOn(node, nodeA.keys.testPk, 'walker', where);
      got.push([i, node === A ? 'A' : 'B', r.status, r.events]);
      userObjectId ??= r.user._id;
      expect([i, r.user._id]).toEqual([i, userObjectId]);
    }
    expect(got).toEqual(steps.map(([node, , events], i) => [i, node === A ? 'A' : 'B', 200, events]));
    // Each node keeps the user from its first update there on (A from step 0, which created it; B from
    // step 1) and found its copy stale exactly when the other node had written since: A at steps 3, 5, 8
    // and 11 (fresh at 6), B at steps 4, 7 and 9 (fresh at 2 and 10).
    const stats = [nodeA.running.gateway.shared.track.hotUsers, nodeB.gateway.shared.track.hotUsers];
    expect(stats).toEqual([{ kept: 1, used: 5, stale: 4 }, { kept: 1, used: 5, stale: 3 }]);

    // The store holds what the responses said: three entries and three exits, and the user outside.
    const events = await nodeA.request('GET', '/v1/events', { key: nodeA.keys.testSk, query: { limit: 100 } });
    const types = (events.body.events as Array<{ type: string }>).map((e) => e.type).sort();
    expect(types).toEqual(['user.entered_geofence', 'user.entered_geofence', 'user.entered_geofence', 'user.exited_geofence', 'user.exited_geofence', 'user.exited_geofence']);
    const inside = await nodeA.request('GET', '/v1/geofences/shop/s1/users', { key: nodeA.keys.testSk });
    expect(inside.status).toBe(200);
    expect(inside.body.users).toEqual([]);
  });
});
