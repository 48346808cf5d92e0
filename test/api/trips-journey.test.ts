// Whole trip journeys over HTTP: the SDK flow (create, start by tripOptions, approach, arrive on the
// geofence entry, complete), the server flow (start and cancel by PATCH), expiry by the job, the user's
// `trip` field appearing and disappearing, and the trip events in order.
import { startTestServer, type TestServer } from '../support/server';
import {
  AT_STORE, FAR, MIDWAY, NEAR, STORE, putStore, track, tripTypes, types, type TripEventBody,
} from './trips-helpers';

let server: TestServer;
let pk: string;
let sk: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ testPk: pk, testSk: sk } = server.keys);
  storeId = await putStore(server, sk);
});
afterAll(async () => {
  await server.close();
});

const HOUR = 3_600_000;

async function runExpiry(at: Date): Promise<number> {
  const trips = server.running.gateway.installed.features.get('trips');
  const job = trips?.jobs?.find((j) => j.job.name === 'trip-expiry')?.job;
  if (!job) throw new Error('the trips feature has no trip-expiry job');
  return job.run(at);
}

async function tripEventsOf(externalId: string): Promise<TripEventBody[]> {
  const r = await server.request('GET', '/v1/events', { key: sk, query: { limit: 1000 } });
  expect(r.status).toBe(200);
  return (r.body.events as TripEventBody[]).filter((e) => e.trip?.externalId === externalId).reverse();
}

