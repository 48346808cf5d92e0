// wireRoutes answers a request for exactly the path of a parameterless route without the router's walk
// over the table. That is only right for a route the router would have picked anyway: the first of the
// table whose pattern matches. These cases pin which routes qualify.
import type { Route } from '../../server/http/route';
import { literalRoutes } from '../../server/http/wire';

const route = (method: Route['method'], path: string): Route => ({ method, path, auth: 'secret', handler: async () => ({}) });

function literal(routes: Route[]): string[] {
  return [...literalRoutes(routes).keys()].sort();
}

test('parameterless routes qualify; routes with parameters do not', () => {
  expect(literal([route('POST', '/v1/track'), route('GET', '/v1/users/:id'), route('GET', '/v1/config')])).toEqual(['GET /v1/config', 'POST /v1/track']);
});

test('an earlier route with a parameter that matches the path keeps it (same method only)', () => {
  expect(literal([route('GET', '/v1/geofences/:id'), route('GET', '/v1/geofences/near'), route('POST', '/v1/geofences/import')])).toEqual(['POST /v1/geofences/import']);
});

test('an earlier match is found whatever the case and a trailing slash', () => {
  expect(literal([route('GET', '/V1/Config/'), route('GET', '/v1/config')])).toEqual(['GET /V1/Config/']);
});

test('a parameter matches one segment only', () => {
  expect(literal([route('GET', '/v1/users/:id'), route('GET', '/v1/users/search/recent')])).toEqual(['GET /v1/users/search/recent']);
});

test('a wildcard or optional part before the route keeps the route out', () => {
  expect(literal([route('GET', '/v1/*rest'), route('GET', '/v1/config')])).toEqual([]);
  expect(literal([route('GET', '/v1/users{/:id}'), route('GET', '/v1/users/me')])).toEqual([]);
});

test('of two routes with the same method and path the first is kept', () => {
  const first = route('GET', '/v1/config');
  const map = literalRoutes([first, route('GET', '/v1/config')]);
  expect(map.get('GET /v1/config')).toBe(first);
});
