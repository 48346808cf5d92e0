// GET /v1/users with onTrip=true, inside=true, geofenceId (issue 33): exact, from the trips and presence rows
// rather than a scan of users. Among 12,000 users, the few on a trip or in a geofence are older than any
// scan window (5,000) and come in one request, newest update first, with meta.total; combined with
// search, fraud and each other; more linked users than the cap (10,000) are said. SQLite and PostgreSQL,
// through real HTTP.
import { put, type WriteOp } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import type { TripDoc } from '../../core/model/trip';
import { FLAGGED_USERS, PRESENCE, TRIPS, USERS } from '../../server/api/collections';
import { eachStore } from '../support/each-store';
import { startTestServer, type TestServer } from '../support/server';

const stores = eachStore('users linked filter tests');
const STORE_FENCE = 'fe'.repeat(12);
const CITY_FENCE = 'c1'.repeat(12);
const COUNT = 12_000;
// More users in the city than one request considers.
const IN_CITY = 10_004;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const at = (i: number) => new Date(START - i * 1000).toISOString();
const userIdOf = (i: number) => `u${String(i).padStart(5, '0')}`;
const idOf = (i: number) => `a${String(i).padStart(23, "0")}`;
const CLEAN = {
  verified: false, passed: true, bypassed: false, blocked: false, mocked: false, jumped: false, compromised: false, inaccurate: false, proxy: false, sharing: false,
  lastMockedAt: null, lastJumpedAt: null, lastCompromisedAt: null, lastInaccurateAt: null, lastProxyAt: null, lastSharingAt: null,
};
// On an active trip: three users among the oldest (past any scan window); 11,500 is also in the store.
const ON_TRIP = [11_200, 11_500, 11_900];
// In the store geofence (and the city): 11,500 also flagged for fraud.
const IN_STORE = [11_100, 11_500, 11_800];

