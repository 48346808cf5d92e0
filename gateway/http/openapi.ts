// The OpenAPI 3.1 document of the v1 API, generated from the route table (api/v1.ts) so it cannot drift:
// every route appears with its method, path, path parameters, key level and rate rule whatever else it
// says; a route's optional `doc` (or the side table api/route-docs.ts) adds a summary, query/body
// parameters and the fields it returns. Pure: routes in, a JSON document out.
import type { ParamDoc, Route, RouteDoc } from './route';

export interface OpenApiInfo {
  version: string;
  /** Extra docs for routes that carry none themselves, keyed "METHOD /path". */
  docs?: Record<string, RouteDoc>;
}

type Json = Record<string, unknown>;

/** Express path → OpenAPI template: /v1/trips/:id/update → /v1/trips/{id}/update. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
}

export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

const ERROR_RESPONSES: Record<string, string> = {
  400: 'Bad input; meta.param names the parameter and meta.message says what is wrong',
  401: 'No or unknown API key',
  403: 'A key of the wrong kind (publishable where a secret key is needed)',
  404: 'Not found',
  429: 'Rate limit exceeded (Retry-After says when to retry)',
};

function bodyParamsSchema(params: ParamDoc[]): Json {
  const properties: Json = {};
  for (const p of params) properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
  const required = params.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function operation(route: Route, doc: RouteDoc | undefined): Json {
  const takesBody = route.method !== 'GET' && route.method !== 'DELETE';
  const documented = doc?.params ?? [];
  const inQuery = documented.filter((p) => (p.in ?? (takesBody ? 'body' : 'query')) === 'query');
  const inBody = documented.filter((p) => (p.in ?? (takesBody ? 'body' : 'query')) === 'body');
  const parameters = [
    ...pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...inQuery.map((p) => ({ name: p.name, in: 'query', required: p.required ?? false, ...(p.description ? { description: p.description } : {}), schema: p.schema })),
  ];
  const successProps: Json = { meta: { $ref: '#/components/schemas/Meta' } };
  for (const field of doc?.returns ?? []) successProps[field] = {};
  const responses: Json = {
    200: {
      description: 'Success: meta.code 200 and the fields of the resource',
      headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
      content: { 'application/json': { schema: { type: 'object', properties: successProps, required: ['meta'] } } },
    },
  };
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    if (status === '429' && !route.rate) continue;
    if (status === '400' && !takesBody && parameters.length === 0) continue;
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const op: Json = {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [route.path.split('/')[2] ?? 'v1'],
    security: [{ [route.auth === 'secret' ? 'secretKey' : 'publishableKey']: [] }],
    'x-waymark-auth': route.auth,
    ...(route.rate ? { 'x-waymark-rate-limit': { name: route.rate.name, perSecond: route.rate.perSecond, per: route.rate.per ?? 'key' } } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
  if (takesBody) {
    const schema = inBody.length ? bodyParamsSchema(inBody) : { type: 'object' };
    op.requestBody = {
      required: inBody.some((p) => p.required),
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  return op;
}

export function openApiDocument(routes: Route[], info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const key = openApiPath(route.path);
    const item = (paths[key] ??= {});
    item[route.method.toLowerCase()] = operation(route, route.doc ?? info.docs?.[routeKey(route)]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waymark API',
      version: info.version,
      summary: 'Self-hosted location platform speaking the Radar v1 API',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        publishableKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A publishable key (prj_test_pk_…, prj_live_pk_…) or a secret key' },
        secretKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A secret key (prj_test_sk_…, prj_live_sk_…)' },
      },
      headers: {
        RequestId: { description: 'Request id, also sent as x-radar-request-id', schema: { type: 'string' } },
      },
      schemas: {
        Meta: { type: 'object', properties: { code: { type: 'integer' } }, required: ['code'] },
        Error: {
          type: 'object',
          properties: {
            meta: {
              type: 'object',
              properties: { code: { type: 'integer' }, message: { type: 'string' }, param: { type: 'string' }, type: { type: 'string' } },
              required: ['code', 'message'],
            },
          },
          required: ['meta'],
        },
      },
    },
  };
}
