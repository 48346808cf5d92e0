// The OpenAPI 3.1 document of the v1 API, generated from the route table (server/app/v1.ts) so it cannot drift:
// every route appears with its method, path, path parameters, key level and rate rule whatever else it
// says. Its query/body parameters come from the spec its handler reads them with (`route.input`,
// params/param-spec.ts); its response schema and a summary from its `doc` or the side table
// api/route-docs.ts. The HTTP tests validate every answer they receive against this document
// (test/support/openapi-check.ts). Pure: routes in, a JSON document out.
import type { ParamDoc, Route, RouteDoc } from './route';
import { COMPONENT, type ResponseDoc, type Schema } from './response-schema';

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
  409: 'Conflict with the current state (meta.param names the field)',
  413: 'Request body too large',
  415: 'Unsupported body encoding or charset',
  429: 'Rate limit exceeded (Retry-After says when to retry)',
  503: 'An engine or the store could not answer now (Retry-After when it is contention)',
};

function bodyParamsSchema(params: ParamDoc[]): Json {
  const properties: Json = {};
  for (const p of params) properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
  const required = params.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function successSchema(status: number, response: ResponseDoc | undefined): Json {
  const meta = {
    type: 'object',
    properties: { code: { const: status }, ...(response?.meta ?? {}) },
    required: ['code'],
    additionalProperties: false,
  };
  if (!response) return { type: 'object', properties: { meta }, required: ['meta'] };
  const body = response.body ?? {};
  const optional = new Set(response.optional ?? []);
  return {
    type: 'object',
    properties: { meta, ...body },
    required: ['meta', ...Object.keys(body).filter((k) => !optional.has(k))],
    additionalProperties: response.extra ?? false,
  };
}

/** The error statuses a route can answer: those every route of its kind has, plus its own. */
function errorStatuses(route: Route, takesBody: boolean, response: ResponseDoc | undefined): number[] {
  // 400 everywhere: any request may carry a hostile key (__proto__…) in its query, which every route refuses.
  // 503 everywhere: a store that cannot answer (a fault, a lock held elsewhere) answers 503 with Retry-After.
  const statuses = new Set<number>([400, 401, 503, ...(response?.errors ?? [])]);
  if (route.auth === 'secret') statuses.add(403);
  if (/:\w/.test(route.path)) statuses.add(404);
  if (takesBody) [413, 415].forEach((s) => statuses.add(s));
  if (route.rate) statuses.add(429);
  return [...statuses].sort();
}

function operation(route: Route, doc: RouteDoc | undefined): Json {
  const takesBody = route.method !== 'GET' && route.method !== 'DELETE';
  const documented = route.input?.docs() ?? doc?.params ?? [];
  const where = (p: ParamDoc) => p.in ?? (takesBody ? 'body' : 'query');
  const inQuery = documented.filter((p) => where(p) === 'query');
  const inBody = documented.filter((p) => where(p) === 'body');
  const parameters = [
    ...pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...inQuery.map((p) => ({
      name: p.name, in: 'query', required: p.required ?? false,
      ...(p.description ? { description: p.description } : {}),
      ...(p.style ? { style: p.style } : {}),
      ...(p.explode !== undefined ? { explode: p.explode } : {}),
      schema: p.schema,
    })),
  ];
  const response = doc?.response;
  const status = response?.status ?? 200;
  const responses: Json = {};
  for (const code of [status, ...(response?.alsoStatus ? [response.alsoStatus] : [])]) {
    responses[code] = {
      description: response ? (code === status ? 'Success' : 'Accepted') : 'Success (fields beside meta not described yet)',
      headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
      content: { 'application/json': { schema: successSchema(code, response) } },
    };
  }
  for (const code of errorStatuses(route, takesBody, response)) {
    const schema = code === 400 && response?.errorBody
      ? { type: 'object', properties: { meta: { $ref: '#/components/schemas/ErrorMeta' }, ...response.errorBody }, required: ['meta'], additionalProperties: false }
      : { $ref: '#/components/schemas/Error' };
    responses[code] = { description: ERROR_RESPONSES[code] ?? 'Error', content: { 'application/json': { schema } } };
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

/**
 * A plain JSON copy of `value` in which every component reference (response-schema.ts) is a bare $ref,
 * its definition collected into `components` (and copied the same way) the first time it is seen.
 */
function hoistComponents(value: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => hoistComponents(v, components));
  if (typeof value !== 'object' || value === null) return value;
  const def = (value as { [COMPONENT]?: { name: string; schema: Schema } })[COMPONENT];
  if (def && !(def.name in components)) {
    components[def.name] = {};
    components[def.name] = hoistComponents(def.schema, components);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = hoistComponents(v, components);
  return out;
}

export function openApiDocument(routes: Route[], info: OpenApiInfo): Json {
  const raw: Record<string, Json> = {};
  for (const route of routes) {
    const key = openApiPath(route.path);
    const item = (raw[key] ??= {});
    item[route.method.toLowerCase()] = operation(route, route.doc ?? info.docs?.[routeKey(route)]);
  }
  const named: Record<string, unknown> = {};
  const paths = hoistComponents(raw, named);
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
        ...named,
        ErrorMeta: {
          type: 'object',
          properties: {
            code: { type: 'integer', description: 'the HTTP status' },
            message: { type: 'string' },
            param: { type: 'string', description: 'the parameter at fault' },
            type: { type: 'string', description: 'ERROR_UNAUTHORIZED, ERROR_RATE_LIMIT…' },
          },
          required: ['code', 'message'],
          additionalProperties: false,
        },
        Error: {
          type: 'object',
          properties: { meta: { $ref: '#/components/schemas/ErrorMeta' } },
          required: ['meta'],
          additionalProperties: false,
        },
      },
    },
  };
}