describe.each(stores)('GET /v1/users linked filters on %s', (_name, config) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(config());
    const r = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'template', latitude: 39.29, longitude: -76.61, accuracy: 10 } });
    expect(r.status).toBe(200);
    const scope = { projectId: server.keys.id, live: false };
    const store = server.running.gateway.adapters.store;
    const template = (await store.findOne(USERS, scope, { deviceId: 'template' }))!;
    // The template, newest of all, links to nothing: it is in no answer below.
    const { _rev, ...base } = template;
    const fence = (_id: string, tag: string) => ({ _id, tag, externalId: tag, description: tag, type: 'circle', geometryCenter: { type: 'Point', coordinates: [-76.61, 39.29] }, geometryRadius: 100 }) as UserDoc['geofences'][number];
    const trip = (i: number, status: TripDoc['status'], userRef: string): TripDoc => ({
      _id: `e${String(i).padStart(23, "0")}`, live: false, externalId: `order-${i}`, status, mode: 'car', createdAt: at(i), updatedAt: at(i), _trail: [], _delayed: false, userRef,
    });
    const ops: WriteOp[] = [];
    for (let i = 0; i < COUNT; i++) {
      const doc: UserDoc = { ...base, _id: idOf(i), userId: userIdOf(i), deviceId: `device-${i}`, createdAt: at(i), updatedAt: at(i), actualUpdatedAt: at(i), geofences: [] };
      delete doc.trip; delete doc.fraud; delete doc.description;
      if (i >= COUNT - IN_CITY) {
        doc.geofences.push(fence(CITY_FENCE, 'city'));
        ops.push(put(PRESENCE, scope, { _id: `${doc._id}:${CITY_FENCE}`, createdAt: at(i), updatedAt: at(i), geofenceId: CITY_FENCE, userRef: doc._id }));
      }
      if (IN_STORE.includes(i)) {
        doc.geofences.push(fence(STORE_FENCE, 'store'));
        ops.push(put(PRESENCE, scope, { _id: `${doc._id}:${STORE_FENCE}`, createdAt: at(i), updatedAt: at(i), geofenceId: STORE_FENCE, userRef: doc._id }));
      }
      if (ON_TRIP.includes(i)) {
        const t = trip(i, i === 11_200 ? 'approaching' : 'started', doc._id);
        doc.trip = { _id: t._id, externalId: t.externalId, status: t.status, live: false, createdAt: t.createdAt, updatedAt: t.updatedAt } as UserDoc['trip'];
        ops.push(put(TRIPS, scope, t));
      }
      if (i === 11_500) {
        doc.fraud = { ...CLEAN, mocked: true, passed: false, lastMockedAt: at(i) };
        // The flagged-users row a track update that flags the user writes beside it.
        ops.push(put(FLAGGED_USERS, scope, { _id: doc._id, createdAt: at(i), updatedAt: at(i), userRef: doc._id }));
      }
      if (i === 11_200) doc.description = 'Night courier';
      ops.push(put(USERS, scope, doc));
    }
    // Trips that link no listed user: finished ones, one for a userId that never tracked, one whose user
    // was deleted.
    ops.push(put(TRIPS, scope, trip(1, 'completed', idOf(1))), put(TRIPS, scope, trip(2, 'canceled', idOf(2))), put(TRIPS, scope, trip(3, 'expired', idOf(3))));
    ops.push(put(TRIPS, scope, trip(4, 'started', 'userId:nobody-yet')), put(TRIPS, scope, trip(5, 'arrived', 'f'.repeat(24))));
    for (let i = 0; i < ops.length; i += 2000) await store.write(ops.slice(i, i + 2000));
  }, 120_000);
  afterAll(() => server?.close());

  const list = (query: Record<string, string | number>) => server.request('GET', '/v1/users', { key: server.keys.testSk, query });
  const ids = (body: { users: Array<{ userId?: string }> }) => body.users.map((u) => u.userId);

  test('the users on a trip, far past any scan window, in one request, newest update first, counted exactly', async () => {
    const r = await list({ onTrip: 'true' });
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([11_200, 11_500, 11_900].map(userIdOf));
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: true, capped: false, total: 3 });
    expect(r.body.meta.scanned).toBeUndefined();
  });

  test('the users inside a geofence, exactly, oldest first with order=asc', async () => {
    const r = await list({ geofenceId: STORE_FENCE, order: 'asc' });
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([11_800, 11_500, 11_100].map(userIdOf));
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: true, total: 3 });
  });

  test('a geofence nobody is in: none, exactly', async () => {
    const r = await list({ geofenceId: 'ab'.repeat(12) });
    expect(r.body.users).toEqual([]);
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: true, total: 0 });
  });

  test('limit pages the linked users; meta.next continues; meta.total counts them all', async () => {
    const first = await list({ geofenceId: STORE_FENCE, limit: 2 });
    expect(ids(first.body)).toEqual([11_100, 11_500].map(userIdOf));
    expect(first.body.meta).toMatchObject({ hasMore: true, exact: true, total: 3 });
    const second = await list({ geofenceId: STORE_FENCE, limit: 2, ...first.body.meta.next });
    expect(ids(second.body)).toEqual([userIdOf(11_800)]);
    expect(second.body.meta).toMatchObject({ hasMore: false, total: 3 });
  });

  test.each([
    ['onTrip and search (the description)', { onTrip: 'true', search: 'courier' }, [11_200]],
    ['onTrip and search (a userId start)', { onTrip: 'true', search: 'U119' }, [11_900]],
    ['geofenceId and fraud', { geofenceId: STORE_FENCE, fraud: 'true' }, [11_500]],
    ['geofenceId and fraud=false', { geofenceId: STORE_FENCE, fraud: 'false' }, [11_100, 11_800]],
    ['onTrip and geofenceId', { onTrip: 'true', geofenceId: STORE_FENCE }, [11_500]],
    ['inside and geofenceId', { inside: 'true', geofenceId: STORE_FENCE }, [11_100, 11_500, 11_800]],
    ['geofenceId and inside=false: nobody', { inside: 'false', geofenceId: STORE_FENCE }, []],
    ['geofenceId and onTrip=false', { onTrip: 'false', geofenceId: STORE_FENCE }, [11_100, 11_800]],
  ])('%s: exact, in one request', async (_label, query, want) => {
    const r = await list(query);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(want.map(userIdOf));
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: true, total: want.length });
  });

  test('a rest of the filter that matches rarely still pages through the linked users only', async () => {
    const first = await list({ onTrip: 'true', fraud: 'false', limit: 1 });
    expect(ids(first.body)).toEqual([userIdOf(11_200)]);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await list({ onTrip: 'true', fraud: 'false', limit: 1, ...first.body.meta.next });
    expect(ids(second.body)).toEqual([userIdOf(11_900)]);
  });

  test('more users inside than the cap: 10,000 considered, and said', async () => {
    const r = await list({ inside: 'true', limit: 1000 });
    expect(r.status).toBe(200);
    expect(r.body.users.length).toBe(1000);
    expect(r.body.meta).toMatchObject({ hasMore: true, exact: false, capped: true });
    expect(r.body.meta.total).toBeUndefined();
    const city = await list({ geofenceId: CITY_FENCE, limit: 10 });
    expect(city.body.meta).toMatchObject({ exact: false, capped: true });
  });

  test('onTrip and inside, where inside is capped: the users found, and the answer said not exact', async () => {
    const r = await list({ onTrip: 'true', inside: 'true' });
    expect(ids(r.body)).toEqual([11_200, 11_500, 11_900].map(userIdOf));
    expect(r.body.meta).toMatchObject({ hasMore: false, exact: false, capped: true });
  });

  test('updatedAfter bounds the linked users too', async () => {
    const r = await list({ onTrip: 'true', updatedAfter: at(11_600) });
    expect(ids(r.body)).toEqual([11_200, 11_500].map(userIdOf));
  });
});

