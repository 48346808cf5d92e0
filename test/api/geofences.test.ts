// Geofence endpoints over HTTP: create/upsert/get/delete in both address forms, list filters, search by
// distance, validation through the API, expiry, and the index staying current for track.
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let sk: string;
let pk: string;

beforeAll(async () => {
  server = await startTestServer();
  sk = server.keys.testSk;
  pk = server.keys.testPk;
});
afterAll(async () => {
  await server.close();
});

const circle = (lng: number, lat: number, extra: Record<string, unknown> = {}) => ({ description: 'c', type: 'circle', coordinates: [lng, lat], radius: 100, ...extra });

test('create by POST, then upsert by tag/externalId keeps _id and createdAt', async () => {
  const created = await server.request('POST', '/v1/geofences', { key: sk, body: { tag: 'store', externalId: '1', ...circle(-73.99, 40.73, { metadata: { open: true } }) } });
  expect(created.status).toBe(200);
  const g = created.body.geofence;
  expect(g).toMatchObject({ tag: 'store', externalId: '1', type: 'circle', geometryRadius: 100, enabled: true, live: false, metadata: { open: true } });
  expect(g.geometryCenter).toEqual({ type: 'Point', coordinates: [-73.99, 40.73] });
  expect(g.geometry.type).toBe('Polygon');
  expect(g.geometry.coordinates[0]).toHaveLength(33);
  expect(g.projectId).toBeUndefined();

  const updated = await server.request('PUT', '/v1/geofences/store/1', { key: sk, form: true, body: { description: 'renamed', type: 'circle', coordinates: JSON.stringify([-73.99, 40.73]), radius: '250', enabled: 'false' } });
  expect(updated.status).toBe(200);
  expect(updated.body.geofence).toMatchObject({ _id: g._id, createdAt: g.createdAt, description: 'renamed', geometryRadius: 250, enabled: false });
  expect(updated.body.geofence.metadata).toBeUndefined();

  const byId = await server.request('PUT', `/v1/geofences/${g._id}`, { key: sk, body: circle(-73.99, 40.73, { description: 'by id' }) });
  expect(byId.body.geofence).toMatchObject({ _id: g._id, tag: 'store', externalId: '1', description: 'by id' });

  for (const path of [`/v1/geofences/${g._id}`, '/v1/geofences/store/1']) {
    const got = await server.request('GET', path, { key: sk });
    expect(got.body.geofence._id).toBe(g._id);
  }
});

test('PUT by an unknown _id is 404 and creates nothing', async () => {
  const r = await server.request('PUT', '/v1/geofences/0123456789abcdef01234567', { key: sk, body: circle(1, 1) });
  expect(r.status).toBe(404);
  expect(r.body.meta.param).toBe('id');
});

test.each([
  ['missing description', { type: 'circle', coordinates: [1, 1], radius: 100 }, 'description'],
  ['bad type', { description: 'x', type: 'square', coordinates: [1, 1], radius: 100 }, 'type'],
  ['radius too small', { description: 'x', type: 'circle', coordinates: [1, 1], radius: 9 }, 'radius'],
  ['radius too large', { description: 'x', type: 'circle', coordinates: [1, 1], radius: 10001 }, 'radius'],
  ['open polygon', { description: 'x', type: 'polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, 'coordinates'],
  ['17 metadata keys', { ...circle(1, 1), metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 1])) }, 'metadata'],
  ['bad ip range', { ...circle(1, 1), ip: '300.1.1.1' }, 'ip'],
  ['bad operating hours', { ...circle(1, 1), operatingHours: { Funday: [['08:00', '10:00']] } }, 'operatingHours'],
  // No extract imported: the road network reaches nothing from the destination.
  ['isochrone outside every road network', { description: 'x', type: 'isochrone', coordinates: [1, 1], radius: 10, mode: 'car' }, 'coordinates'],
])('upsert rejects %s with its param, and writes nothing', async (_name, body, param) => {
  const r = await server.request('PUT', '/v1/geofences/bad/one', { key: sk, body });
  expect(r.status).toBe(400);
  expect(r.body.meta.param).toBe(param);
  expect(typeof r.body.meta.message).toBe('string');
  const after = await server.request('GET', '/v1/geofences/bad/one', { key: sk });
  expect(after.status).toBe(404);
});