test('SDK flow: create pending, start by tripOptions, approach, arrive on entry, complete', async () => {
  // A user tracking before any trip has no `trip`.
  let r = await track(server, pk, 'driver-1', FAR);
  expect(r.status).toBe(200);
  expect(r.body.user.trip).toBeUndefined();
  const userObjectId = r.body.user._id;

  // POST /v1/trips as the iOS SDK sends it: approachingThreshold as a string, no status.
  const options = { externalId: 'order-1', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1', mode: 'car', metadata: { customer: 'Ada' } };
  r = await server.request('POST', '/v1/trips', { key: pk, body: { ...options, userId: 'driver-1', approachingThreshold: '5' } });
  expect(r.status).toBe(200);
  expect(r.body.meta).toEqual({ code: 200 });
  expect(r.body.events).toEqual([]);
  const created = r.body.trip;
  expect(created).toMatchObject({
    externalId: 'order-1', status: 'pending', mode: 'car', live: false, approachingThreshold: 5, userId: 'driver-1',
    destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1', metadata: { customer: 'Ada' },
    destinationLocation: { type: 'Point', coordinates: [STORE.lng, STORE.lat] },
  });
  expect(created._id).toMatch(/^[0-9a-f]{24}$/);
  expect(created.createdAt).toMatch(/\.\d{3}Z$/);
  // The user's position is known, so the ETA is too (≈ 10 km by car).
  expect(created.eta.distance).toBeGreaterThan(12_000);
  expect(created.eta.duration).toBeGreaterThan(15);
  for (const internal of ['userRef', 'expiresAt', '_lockKey', '_delayed', '_destinationGeofenceId', 'locations']) expect(created).not.toHaveProperty(internal);
  // Pending: not yet on the user.
  expect((await server.request('GET', `/v1/users/${userObjectId}`, { key: sk })).body.user.trip).toBeUndefined();

  // The first update with tripOptions starts it.
  r = await track(server, pk, 'driver-1', FAR, { tripOptions: { version: '2', ...options, approachingThreshold: '5' } });
  expect(r.status).toBe(200);
  expect(types(r.body.events)).toEqual(['user.started_trip']);
  const started = r.body.events[0];
  expect(started).toMatchObject({ live: false, user: { _id: userObjectId, userId: 'driver-1' }, trip: { _id: created._id, externalId: 'order-1', status: 'started' } });
  expect(started.location).toEqual({ type: 'Point', coordinates: [FAR.lng, FAR.lat] });
  expect(r.body.user.trip).toMatchObject({ _id: created._id, externalId: 'order-1', status: 'started', mode: 'car', destinationLocation: created.destinationLocation });
  expect(r.body.user.trip.eta.duration).toBeGreaterThan(15);

  // Moving closer, still beyond the threshold: updated only.
  r = await track(server, pk, 'driver-1', MIDWAY, { tripOptions: options });
  expect(types(r.body.events)).toEqual(['user.updated_trip']);
  expect(r.body.user.trip.status).toBe('started');
  const midwayEta = r.body.user.trip.eta.duration;
  expect(midwayEta).toBeGreaterThan(5);

  // Within 5 minutes: approaching.
  r = await track(server, pk, 'driver-1', NEAR, { tripOptions: options });
  expect(types(r.body.events)).toEqual(['user.updated_trip', 'user.approaching_trip_destination']);
  expect(r.body.events[1].trip.status).toBe('approaching');
  expect(r.body.user.trip.status).toBe('approaching');
  expect(r.body.user.trip.eta.duration).toBeLessThanOrEqual(5);
  expect(r.body.user.trip.eta.duration).toBeLessThan(midwayEta);

  // Entering the destination geofence: arrival, after the geofence entry.
  r = await track(server, pk, 'driver-1', AT_STORE, { tripOptions: options });
  expect(types(r.body.events)).toEqual(['user.entered_geofence', 'user.updated_trip', 'user.arrived_at_trip_destination']);
  expect(r.body.events[0].geofence._id).toBe(storeId);
  expect(r.body.events[2].trip).toMatchObject({ status: 'arrived' });
  expect(r.body.user.trip.status).toBe('arrived');
  expect(r.body.user.trip.arrivedAt).toMatch(/\.\d{3}Z$/);

  // Still there: an update, no second arrival.
  r = await track(server, pk, 'driver-1', AT_STORE, { tripOptions: options });
  expect(types(r.body.events)).toEqual(['user.updated_trip']);

  // The SDK completes with PATCH /v1/trips/:externalId/update.
  r = await server.request('PATCH', '/v1/trips/order-1/update', { key: pk, body: { userId: 'driver-1', status: 'completed', mode: 'car' } });
  expect(r.status).toBe(200);
  expect(r.body.trip).toMatchObject({ _id: created._id, status: 'completed' });
  expect(r.body.trip.completedAt).toMatch(/\.\d{3}Z$/);
  expect(types(r.body.events)).toEqual(['user.stopped_trip']);
  expect(r.body.events[0]).toMatchObject({ user: { _id: userObjectId }, trip: { status: 'completed' } });

  // Gone from the user at once, and from the next update's answer.
  expect((await server.request('GET', `/v1/users/${userObjectId}`, { key: sk })).body.user.trip).toBeUndefined();
  r = await track(server, pk, 'driver-1', NEAR);
  expect(tripTypes(r.body.events)).toEqual([]);
  expect(r.body.user.trip).toBeUndefined();

  // Stale tripOptions (the SDK had not heard yet) never reopen a stopped trip.
  r = await track(server, pk, 'driver-1', NEAR, { tripOptions: options });
  expect(tripTypes(r.body.events)).toEqual([]);
  expect(r.body.user.trip).toBeUndefined();
  const all = await server.request('GET', '/v1/trips', { key: sk, query: { externalId: 'order-1' } });
  expect(all.body.trips).toHaveLength(1);

  // The stored trip: locations only when asked, one per update while active, oldest first.
  const plain = await server.request('GET', '/v1/trips/order-1', { key: sk });
  expect(plain.body.trip.locations).toBeUndefined();
  const full = await server.request('GET', `/v1/trips/${created._id}`, { key: sk, query: { includeLocations: true } });
  expect(full.body.trip.status).toBe('completed');
  expect(full.body.trip.user).toMatchObject({ _id: userObjectId, userId: 'driver-1' });
  // Kept to six decimals of a degree (~0.1 m).
  const sixDecimals = (x: number) => Math.round(x * 1e6) / 1e6;
  expect(full.body.trip.locations.map((l: { coordinates: number[] }) => l.coordinates[1])).toEqual([FAR.lat, MIDWAY.lat, NEAR.lat, AT_STORE.lat, AT_STORE.lat].map(sixDecimals));
  expect(full.body.trip.locations[0]).toMatchObject({ type: 'Point', coordinates: [STORE.lng, sixDecimals(FAR.lat)], locationAccuracy: 5 });
  expect(full.body.trip.locations[0].updatedAt).toMatch(/\.\d{3}Z$/);
  expect(full.body.trip).not.toHaveProperty('_trail');
  expect(full.body.trip.arrivedAt <= full.body.trip.completedAt).toBe(true);

  // Every trip event is stored, in order, each carrying the trip.
  expect(types(await tripEventsOf('order-1'))).toEqual([
    'user.started_trip', 'user.updated_trip', 'user.updated_trip', 'user.approaching_trip_destination',
    'user.updated_trip', 'user.arrived_at_trip_destination', 'user.updated_trip', 'user.stopped_trip',
  ]);
});

test('server flow: created for a user who has not tracked yet, started and canceled by PATCH', async () => {
  let r = await server.request('POST', '/v1/trips', { key: sk, body: { externalId: 'order-2', userId: 'driver-2', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1' } });
  expect(r.body.trip).toMatchObject({ status: 'pending', userId: 'driver-2' });
  expect(r.body.trip.eta).toBeUndefined();

  // The first update links the trip to the new user but does not start it.
  r = await track(server, pk, 'driver-2', FAR);
  expect(tripTypes(r.body.events)).toEqual([]);
  expect(r.body.user.trip).toBeUndefined();
  const userObjectId = r.body.user._id;
  const byUser = await server.request('GET', '/v1/trips', { key: sk, query: { userId: userObjectId } });
  expect(byUser.body.trips.map((t: { externalId: string }) => t.externalId)).toEqual(['order-2']);

  // PATCH started: event now, user.trip now (with an ETA from the user's last position).
  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'started', metadata: { car: 'blue' } } });
  expect(r.status).toBe(200);
  expect(types(r.body.events)).toEqual(['user.started_trip']);
  expect(r.body.trip).toMatchObject({ status: 'started', metadata: { car: 'blue' } });
  expect(r.body.trip.eta.duration).toBeGreaterThan(15);
  let user = (await server.request('GET', `/v1/users/${userObjectId}`, { key: sk })).body.user;
  expect(user.trip).toMatchObject({ externalId: 'order-2', status: 'started', metadata: { car: 'blue' } });

  // Updates of the trip's user (matched by userId, no tripOptions) move it.
  r = await track(server, pk, 'driver-2', MIDWAY);
  expect(types(r.body.events)).toEqual(['user.updated_trip']);
  expect(r.body.user.trip.status).toBe('started');

  // Asking for an earlier active status keeps the status and updates the fields.
  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'arrived' } });
  expect(r.body.trip.status).toBe('arrived');
  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'started', metadata: { car: 'red' } } });
  expect(r.status).toBe(200);
  expect(r.body.trip).toMatchObject({ status: 'arrived', metadata: { car: 'red' } });
  expect(types(r.body.events)).toEqual(['user.updated_trip']);

  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, form: true, body: { status: 'canceled' } });
  expect(r.status).toBe(200);
  expect(r.body.trip.status).toBe('canceled');
  expect(types(r.body.events)).toEqual(['user.stopped_trip']);
  user = (await server.request('GET', `/v1/users/${userObjectId}`, { key: sk })).body.user;
  expect(user.trip).toBeUndefined();

  // Nothing leaves canceled; repeating it is a harmless no-op.
  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'started' } });
  expect(r.status).toBe(409);
  expect(r.body.meta).toMatchObject({ code: 409, param: 'status', message: 'trip is canceled; a canceled trip cannot change status (asked for started)' });
  r = await server.request('PATCH', '/v1/trips/order-2/update', { key: pk, body: { status: 'canceled' } });
  expect(r.status).toBe(200);
  expect(r.body.events).toEqual([]);

  expect(types(await tripEventsOf('order-2'))).toEqual([
    'user.started_trip', 'user.updated_trip', 'user.arrived_at_trip_destination', 'user.updated_trip', 'user.stopped_trip',
  ]);
});

