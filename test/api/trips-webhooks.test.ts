// Trip events reach webhooks whichever way they are made: in a track update, by POST with a status,
// by PATCH and by the expiry job. A real receiver on 127.0.0.1, deliveries in order.
import { startTestServer, type TestServer } from '../support/server';
import { fastWebhooks } from './webhooks-config';
import { startReceiver, type Received, type TestReceiver } from './webhooks-receiver';
import { FAR, NEAR, putStore, track } from './trips-helpers';

let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ webhooks: fastWebhooks() });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

interface Delivered {
  type: string;
  tripStatus?: string;
  userTrip?: string;
}

/** Every event delivered on `path`, in delivery order (single and batched payloads alike). */
function delivered(path: string): Delivered[] {
  return receiver.received.filter((r: Received) => r.path === path).flatMap((r) => {
    const events = r.json.events ?? [r.json.event];
    return events.map((e: { type: string; trip?: { status: string } }) => ({ type: e.type, tripStatus: e.trip?.status, userTrip: r.json.user?.trip?.status }));
  });
}

test('started (POST), updated and approaching (track), stopped (PATCH) and stopped (expiry) are all delivered', async () => {
  const keys = await server.newProject('trip-hooks');
  await putStore(server, keys.testSk);
  const path = '/trip-hooks';
  const hook = await server.request('POST', '/v1/webhooks', { key: keys.testSk, body: { url: receiver.url + path } });
  expect(hook.status).toBe(200);

  await track(server, keys.testPk, 'rider', FAR);
  const created = await server.request('POST', '/v1/trips', {
    key: keys.testPk, body: { externalId: 'hooked', userId: 'rider', status: 'started', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'store-1' },
  });
  expect(created.status).toBe(200);
  await track(server, keys.testPk, 'rider', NEAR);
  await server.request('PATCH', '/v1/trips/hooked/update', { key: keys.testPk, body: { status: 'completed' } });

  // A second trip left to expire.
  const expiring = await server.request('POST', '/v1/trips', { key: keys.testPk, body: { externalId: 'left', userId: 'rider', status: 'started' } });
  const job = server.running.gateway.installed.features.get('trips')?.jobs?.find((j) => j.job.name === 'trip-expiry')?.job;
  expect(await job?.run(new Date(Date.parse(expiring.body.trip.updatedAt) + 25 * 3_600_000))).toBe(1);

  await receiver.waitFor(() => delivered(path).length >= 6, 10_000, 'six trip events');
  expect(delivered(path)).toEqual([
    { type: 'user.started_trip', tripStatus: 'started', userTrip: 'started' },
    { type: 'user.updated_trip', tripStatus: 'started', userTrip: 'approaching' },
    { type: 'user.approaching_trip_destination', tripStatus: 'approaching', userTrip: 'approaching' },
    { type: 'user.stopped_trip', tripStatus: 'completed', userTrip: undefined },
    { type: 'user.started_trip', tripStatus: 'started', userTrip: 'started' },
    { type: 'user.stopped_trip', tripStatus: 'expired', userTrip: undefined },
  ]);
});