describe.each(stores)('GET /v1/users linked filters after real updates on %s', (_name, config) => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(config()); });
  afterAll(() => server?.close());

  test('a user tracked into a geofence and given a trip is found by geofenceId and onTrip; out of it and off the trip, not', async () => {
    const { testPk: pk, testSk: sk } = server.keys;
    const fence = await server.request('POST', '/v1/geofences', { key: sk, body: { tag: 'depot', externalId: '1', description: 'Depot', type: 'circle', coordinates: [-76.61, 39.29], radius: 200 } });
    expect(fence.status).toBe(200);
    const geofenceId = fence.body.geofence._id as string;
    const track = (userId: string, lat: number, lng: number) => server.request('POST', '/v1/track', { key: pk, body: { deviceId: `d-${userId}`, userId, latitude: lat, longitude: lng, accuracy: 5 } });
    expect((await track('walker', 39.29, -76.61)).status).toBe(200);
    expect((await track('driver', 39.29, -76.61)).status).toBe(200);
    expect((await track('elsewhere', 39.5, -76.9)).status).toBe(200);
    expect((await server.request('POST', '/v1/trips', { key: sk, body: { externalId: 'order-9', userId: 'driver', status: 'started' } })).status).toBe(200);
    const list = async (query: Record<string, string>) => {
      const r = await server.request('GET', '/v1/users', { key: sk, query });
      expect(r.status).toBe(200);
      return { ids: (r.body.users as Array<{ userId: string }>).map((u) => u.userId), total: r.body.meta.total as number | undefined };
    };
    expect(await list({ geofenceId })).toEqual({ ids: ['driver', 'walker'], total: 2 });
    expect(await list({ inside: 'true' })).toEqual({ ids: ['driver', 'walker'], total: 2 });
    expect(await list({ onTrip: 'true' })).toEqual({ ids: ['driver'], total: 1 });
    expect((await track('walker', 39.5, -76.9)).status).toBe(200);
    expect((await server.request('PATCH', '/v1/trips/order-9/update', { key: sk, body: { status: 'completed' } })).status).toBe(200);
    expect(await list({ geofenceId })).toEqual({ ids: ['driver'], total: 1 });
    expect(await list({ onTrip: 'true' })).toEqual({ ids: [], total: 0 });
  });
});