test('an active trip cannot go back to pending', async () => {
  await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-3', status: 'started' } });
  const r = await server.request('PATCH', '/v1/trips/order-3/update', { key: pk, body: { status: 'pending' } });
  expect(r.status).toBe(409);
  expect(r.body.meta).toMatchObject({ param: 'status', message: 'trip is started; a started trip cannot go back to pending' });
  expect((await server.request('GET', '/v1/trips/order-3', { key: sk })).body.trip.status).toBe('started');
});

test('tripOptions naming an unknown trip starts a new one for the user', async () => {
  const r = await track(server, pk, 'driver-4', NEAR, {
    tripOptions: { externalId: 'order-4', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1', mode: 'foot', approachingThreshold: 'soon' },
  });
  expect(r.status).toBe(200);
  expect(types(r.body.events)).toEqual(['user.started_trip']);
  // foot at 5 km/h: 1.5 km is ~23 minutes, so not approaching; the unusable threshold was dropped.
  expect(r.body.user.trip).toMatchObject({ externalId: 'order-4', status: 'started', mode: 'foot', userId: 'driver-4' });
  expect(r.body.user.trip.approachingThreshold).toBeUndefined();
  expect(r.body.user.trip.eta.duration).toBeGreaterThan(20);
});

test('a trip started inside its destination arrives on the next update', async () => {
  await track(server, pk, 'driver-5', AT_STORE);
  let r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-5', userId: 'driver-5', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1' } });
  expect(types(r.body.events)).toEqual(['user.started_trip']);
  r = await track(server, pk, 'driver-5', AT_STORE);
  // No entry this time (already inside), but inside counts.
  expect(types(r.body.events)).toEqual(['user.updated_trip', 'user.approaching_trip_destination', 'user.arrived_at_trip_destination']);
  expect(r.body.user.trip.status).toBe('arrived');
});

