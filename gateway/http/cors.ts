// Cross-origin access for Radar's web SDK, which calls the API from the customer's pages. Keys, not
// cookies, authenticate, so allowing any origin exposes nothing a caller doesn't already hold; operators
// who want to narrow it list origins in WAYMARK_CORS_ORIGINS.
import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, X-Radar-Device-Type, X-Radar-SDK-Version, X-Radar-Config, ' +
  'X-Radar-Device-Make, X-Radar-Device-Model, X-Radar-Device-OS, X-Radar-Mobile-Origin, X-Radar-Network-Type, X-Radar-App-Info, ' +
  'X-Radar-X-Platform-SDK-Type, X-Radar-X-Platform-SDK-Version, X-Radar-Product';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** `origins` empty or containing "*" allows every origin. */
export function cors(origins: string[]): RequestHandler {
  const any = origins.length === 0 || origins.includes('*');
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (any) res.setHeader('Access-Control-Allow-Origin', '*');
      else if (origins.includes(origin)) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
      }
      res.setHeader('Access-Control-Expose-Headers', 'x-request-id, Retry-After');
    }
    // A preflight carries no key; answering it before authentication is what browsers require.
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
