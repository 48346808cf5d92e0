// GET /v1/trips: every filter of the spec, sorting, includeLocations, limit and hasMore, over a fixed
// set of trips in known states.
import { startTestServer, type TestServer } from '../support/server';
import { FAR, putStore, track } from './trips-helpers';

let server: TestServer;
let sk: string;
let pk: string;
/** externalId → the trip as created. */
const trips: Record<string, { _id: string; createdAt: string }> = {};
let userA = '';

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  server = await startTestServer();
  ({ testPk: pk, testSk: sk } = server.keys);
  await putStore(server, sk, 'store-1');
  await putStore(server, sk, 'store-2');
  userA = (await track(server, pk, 'user-a', FAR)).body.user._id;
  const create = async (body: Record<string, unknown>) => {
    const r = await server.request('POST', '/v1/trips', { key: pk, body });
    expect(r.status).toBe(200);
    trips[body.externalId as string] = r.body.trip;
    await pause(); // distinct createdAt values for the cursor tests
  };
  // a: pending, store-1, user-a (tracked)     b: started, store-2, user-b, already late
  // c: completed, no destination              d: canceled, warehouse
  await create({ externalId: 'a', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1', userId: 'user-a' });
  await create({ externalId: 'b', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-2', userId: 'user-b', status: 'started', scheduledArrivalAt: new Date(Date.now() - 30 * 60_000).toISOString() });
  await create({ externalId: 'c' });
  await create({ externalId: 'd', destinationGeofenceTag: 'warehouse', destinationGeofenceExternalId: 'w-1' });
  await server.request('PATCH', '/v1/trips/c/update', { key: pk, body: { status: 'completed' } });
  await pause();
  await server.request('PATCH', '/v1/trips/d/update', { key: pk, body: { status: 'canceled' } });
  await pause();
  // b takes a location, so includeLocations has something to show.
  await track(server, pk, 'user-b', FAR);
  await pause();
  // a is touched last: updatedAt order differs from createdAt order.
  await server.request('PATCH', '/v1/trips/a/update', { key: pk, body: { status: 'pending', metadata: { touched: true } } });
});
afterAll(async () => {
  await server.close();
});

async function list(query: Record<string, string | number | boolean>) {
  const r = await server.request('GET', '/v1/trips', { key: sk, query });
  expect(r.status).toBe(200);
  return { ids: r.body.trips.map((t: { externalId: string }) => t.externalId) as string[], body: r.body };
}

test.each([
  ['no filter: all, newest update first', {}, ['a', 'b', 'd', 'c']],
  ['sortBy createdAt: newest creation first', { sortBy: 'createdAt' }, ['d', 'c', 'b', 'a']],
  ['sortBy updatedAt (the default, explicit)', { sortBy: 'updatedAt' }, ['a', 'b', 'd', 'c']],
  ['one status', { status: 'pending' }, ['a']],
  ['status list', { status: 'started,completed' }, ['b', 'c']],
  ['stopped statuses', { status: 'completed,canceled,expired' }, ['d', 'c']],
  ['destinationGeofenceTag', { destinationGeofenceTag: 'store' }, ['a', 'b']],
  ['destinationGeofenceExternalId', { destinationGeofenceExternalId: 'store-2' }, ['b']],
  ['tag and externalId together', { destinationGeofenceTag: 'warehouse', destinationGeofenceExternalId: 'w-1' }, ['d']],
  ['externalId list', { externalId: 'a,c,zzz' }, ['a', 'c']],
  ['userId by the user\'s userId', { userId: 'user-b' }, ['b']],
  ['userId unknown', { userId: 'nobody' }, []],
  ['delayed true', { delayed: true }, ['b']],
  ['delayed false', { delayed: false }, ['a', 'd', 'c']],
  ['filters combine', { status: 'pending,started', destinationGeofenceTag: 'store', delayed: false }, ['a']],
])('%s', async (_name, query, expected) => {
  expect((await list(query)).ids).toEqual(expected);
});

test('userId by the service _id of the user (the spec\'s form)', async () => {
  expect((await list({ userId: userA })).ids).toEqual(['a']);
});

test('createdAfter / createdBefore are exclusive datetime cursors', async () => {
  expect((await list({ createdAfter: trips.b.createdAt, sortBy: 'createdAt' })).ids).toEqual(['d', 'c']);
  expect((await list({ createdBefore: trips.c.createdAt, sortBy: 'createdAt' })).ids).toEqual(['b', 'a']);
  expect((await list({ createdAfter: trips.a.createdAt, createdBefore: trips.d.createdAt, sortBy: 'createdAt' })).ids).toEqual(['c', 'b']);
});

test('includeLocations: omitted by default, included on request', async () => {
  const plain = await list({ externalId: 'b' });
  expect(plain.body.trips[0]).not.toHaveProperty('locations');
  const full = await list({ externalId: 'b', includeLocations: true });
  expect(full.body.trips[0].locations).toHaveLength(1);
  expect(full.body.trips[0].locations[0].coordinates).toEqual([FAR.lng, Math.round(FAR.lat * 1e6) / 1e6]);
});

test('the delay of a late trip is on the listed trip', async () => {
  const { body } = await list({ externalId: 'b' });
  expect(body.trips[0].delay.delayed).toBe(true);
  expect(body.trips[0].delay.scheduledArrivalTimeDelay).toBeGreaterThan(30);
});

test('limit and hasMore', async () => {
  const two = await list({ limit: 2 });
  expect(two.ids).toEqual(['a', 'b']);
  expect(two.body.meta).toEqual({ code: 200, hasMore: true });
  const four = await list({ limit: 4 });
  expect(four.body.meta.hasMore).toBe(false);
  expect((await list({})).body.meta.hasMore).toBe(false);
});

test('test and live lists never mix', async () => {
  const r = await server.request('GET', '/v1/trips', { key: server.keys.liveSk });
  expect(r.body.trips).toEqual([]);
});

test.each([
  ['limit 0', { limit: 0 }, 'limit', 'limit must be between 1 and 1000'],
  ['limit 1001', { limit: 1001 }, 'limit', 'limit must be between 1 and 1000'],
  ['limit not an integer', { limit: 2.5 }, 'limit', 'limit must be an integer'],
  ['unknown status', { status: 'started,lost' }, 'status', 'status must be a comma-separated list of pending, started, approaching, arrived, completed, canceled, expired ("lost" is not one)'],
  ['bad sortBy', { sortBy: 'externalId' }, 'sortBy', 'sortBy must be one of createdAt, updatedAt'],
  ['bad delayed', { delayed: 'maybe' }, 'delayed', 'delayed must be a boolean (true or false)'],
  ['bad includeLocations', { includeLocations: 'all' }, 'includeLocations', 'includeLocations must be a boolean (true or false)'],
  ['bad createdAfter', { createdAfter: 'last week' }, 'createdAfter', 'createdAfter must be a date or an ISO 8601 datetime'],
])('list rejects %s', async (_name, query, param, message) => {
  const r = await server.request('GET', '/v1/trips', { key: sk, query });
  expect(r.status).toBe(400);
  expect(r.body.meta).toEqual({ code: 400, param, message });
});
