// Cross-origin access for Radar's web SDK, which calls the API from the customer's pages. Keys, not
// cookies, authenticate, so allowing any origin exposes nothing a caller doesn't already hold; operators
// who want to narrow it list origins in WAYMARK_CORS_ORIGINS.
import type { RequestHandler } from 'express';

// Answered when a preflight names no headers, and always allowed.
const BASE_HEADERS = 'Authorization, Content-Type, X-Request-Id, X-Radar-Device-Type, X-Radar-SDK-Version, X-Radar-Config, ' +
  'X-Radar-Device-Make, X-Radar-Device-Model, X-Radar-Device-OS, X-Radar-Mobile-Origin, X-Radar-Network-Type, X-Radar-App-Info, ' +
  'X-Radar-X-Platform-SDK-Type, X-Radar-X-Platform-SDK-Version, X-Radar-Product';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Read by browsers' scripts: the SDK takes its request id from x-radar-request-id (autocomplete reports). */
export const EXPOSED_HEADERS = 'x-request-id, x-radar-request-id, Retry-After';

// Header names are RFC 9110 tokens; a preflight asking for anything else, or for a flood of them, gets
// only the base list (the browser then refuses the request, which is the right answer to such a page).
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const MAX_REQUESTED = 2048;

/**
 * The headers a preflight may use: whatever it asked for (an app adds its own through the SDK's
 * getRequestHeaders option, and a refusal surfaces as "Request timed out" in the SDK), plus the base list.
 */
function allowedHeaders(requested: string | undefined): string {
  const asked = requested?.trim();
  if (!asked || asked.length > MAX_REQUESTED || !TOKEN_LIST.test(asked)) return BASE_HEADERS;
  return `${BASE_HEADERS}, ${asked}`;
}

/** `origins` empty or containing "*" allows every origin. */
export function cors(origins: string[]): RequestHandler {
  const any = origins.length === 0 || origins.includes('*');
  return (req, res, next) => {
    const origin = req.headers.origin;
    const allowed = origin !== undefined && (any || origins.includes(origin));
    if (origin !== undefined) {
      if (any) res.setHeader('Access-Control-Allow-Origin', '*');
      else if (allowed) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
      }
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    // A preflight carries no key; answering it before authentication is what browsers require.
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', allowed ? allowedHeaders(req.headers['access-control-request-headers']) : BASE_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      if (!any) res.append('Vary', 'Access-Control-Request-Headers');
      res.status(204).end();
      return;
    }
    next();
  };
}