test('threshold precedence: the destination geofence threshold applies when the trip has none', async () => {
  await putStore(server, sk, 'store-15', { tripApproachingThreshold: 15 });
  await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-6', userId: 'driver-6', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-15' } });
  await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-7', userId: 'driver-7', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-15', approachingThreshold: 3 } });
  await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-8', userId: 'driver-8', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1' } });
  // ~11.7 minutes away: within the geofence's 15, beyond the trip's 3 and the project's 5.
  const six = await track(server, pk, 'driver-6', MIDWAY);
  const seven = await track(server, pk, 'driver-7', MIDWAY);
  const eight = await track(server, pk, 'driver-8', MIDWAY);
  expect(six.body.user.trip.status).toBe('approaching');
  expect(seven.body.user.trip.status).toBe('started');
  expect(eight.body.user.trip.status).toBe('started');
});

test('the project threshold setting applies when neither trip nor geofence has one', async () => {
  await server.request('PATCH', '/v1/project/settings', { key: sk, body: { tripApproachingThreshold: 12 } });
  try {
    await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-9', userId: 'driver-9', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1' } });
    const r = await track(server, pk, 'driver-9', MIDWAY);
    expect(r.body.user.trip.status).toBe('approaching');
  } finally {
    await server.request('PATCH', '/v1/project/settings', { key: sk, body: { tripApproachingThreshold: 5 } });
  }
});

