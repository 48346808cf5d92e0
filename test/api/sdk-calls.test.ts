// The housekeeping calls Radar's SDKs make besides track: logs, region sync, beacon search and event
// verification, with the shapes the SDKs parse.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const sk = server.keys.testSk;
  await server.request('PUT', '/v1/geofences/store/near', { key: sk, body: { description: 'near', type: 'circle', coordinates: [-73.99, 40.73], radius: 100 } });
  await server.request('PUT', '/v1/geofences/store/far', { key: sk, body: { description: 'far', type: 'circle', coordinates: [-73.0, 40.73], radius: 100 } });
  await server.request('PUT', '/v1/geofences/store/off', { key: sk, body: { description: 'off', type: 'circle', coordinates: [-73.991, 40.73], radius: 100, enabled: false } });
  const beacon = (externalId: string, lng: number) => ({ description: externalId, type: 'ibeacon', uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6', major: '1', minor: '2', coordinates: [lng, 40.73] });
  await server.request('PUT', '/v1/beacons/b/close', { key: sk, body: beacon('close', -73.9905) });
  await server.request('PUT', '/v1/beacons/b/remote', { key: sk, body: beacon('remote', -73.95) });
});
afterAll(async () => {
  await server.close();
});

test('POST /v1/logs accepts the SDK log lines', async () => {
  const r = await server.request('POST', '/v1/logs', { key: server.keys.testPk, body: { logs: [{ message: 'hi', level: 'info' }] } });
  expect(r.body).toEqual({ meta: { code: 200 } });
  const bad = await server.request('POST', '/v1/logs', { key: server.keys.testPk, body: { logs: 'nope' } });
  expect(bad.body.meta).toMatchObject({ code: 400, param: 'logs' });
});

test('POST /v1/sync/region returns enabled geofences nearby, beacons within 1 km and the region', async () => {
  const r = await server.request('POST', '/v1/sync/region', { key: server.keys.testPk, body: { latitude: 40.73, longitude: -73.99, userId: 'u1' } });
  expect(r.status).toBe(200);
  expect(r.body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['near']);
  expect(r.body.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['close']);
  expect(r.body.places).toEqual([]);
  expect(r.body.region).toEqual({ latitude: 40.73, longitude: -73.99, radius: 10000 });
  const bad = await server.request('POST', '/v1/sync/region', { key: server.keys.testPk, body: { latitude: 100, longitude: 0 } });
  expect(bad.body.meta).toMatchObject({ code: 400, param: 'latitude' });
});

test('GET /v1/search/beacons by distance and radius', async () => {
  const near = await server.request('GET', '/v1/search/beacons', { key: server.keys.testPk, query: { near: '40.73,-73.99' } });
  expect(near.body.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['close']);
  const wide = await server.request('GET', '/v1/search/beacons', { key: server.keys.testPk, query: { near: '40.73,-73.99', radius: 10000 } });
  expect(wide.body.beacons.map((b: { externalId: string }) => b.externalId)).toEqual(['close', 'remote']);
});

test('PUT /v1/events/:id/verification records the verdict on the event', async () => {
  const t = await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'v-dev', latitude: 40.73, longitude: -73.99, accuracy: 5 } });
  const id = t.body.events[0]._id;
  const r = await server.request('PUT', `/v1/events/${id}/verification`, { key: server.keys.testPk, body: { verification: 1 } });
  expect(r.body.event).toMatchObject({ _id: id, verification: 1 });
  const stored = await server.request('GET', `/v1/events/${id}`, { key: server.keys.testSk });
  expect(stored.body.event.verification).toBe(1);
  expect((await server.request('PUT', `/v1/events/${id}/verification`, { key: server.keys.testPk, body: { verification: 2 } })).body.meta).toMatchObject({ code: 400, param: 'verification' });
  expect((await server.request('PUT', '/v1/events/0123456789abcdef01234567/verification', { key: server.keys.testPk, body: { verification: 1 } })).status).toBe(404);
});
