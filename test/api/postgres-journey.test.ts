// The real server on PostgreSQL (WAYMARK_STORE=postgres): a device walks into and out of a circle
// geofence over HTTP, the events are listed, and a restarted server on the same schema still knows the
// user, the events and the geofence (its in-memory index is rebuilt from the database).
import { describeWithPostgres, DATABASE_URL, dropSchemas, freshSchemaName } from '../adapters/store-postgres-support';
import { startTestServer, type TestServer } from '../support/server';

const d = describeWithPostgres();

const CAFE = { lat: 40.7831, lng: -73.9712 };
const FAR = { lat: 40.77, lng: -73.98 };

d('track journey on PostgreSQL', () => {
  const schema = freshSchemaName();
  let server: TestServer;

  const start = (): Promise<TestServer> => startTestServer({ store: 'postgres', databaseUrl: DATABASE_URL, databaseSchema: schema });
  const track = (at: { lat: number; lng: number }) => server.request('POST', '/v1/track', {
    key: server.keys.testPk, body: { deviceId: 'pg-dev', userId: 'pg-user', latitude: at.lat, longitude: at.lng, accuracy: 5 },
  });
  const eventTypes = (r: { body: { events: Array<{ type: string }> } }): string[] => r.body.events.map((e) => e.type);

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
    await dropSchemas([schema]);
  });

  test('the server runs on the PostgreSQL store', () => {
    expect(server.running.gateway.adapters.store.kind).toBe('postgres');
  });

  test('enter and exit a circle geofence; events stored and listed', async () => {
    const fence = await server.request('PUT', '/v1/geofences/venue/cafe', {
      key: server.keys.testSk, body: { description: 'Café', type: 'circle', coordinates: [CAFE.lng, CAFE.lat], radius: 100, metadata: { category: 'food' } },
    });
    expect(fence.status).toBe(200);

    let r = await track(FAR);
    expect(r.status).toBe(200);
    expect(r.body.events).toEqual([]);
    const userId = r.body.user._id;

    r = await track(CAFE);
    expect(eventTypes(r)).toEqual(['user.entered_geofence']);
    expect(r.body.events[0]).toMatchObject({ live: false, geofence: { tag: 'venue', externalId: 'cafe', metadata: { category: 'food' } } });
    expect(r.body.user.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['cafe']);

    const inside = await server.request('GET', '/v1/geofences/venue/cafe/users', { key: server.keys.testSk });
    expect(inside.body.users.map((u: { _id: string }) => u._id)).toEqual([userId]);

    r = await track(FAR);
    expect(eventTypes(r)).toEqual(['user.exited_geofence']);
    expect(typeof r.body.events[0].duration).toBe('number');

    const listed = await server.request('GET', '/v1/events', { key: server.keys.testSk });
    expect(eventTypes(listed)).toEqual(['user.exited_geofence', 'user.entered_geofence']);
    const live = await server.request('GET', '/v1/events', { key: server.keys.liveSk });
    expect(live.body.events).toEqual([]);
  });

  test('a restarted server on the same schema keeps users, events and geofences', async () => {
    await server.close();
    server = await start();
    const user = await server.request('GET', '/v1/users/pg-dev', { key: server.keys.testSk });
    expect(user.body.user).toMatchObject({ deviceId: 'pg-dev', userId: 'pg-user', geofences: [] });
    const listed = await server.request('GET', '/v1/events', { key: server.keys.testSk });
    expect(listed.body.events).toHaveLength(2);
    const r = await track(CAFE);
    expect(eventTypes(r)).toEqual(['user.entered_geofence']);
  });
});