test('list filters: tag, externalId, metadata (typed), date cursors, limit and hasMore', async () => {
  const list = (query: Record<string, string | number>) => server.request('GET', '/v1/geofences', { key: sk, query });
  await server.request('PUT', '/v1/geofences/list/a', { key: sk, body: circle(2, 2, { metadata: { tier: 1, vip: true, city: 'nyc' } }) });
  const mark = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  await server.request('PUT', '/v1/geofences/list/b', { key: sk, body: circle(2, 2.01, { metadata: { tier: '1', vip: false, city: 'nyc' } }) });

  expect((await list({ tag: 'list' })).body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['b', 'a']);
  expect((await list({ tag: 'list', externalId: 'a' })).body.geofences).toHaveLength(1);
  expect((await list({ tag: 'list', 'metadata[tier]': '1' })).body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['a']);
  expect((await list({ tag: 'list', 'metadata[vip]': 'false' })).body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['b']);
  expect((await list({ tag: 'list', 'metadata[city]': 'nyc' })).body.geofences).toHaveLength(2);
  expect((await list({ tag: 'list', updatedAfter: mark })).body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['b']);
  expect((await list({ tag: 'list', createdBefore: mark })).body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['a']);
  const page = await list({ tag: 'list', limit: 1 });
  expect(page.body.meta).toEqual({ code: 200, hasMore: true });
  expect((await list({ limit: 0 })).body.meta).toMatchObject({ code: 400, param: 'limit' });
  expect((await list({ limit: 1001 })).body.meta).toMatchObject({ code: 400, param: 'limit' });
});

test('delete in both forms; the index forgets the geofence at once', async () => {
  const a = (await server.request('PUT', '/v1/geofences/del/a', { key: sk, body: circle(10, 10) })).body.geofence;
  await server.request('PUT', '/v1/geofences/del/b', { key: sk, body: circle(10.01, 10) });
  let r = await server.request('POST', '/v1/track', { key: pk, body: { deviceId: 'del-dev', latitude: 10, longitude: 10, accuracy: 5 } });
  expect(r.body.events.map((e: { geofence: { externalId: string } }) => e.geofence.externalId)).toEqual(['a']);
  expect((await server.request('DELETE', `/v1/geofences/${a._id}`, { key: sk })).body).toEqual({ meta: { code: 200 } });
  expect((await server.request('DELETE', '/v1/geofences/del/b', { key: sk })).status).toBe(200);
  expect((await server.request('DELETE', '/v1/geofences/del/b', { key: sk })).status).toBe(404);
  // The visit of a deleted geofence ends silently.
  r = await server.request('POST', '/v1/track', { key: pk, body: { deviceId: 'del-dev', latitude: 10, longitude: 10, accuracy: 5 } });
  expect(r.body.events).toEqual([]);
  expect(r.body.user.geofences).toEqual([]);
});

test('search geofences: by distance, radius, tags, metadata, includeGeometry and the 100 limit rule', async () => {
  const at = (i: number) => [20 + i * 0.01, 20] as const;
  for (let i = 0; i < 4; i++) {
    await server.request('PUT', `/v1/geofences/${i % 2 ? 'odd' : 'even'}/s${i}`, { key: sk, body: circle(at(i)[0], at(i)[1], { metadata: { i } }) });
  }
  const search = (query: Record<string, string | number>) => server.request('GET', '/v1/search/geofences', { key: pk, query: { near: '20,20.025', ...query } });
  let r = await search({});
  expect(r.status).toBe(200);
  expect(r.body.geofences.map((g: { externalId: string }) => g.externalId).slice(0, 4)).toEqual(['s2', 's3', 's1', 's0']);
  r = await search({ radius: 1000 });
  expect(r.body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['s2', 's3']);
  r = await search({ tags: 'odd' });
  expect(r.body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['s3', 's1']);
  r = await search({ 'metadata[i]': 0 });
  expect(r.body.geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['s0']);
  r = await search({ limit: 2, includeGeometry: 'false' });
  expect(r.body.geofences).toHaveLength(2);
  expect(r.body.geofences[0].geometry).toBeUndefined();
  expect(r.body.geofences[0].geometryCenter).toBeDefined();
  expect((await search({ limit: 101 })).body.meta).toMatchObject({ code: 400, param: 'limit' });
  expect((await search({ limit: 101, includeGeometry: 'false' })).status).toBe(200);
  expect((await server.request('GET', '/v1/search/geofences', { key: pk })).body.meta).toMatchObject({ code: 400, param: 'near' });
  expect((await search({ near: '91,0' })).body.meta).toMatchObject({ code: 400, param: 'near' });
});

