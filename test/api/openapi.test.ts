// GET /v1/openapi.json: a valid OpenAPI 3.1 document of every route the gateway serves (checked with
// @seriousme/openapi-schema-validator), and GET /docs rendering it from local files only.
import { Validator } from '@seriousme/openapi-schema-validator';
import { ROUTE_DOCS } from '../../server/api/route-docs';
import { gatewayRoutes } from '../../server/app';
import { openApiDocument, openApiPath, routeKey } from '../../server/http/openapi';
import type { Route } from '../../server/http/route';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let routes: Route[];
let doc: any;
beforeAll(async () => {
  server = await startTestServer();
  routes = gatewayRoutes(server.running.gateway);
  const res = await fetch(`${server.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  doc = await res.json();
});
afterAll(async () => {
  await server.close();
});

test('the document is valid OpenAPI 3.1', async () => {
  const validator = new Validator();
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
});

test('every route of the table is in it, with its key level, rate rule and path parameters', () => {
  expect(routes.length).toBeGreaterThan(30);
  for (const route of routes) {
    const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    expect({ route: routeKey(route), present: op !== undefined }).toEqual({ route: routeKey(route), present: true });
    expect(op['x-waymark-auth']).toBe(route.auth);
    expect(op.security).toEqual([{ [route.auth === 'secret' ? 'secretKey' : 'publishableKey']: [] }]);
    if (route.rate) expect(op['x-waymark-rate-limit']).toMatchObject({ name: route.rate.name, perSecond: route.rate.perSecond });
    const pathParams = (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name);
    expect(pathParams).toEqual([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
  }
});

test('operation ids are unique', () => {
  const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
  expect(new Set(ids).size).toBe(ids.length);
});

test('documented parameters carry the readers\' limits', () => {
  const track = doc.paths['/v1/track'].post;
  const schema = track.requestBody.content['application/json'].schema;
  expect(schema.required).toEqual(expect.arrayContaining(['deviceId', 'latitude', 'longitude', 'accuracy']));
  expect(schema.properties.latitude).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
  const update = doc.paths['/v1/trips/{id}/update'].patch.requestBody.content['application/json'].schema;
  expect(update.required).toBeUndefined();
});

test('routes that read their input through a param spec document exactly that spec', () => {
  const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
  // The limits search/geofences enforces, not a copy that drifted (it once said 100–10000).
  expect(param('/v1/search/geofences', 'radius').schema).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 100_000_000 });
  expect(param('/v1/search/geofences', 'near')).toMatchObject({ required: true });
  expect(param('/v1/search/geofences', 'includeGeometry').schema).toMatchObject({ type: 'boolean', default: true });
  expect(param('/v1/search/geofences', 'metadata')).toMatchObject({ style: 'deepObject', explode: true });
  expect(param('/v1/geocode/forward', 'query')).toMatchObject({ required: true, schema: { type: 'string', maxLength: 512 } });
  expect(param('/v1/geocode/forward', 'layers')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array' } });
  expect(param('/v1/geocode/forward', 'lang').schema).toMatchObject({ enum: expect.arrayContaining(['en', 'fr']) });
  expect(param('/v1/geocode/forward', 'lang').schema.default).toBeUndefined();
  expect(param('/v1/geofences', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
  expect(doc.paths['/v1/geofences'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    ['limit', 'tag', 'externalId', 'createdBefore', 'createdAfter', 'updatedBefore', 'updatedAfter', 'order', 'beforeId', 'afterId', 'metadata'],
  );
});

test('a documented limit is the enforced one: one past it answers 400 naming the parameter', async () => {
  const radius = doc.paths['/v1/search/geofences'].get.parameters.find((p: { name: string }) => p.name === 'radius').schema;
  const over = await server.request('GET', '/v1/search/geofences', { key: server.keys.testPk, query: { near: '40.7,-73.9', radius: radius.maximum + 1 } });
  expect(over.status).toBe(400);
  expect(over.body.meta.param).toBe('radius');
  const within = await server.request('GET', '/v1/search/geofences', { key: server.keys.testPk, query: { near: '40.7,-73.9', radius: radius.maximum } });
  expect(within.status).toBe(200);
  const limit = doc.paths['/v1/search/autocomplete'].get.parameters.find((p: { name: string }) => p.name === 'limit').schema;
  const tooMany = await server.request('GET', '/v1/search/autocomplete', { key: server.keys.testPk, query: { query: 'main', limit: limit.maximum + 1 } });
  expect(tooMany.body.meta).toMatchObject({ code: 400, param: 'limit' });
});

test('track documents the deviceId limit it enforces (256, not the readers\' default 1024)', async () => {
  const body = doc.paths['/v1/track'].post.requestBody.content['application/json'].schema;
  expect(body.properties.deviceId).toMatchObject({ type: 'string', maxLength: 256 });
  const at = (deviceId: string) => server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId, latitude: 40.7, longitude: -73.9, accuracy: 10 } });
  expect((await at('d'.repeat(body.properties.deviceId.maxLength + 1))).body.meta).toMatchObject({ code: 400, param: 'deviceId' });
  expect((await at('d'.repeat(body.properties.deviceId.maxLength))).status).toBe(200);
});

test('every route documents its success body, which the HTTP tests validate every answer against', () => {
  const undescribed = routes.filter((route) => {
    const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
    return Object.values(op.responses).some((r: any) => /not described/.test(r.description));
  }).map(routeKey);
  expect(undescribed).toEqual([]);
  // Resources are named components, and closed: an undocumented field fails the tests that receive it.
  expect(doc.components.schemas.User).toMatchObject({ type: 'object', additionalProperties: false });
  expect(doc.paths['/v1/users/{id}'].get.responses['200'].content['application/json'].schema.properties.user).toEqual({ $ref: '#/components/schemas/User' });
});

test('every key of the side table names a route that exists (the table cannot go stale)', () => {
  const keys = new Set(routes.map(routeKey));
  expect(Object.keys(ROUTE_DOCS).filter((k) => !keys.has(k))).toEqual([]);
});

test('a route added without any documentation still appears, fully described by what it has', async () => {
  const bare: Route = { method: 'POST', path: '/v1/brand-new/:thing', auth: 'secret', rate: { name: 'new', perSecond: 5 }, handler: async () => ({}) };
  const generated: any = openApiDocument([bare], { version: '0' });
  const op = generated.paths['/v1/brand-new/{thing}'].post;
  expect(op).toMatchObject({ summary: 'POST /v1/brand-new/:thing', 'x-waymark-auth': 'secret', 'x-waymark-rate-limit': { name: 'new', perSecond: 5, per: 'key' } });
  expect((await new Validator().validate(generated)).valid).toBe(true);
});

test('GET /docs renders from local assets (no CDN)', async () => {
  const page = await fetch(`${server.url}/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  // Inline data: URIs (the favicon) load nothing; every other source is the gateway's own.
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((src) => !src.startsWith('data:'));
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources) {
    expect(src.startsWith('/')).toBe(true);
    expect((await fetch(server.url + src)).status).toBe(200);
  }
  expect(await (await fetch(`${server.url}/docs/start.js`)).text()).toMatch(/\/v1\/openapi\.json/);
});
