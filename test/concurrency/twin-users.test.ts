// Issue #10.2: two first updates for one device at the same moment, one with and one without a userId,
// inside a geofence, must make one user and one entry event, on every store, over real HTTP.
import { DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, type TestServer } from '../support/server';
import { announceSkip, envVar } from '../support/requires';

const CENTER = { lat: 48.8566, lng: 2.3522 };
const DEVICES = 60;

const stores: Array<[string, () => { overrides: Record<string, unknown>; schema?: string } | undefined]> = [
  ['sqlite', () => ({ overrides: {} })],
  ['postgres', () => {
    if (!DATABASE_URL) return undefined;
    const schema = freshSchemaName();
    return { overrides: { store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema }, schema };
  }],
];
if (!DATABASE_URL) announceSkip('twin users: the PostgreSQL half', envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));

describe.each(stores)('twin first updates on %s', (name, setup) => {
  const plan = setup();
  const d = plan ? describe : describe.skip;
  d(name, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(plan!.overrides);
      const put = await server.request('PUT', '/v1/geofences/store/paris', {
        key: server.keys.testSk, body: { description: 'Paris', type: 'circle', coordinates: [CENTER.lng, CENTER.lat], radius: 500 },
      });
      expect(put.status).toBe(200);
    });
    afterAll(async () => {
      await server?.close();
      if (plan?.schema) await dropSchemas([plan.schema]);
    });

    test('with and without userId at once: one user and one entry per device', async () => {
      const track = (deviceId: string, userId?: string) => server.request('POST', '/v1/track', {
        key: server.keys.testPk,
        body: { deviceId, ...(userId ? { userId } : {}), latitude: CENTER.lat, longitude: CENTER.lng, accuracy: 10, foreground: true },
      });
      const replies = await Promise.all(
        Array.from({ length: DEVICES }, (_, i) => [track(`twin-${i}`), track(`twin-${i}`, `user-${i}`)]).flat(),
      );
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      const entries = replies.flatMap((r) => r.body.events).filter((e: { type: string }) => e.type === 'user.entered_geofence');
      const byDevice = new Map<string, number>();
      for (const e of entries) byDevice.set(e.user.deviceId, (byDevice.get(e.user.deviceId) ?? 0) + 1);
      expect([...byDevice.values()].filter((n) => n > 1)).toEqual([]);
      expect(byDevice.size).toBe(DEVICES);
      const userIds = new Set(replies.map((r) => r.body.user._id));
      expect(userIds.size).toBe(DEVICES);
      // Every device ends as one user carrying the userId it was given.
      for (let i = 0; i < DEVICES; i += 7) {
        const r = await server.request('GET', `/v1/users/twin-${i}`, { key: server.keys.testSk });
        expect(r.body.user).toMatchObject({ deviceId: `twin-${i}`, userId: `user-${i}` });
      }
    });

    test('one userId first sent from two devices at once: one user', async () => {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => [
        server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: `phone-${i}`, userId: `shared-${i}`, latitude: CENTER.lat, longitude: CENTER.lng, accuracy: 10 } }),
        server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: `tablet-${i}`, userId: `shared-${i}`, latitude: CENTER.lat, longitude: CENTER.lng, accuracy: 10 } }),
      ]).flat());
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      for (let i = 0; i < 20; i++) expect(replies[2 * i].body.user._id).toBe(replies[2 * i + 1].body.user._id);
      const entries = replies.flatMap((r) => r.body.events).filter((e: { type: string }) => e.type === 'user.entered_geofence');
      expect(entries).toHaveLength(20);
    });
  });
});