test('deleteAfter: the expiry job deletes the geofence, and nothing fires after the time even before the job', async () => {
  const past = new Date(Date.now() - 1000).toISOString();
  await server.request('PUT', '/v1/geofences/tmp/x', { key: sk, body: circle(30, 30, { deleteAfter: past }) });
  const r = await server.request('POST', '/v1/track', { key: pk, body: { deviceId: 'tmp-dev', latitude: 30, longitude: 30, accuracy: 5 } });
  expect(r.body.events).toEqual([]);
  expect((await server.request('GET', '/v1/geofences/tmp/x', { key: sk })).status).toBe(200);
  const deleted = await server.running.gateway.shared.geofences.deleteExpired(new Date());
  expect(deleted).toBeGreaterThanOrEqual(1);
  expect((await server.request('GET', '/v1/geofences/tmp/x', { key: sk })).status).toBe(404);
});

test('geofences of one project and environment are invisible to others', async () => {
  await server.request('PUT', '/v1/geofences/iso/1', { key: sk, body: circle(40, 40) });
  expect((await server.request('GET', '/v1/geofences/iso/1', { key: server.keys.liveSk })).status).toBe(404);
  const other = await server.newProject('other');
  expect((await server.request('GET', '/v1/geofences/iso/1', { key: other.testSk })).status).toBe(404);
  const r = await server.request('POST', '/v1/track', { key: other.testPk, body: { deviceId: 'iso-dev', latitude: 40, longitude: 40, accuracy: 5 } });
  expect(r.body.events).toEqual([]);
});

test('concurrent creates of one new (tag, externalId) make one geofence', async () => {
  const puts = Array.from({ length: 8 }, (_, i) =>
    i % 2
      ? server.request('PUT', '/v1/geofences/race/one', { key: sk, body: circle(50, 50, { description: `put ${i}` }) })
      : server.request('POST', '/v1/geofences', { key: sk, body: { tag: 'race', externalId: 'one', ...circle(50, 50, { description: `post ${i}` }) } }),
  );
  const replies = await Promise.all(puts);
  expect(replies.every((r) => r.status === 200)).toBe(true);
  expect(new Set(replies.map((r) => r.body.geofence._id)).size).toBe(1);
  const listed = await server.request('GET', '/v1/geofences', { key: sk, query: { tag: 'race' } });
  expect(listed.body.geofences).toHaveLength(1);
});

test('userIds and ip are answered as comma-separated strings (the spec types them so), and still restrict', async () => {
  const body = circle(5.5, 5.5, { userIds: ['u1', 'u2'], ip: '10.0.0.0/8, 127.0.0.1' });
  const put = await server.request('PUT', '/v1/geofences/restricted/1', { key: sk, body });
  expect(put.status).toBe(200);
  expect(put.body.geofence).toMatchObject({ userIds: 'u1,u2', ip: '10.0.0.0/8,127.0.0.1' });
  const got = await server.request('GET', '/v1/geofences/restricted/1', { key: sk });
  expect(got.body.geofence).toMatchObject({ userIds: 'u1,u2', ip: '10.0.0.0/8,127.0.0.1' });
  const listed = await server.request('GET', '/v1/geofences', { key: sk, query: { tag: 'restricted' } });
  expect(listed.body.geofences[0]).toMatchObject({ userIds: 'u1,u2', ip: '10.0.0.0/8,127.0.0.1' });
  // Restriction still applies: u3 gets no event, u1 does (the request comes from 127.0.0.1).
  const track = (userId: string) => server.request('POST', '/v1/track', { key: pk, body: { deviceId: `d-${userId}`, userId, latitude: 5.5, longitude: 5.5, accuracy: 5 } });
  const outsider = await track('u3');
  expect(outsider.status).toBe(200);
  expect(outsider.body.user.geofences).toEqual([]);
  expect((await track('u1')).body.user.geofences.map((g: { tag: string }) => g.tag)).toEqual(['restricted']);
});
