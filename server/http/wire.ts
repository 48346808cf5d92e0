// Turns the route table into Express routes: authenticate → rate-limit → build the context → handler →
// envelope. Paths that exist answer 405 to other methods; unknown paths fall through to the 404.
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { RateLimiter } from '../../ports/rate-limiter';
import type { Authenticator, AuthContext } from './auth';
import { sendEnvelope } from './envelope';
import { MethodNotAllowed, TooManyRequests } from './errors';
import { rejectHostile } from '../../core/input/hostile';
import type { RateRule, RequestContext, Route } from './route';

export interface WireOptions {
  auth: Authenticator;
  limiter: RateLimiter;
  /** Multiplies every rule's rate; 0 disables limiting. */
  rateLimitScale: number;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The longest deviceId any endpoint accepts (track, trips, replay): longer ones are refused with 400. */
const DEVICE_ID_MAX = 256;

/**
 * The device a request speaks for: the body's or query's deviceId when it is one the handler could accept,
 * else the client address. Checking the length BEFORE keying a bucket keeps the limiter's memory bounded
 * by the number of devices, not by the bytes an attacker sends in ids that are refused anyway.
 */
function deviceOf(req: Request): string {
  const body = asRecord(req.body);
  // A replay batch speaks for the device of its updates (the handler refuses a batch that mixes devices).
  const replayed = Array.isArray(body.replays) ? asRecord(body.replays[0]).deviceId : undefined;
  const fromBody = body.deviceId ?? replayed ?? asRecord(req.query).deviceId;
  return typeof fromBody === 'string' && fromBody !== '' && fromBody.length <= DEVICE_ID_MAX ? fromBody : `ip:${req.ip ?? ''}`;
}

async function enforceRate(rule: RateRule, auth: AuthContext, req: Request, opts: WireOptions): Promise<void> {
  if (opts.rateLimitScale === 0) return;
  const perSecond = rule.perSecond * opts.rateLimitScale;
  const subject = rule.per === 'device' ? `${auth.projectId}:${auth.live ? 'l' : 't'}:${deviceOf(req)}` : auth.keyHash;
  const decision = await opts.limiter.take(`${rule.name}:${subject}`, perSecond, Math.max(1, perSecond));
  if (!decision.allowed) {
    const per = rule.per === 'device' ? 'per device' : 'per API key';
    throw new TooManyRequests(`Rate limit exceeded: ${rule.name} allows ${perSecond} request(s) per second ${per}`, decision.retryAfterSeconds);
  }
}

/**
 * Could Express's match of `pattern` take `path`? Parameters match one segment; wildcards, optional
 * groups and anything else unusual are assumed to match everything (the answer only has to err towards
 * yes). Case-insensitive with an optional trailing slash, as the router matches by default.
 */
function mayMatch(pattern: string, path: string): boolean {
  if (/[*{}()?+]/.test(pattern)) return true;
  const source = pattern.replace(/\/+$/, '').split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.\\^$|[\]]/g, '\\$&'))).join('/');
  return new RegExp(`^${source}/?$`, 'i').test(path);
}

/**
 * Routes without parameters, by method and path, that are the first of the table to match that exact
 * path: a request for exactly that path is theirs whichever way the router looked, so it can skip the
 * router's walk over every earlier route (the track route is first, GET /v1/config ~100 layers in).
 */
export function literalRoutes(routes: Route[]): Map<string, Route> {
  const literal = new Map<string, Route>();
  routes.forEach((route, i) => {
    if (/[:*{}()?+]/.test(route.path)) return;
    const key = `${route.method} ${route.path}`;
    if (literal.has(key)) return;
    if (routes.slice(0, i).some((earlier) => earlier.method === route.method && mayMatch(earlier.path, route.path))) return;
    literal.set(key, route);
  });
  return literal;
}

export function wireRoutes(routes: Route[], opts: WireOptions): Router {
  const router = Router();
  const methodsByPath = new Map<string, string[]>();
  const serve = async (route: Route, req: Request, res: Response, params: Record<string, string>): Promise<void> => {
    const now = new Date();
    const auth = await opts.auth.authenticate(req.headers.authorization, route.auth);
    if (route.rate) await enforceRate(route.rate, auth, req, opts);
    // Express's req.query parses the query string again on every read.
    const query = asRecord(req.query);
    const body = asRecord(req.body);
    rejectHostile(params, 'path');
    rejectHostile(query, 'query');
    rejectHostile(body, 'body');
    const ctx: RequestContext = {
      auth,
      scope: { projectId: auth.projectId, live: auth.live },
      params,
      query,
      body,
      headers: req.headers,
      ip: req.ip ?? '',
      requestId: String(res.getHeader('x-request-id') ?? ''),
      now,
      stream: req,
    };
    const reply = await route.handler(ctx);
    sendEnvelope(res, reply.status ?? 200, reply.meta, reply.body);
  };
  const literal = literalRoutes(routes);
  router.use((req: Request, res: Response, next: NextFunction) => {
    const route = literal.get(`${req.method} ${req.path}`);
    if (!route) {
      next();
      return;
    }
    serve(route, req, res, {}).catch(next);
  });
  for (const route of routes) {
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path, (req: Request, res: Response) => serve(route, req, res, req.params as Record<string, string>));
  }
  for (const [path, methods] of methodsByPath) {
    // GET routes answer HEAD themselves, so only other methods get here. OPTIONS is answered (with Allow)
    // rather than left to Express, whose reply is a text body; RFC 9110 asks 405 replies to carry Allow too.
    const allow = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ');
    router.all(path, (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') {
        sendEnvelope(res, 200);
        return;
      }
      throw new MethodNotAllowed(req.method, req.path);
    });
  }
  return router;
}
