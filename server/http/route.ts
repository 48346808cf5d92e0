// What an endpoint is: method, path, auth level, rate rule and a handler over plain data. The route table
// (server/app/v1.ts) lists them all; wire.ts turns them into Express routes.
import type { Readable } from 'node:stream';
import type { Scope } from '../../ports/store';
import type { AuthContext, AuthLevel } from './auth';
import type { ResponseDoc } from './response-schema';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RateRule {
  /** Bucket name; routes sharing a name share a budget (e.g. both forms of "get geofence"). */
  name: string;
  perSecond: number;
  /** What the budget is per: the API key (default) or the device sending the request. */
  per?: 'key' | 'device';
}

export interface RequestContext {
  auth: AuthContext;
  scope: Scope;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** Client address (X-Forwarded-For only behind a configured trusted proxy). */
  ip: string;
  requestId: string;
  /** Arrival time of the request: one clock reading per request. */
  now: Date;
  /**
   * The request body as it arrives, for routes that take uploads (CSV import): still unread unless the
   * body was JSON or form-encoded, which the global parsers consume.
   */
  stream?: Readable;
}

export interface Reply {
  status?: number;
  /** Extra meta fields (hasMore…); code is filled in. */
  meta?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

export type Handler = (ctx: RequestContext) => Promise<Reply>;

/** JSON Schema (OpenAPI 3.1 dialect) of one parameter; param-docs.ts builds them from the readers' options. */
export type ParamSchema = Record<string, unknown>;

export interface ParamDoc {
  name: string;
  /** Default: query for GET and DELETE, body otherwise (where the readers look). */
  in?: 'query' | 'body';
  required?: boolean;
  description?: string;
  /** OpenAPI serialization: deepObject for name[key]=value filters, form (not exploded) for a,b,c lists. */
  style?: 'deepObject' | 'form';
  explode?: boolean;
  schema: ParamSchema;
}

/** What the OpenAPI document says of a route beyond what the route itself shows (all optional). */
export interface RouteDoc {
  summary?: string;
  description?: string;
  params?: ParamDoc[];
  /** The success body (its fields beside meta) and the error statuses beyond the usual ones. */
  response?: ResponseDoc;
}

/** What the OpenAPI document reads of a route's parameter spec. */
export interface DocumentedParams {
  docs(): ParamDoc[];
}

export interface Route {
  method: Method;
  path: string;
  auth: AuthLevel;
  rate?: RateRule;
  handler: Handler;
  /**
   * The parameters the handler reads, declared once (a ParamSpec, params/param-spec.ts); the document
   * shows them. Only what the document needs is named here, so this file does not import the specs.
   */
  input?: DocumentedParams;
  /** Documentation for GET /v1/openapi.json; without it the route is still listed (method, path, auth, rate). */
  doc?: RouteDoc;
}