test('delay: a scheduled arrival the ETA cannot make is delayed, by how much', async () => {
  const now = Date.now();
  await server.request('POST', '/v1/trips', {
    key: pk, body: { externalId: 'order-10', userId: 'driver-10', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1', scheduledArrivalAt: new Date(now + 5 * 60_000).toISOString() },
  });
  let r = await track(server, pk, 'driver-10', FAR);
  // ≈19.5 minutes away, due in 5: about 14.5 minutes late.
  expect(r.body.user.trip.delay.delayed).toBe(true);
  expect(r.body.user.trip.delay.scheduledArrivalTimeDelay).toBeGreaterThan(13);
  expect(r.body.user.trip.delay.scheduledArrivalTimeDelay).toBeLessThan(16);
  r = await track(server, pk, 'driver-10', NEAR);
  expect(r.body.user.trip.delay).toEqual({ delayed: false, scheduledArrivalTimeDelay: 0 });
});

test('expiry: the job stops open trips not updated for tripExpirationHours (default 24)', async () => {
  let r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-11', userId: 'driver-11', status: 'started' } });
  const tripId = r.body.trip._id;
  r = await track(server, pk, 'driver-11', FAR);
  expect(r.body.user.trip.status).toBe('started');
  const userObjectId = r.body.user._id;
  const lastUpdate = Date.parse(r.body.user.trip.updatedAt);

  expect(await runExpiry(new Date(lastUpdate + 23 * HOUR))).toBe(0);
  expect((await server.request('GET', `/v1/trips/${tripId}`, { key: sk })).body.trip.status).toBe('started');

  // Other open trips of this server (earlier tests) expire too; this one must be among them.
  expect(await runExpiry(new Date(lastUpdate + 24 * HOUR + 1000))).toBeGreaterThanOrEqual(1);
  const trip = (await server.request('GET', `/v1/trips/${tripId}`, { key: sk })).body.trip;
  expect(trip.status).toBe('expired');
  expect(trip.completedAt).toMatch(/\.\d{3}Z$/);
  expect((await server.request('GET', `/v1/users/${userObjectId}`, { key: sk })).body.user.trip).toBeUndefined();
  const events = await tripEventsOf('order-11');
  expect(types(events)).toEqual(['user.started_trip', 'user.updated_trip', 'user.stopped_trip']);
  expect(events[2]).toMatchObject({ trip: { status: 'expired' }, user: { _id: userObjectId } });

  // Expired is final, and a second run finds nothing more to do.
  r = await server.request('PATCH', `/v1/trips/${tripId}/update`, { key: pk, body: { status: 'completed' } });
  expect(r.status).toBe(409);
  expect(await runExpiry(new Date(lastUpdate + 48 * HOUR))).toBe(0);
});

test('expiry follows the project setting, read when the job runs', async () => {
  const other = await server.newProject('expiry');
  const r = await server.request('POST', '/v1/trips', { key: other.testPk, body: { externalId: 'short', status: 'pending' } });
  const created = Date.parse(r.body.trip.updatedAt);
  // Raised after the trip was written: the job honours the new value and postpones.
  await server.request('PATCH', '/v1/project/settings', { key: other.testSk, body: { tripExpirationHours: 48 } });
  await runExpiry(new Date(created + 30 * HOUR));
  expect((await server.request('GET', '/v1/trips/short', { key: other.testSk })).body.trip.status).toBe('pending');
  await runExpiry(new Date(created + 49 * HOUR));
  expect((await server.request('GET', '/v1/trips/short', { key: other.testSk })).body.trip.status).toBe('expired');
});

test('one open trip per externalId: 409, and a new one once it is stopped', async () => {
  let r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-12' } });
  expect(r.status).toBe(200);
  const first = r.body.trip._id;
  r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-12', status: 'started' } });
  expect(r.status).toBe(409);
  expect(r.body.meta).toEqual({
    code: 409, param: 'externalId', type: 'ERROR_CONFLICT',
    message: 'An open trip with externalId "order-12" already exists (status pending); complete or cancel it before creating another',
  });
  await server.request('PATCH', '/v1/trips/order-12/update', { key: pk, body: { status: 'completed' } });
  r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-12' } });
  expect(r.status).toBe(200);
  expect(r.body.trip._id).not.toBe(first);
  // The externalId now addresses the open trip; the stopped one stays reachable by _id.
  expect((await server.request('GET', '/v1/trips/order-12', { key: sk })).body.trip._id).toBe(r.body.trip._id);
  expect((await server.request('GET', `/v1/trips/${first}`, { key: sk })).body.trip.status).toBe('completed');
  // The same externalId is free in the other environment.
  expect((await server.request('POST', '/v1/trips', { key: server.keys.livePk, body: { externalId: 'order-12' } })).status).toBe(200);
});

test('concurrent creates of one externalId: exactly one wins', async () => {
  const replies = await Promise.all(Array.from({ length: 8 }, () => server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-race' } })));
  expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
});

test('delete: the trip goes, and with it the user\'s trip field', async () => {
  let r = await server.request('POST', '/v1/trips', { key: pk, body: { externalId: 'order-13', userId: 'driver-13', status: 'started' } });
  const tripId = r.body.trip._id;
  r = await track(server, pk, 'driver-13', FAR);
  expect(r.body.user.trip._id).toBe(tripId);
  const denied = await server.request('DELETE', `/v1/trips/${tripId}`, { key: pk });
  expect(denied.status).toBe(403);
  r = await server.request('DELETE', `/v1/trips/${tripId}`, { key: sk });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ meta: { code: 200 } });
  expect((await server.request('GET', `/v1/trips/${tripId}`, { key: sk })).status).toBe(404);
  expect((await server.request('GET', '/v1/users/driver-13', { key: sk })).body.user.trip).toBeUndefined();
  r = await track(server, pk, 'driver-13', FAR);
  expect(tripTypes(r.body.events)).toEqual([]);
});
