// The check every HTTP test's answers go through (test/support/openapi-check.ts) must fail on what it is
// there to catch: an undocumented field, an undocumented status, a wrong type, meta.code unlike the status.
import { openApiDocument } from '../../server/http/openapi';
import { BOOLEAN, ID, STRING, arrayOf, component, object } from '../../server/http/response-schema';
import type { Route } from '../../server/http/route';
import { openApiChecker } from '../support/openapi-check';

const THING = component('Thing', object({ _id: ID, name: STRING, note: STRING }, { optional: ['note'] }));
const routes: Route[] = [
  { method: 'GET', path: '/v1/things', auth: 'secret', handler: async () => ({}), doc: { response: { body: { things: arrayOf(THING) }, meta: { hasMore: BOOLEAN } } } },
  { method: 'GET', path: '/v1/things/:id', auth: 'secret', handler: async () => ({}), doc: { response: { body: { thing: THING } } } },
  { method: 'GET', path: '/v1/things/special', auth: 'secret', handler: async () => ({}), doc: { response: { body: { special: BOOLEAN } } } },
];
const checker = openApiChecker(JSON.stringify(openApiDocument(routes, { version: '0' })));
const thing = { _id: 'a'.repeat(24), name: 'x' };

test('documented answers pass, optional fields may be absent', () => {
  expect(() => checker.check('GET', '/v1/things', 200, { meta: { code: 200, hasMore: false }, things: [thing, { ...thing, note: 'n' }] })).not.toThrow();
  expect(() => checker.check('GET', '/v1/things/abc', 404, { meta: { code: 404, message: 'Not found', param: 'id', type: 'ERROR_NOT_FOUND' } })).not.toThrow();
  expect(() => checker.check('GET', '/v1/things/special', 200, { meta: { code: 200 }, special: true })).not.toThrow();
});

test('an undocumented field fails, and the message names it', () => {
  expect(() => checker.check('GET', '/v1/things/abc', 200, { meta: { code: 200 }, thing: { ...thing, secret: 1 } })).toThrow(/\/thing must NOT have additional properties "secret"/);
  expect(() => checker.check('GET', '/v1/things', 200, { meta: { code: 200, hasMore: false, page: 2 }, things: [] })).toThrow(/"page"/);
});

test('a missing required field, a wrong type or a bad id fails', () => {
  expect(() => checker.check('GET', '/v1/things/abc', 200, { meta: { code: 200 } })).toThrow(/must have required property 'thing'/);
  expect(() => checker.check('GET', '/v1/things/abc', 200, { meta: { code: 200 }, thing: { ...thing, name: 3 } })).toThrow(/\/thing\/name must be string/);
  expect(() => checker.check('GET', '/v1/things/abc', 200, { meta: { code: 200 }, thing: { ...thing, _id: 'nope' } })).toThrow(/_id must match pattern/);
});

test('an undocumented status fails, and so does meta.code unlike the status', () => {
  expect(() => checker.check('GET', '/v1/things', 500, { meta: { code: 500, message: 'Internal server error' } })).toThrow(/status 500 is not documented/);
  expect(() => checker.check('GET', '/v1/things', 400, { meta: { code: 401, message: 'x' } })).toThrow(/meta.code 401 is not the HTTP status/);
});

test('the literal path wins over a template, as in the route table', () => {
  expect(() => checker.check('GET', '/v1/things/special', 200, { meta: { code: 200 }, thing })).toThrow(/GET \/v1\/things\/special/);
});

test('a path no operation has may only answer the gateway\'s 404 or 405', () => {
  expect(() => checker.check('GET', '/v1/nothing', 404, { meta: { code: 404, message: 'No endpoint' } })).not.toThrow();
  expect(() => checker.check('DELETE', '/v1/things', 405, { meta: { code: 405, message: 'DELETE is not allowed' } })).not.toThrow();
  expect(() => checker.check('GET', '/v1/nothing', 200, { meta: { code: 200 } })).toThrow(/no documented operation/);
});
