// fixedHeaders replays what a header-only middleware did once. With helmet's options as the app uses
// them it must set the same headers, in the same order, as helmet itself; a middleware whose headers
// depend on the request must be refused at start-up, not frozen.
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedHeaders } from '../../server/http/fixed-headers';
import { comparable, exchange } from './raw-exchange';

async function headersOf(middleware: RequestHandler): Promise<string> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => res.json({ ok: true }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return comparable(await exchange((server.address() as AddressInfo).port, { method: 'GET', path: '/' }));
  } finally {
    server.close();
  }
}

test("helmet's headers, replayed, are helmet's own (same names, values, order; X-Powered-By removed)", async () => {
  const options = { crossOriginResourcePolicy: { policy: 'cross-origin' as const } };
  const replayed = await headersOf(fixedHeaders(helmet(options)));
  expect(replayed).toBe(await headersOf(helmet(options)));
  expect(replayed).toContain('Content-Security-Policy: ');
  expect(replayed).not.toContain('X-Powered-By');
});

test('a middleware that reads the request is refused', () => {
  const perRequest: RequestHandler = (req, res, next) => {
    res.setHeader('X-Path', req.path);
    next();
  };
  expect(() => fixedHeaders(perRequest)).toThrow('may depend on the request');
});

test('a CSP nonce made per request is refused', () => {
  const nonce = helmet({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", (_req, res) => `'nonce-${String((res as { locals?: { n?: string } }).locals?.n)}'`] } } });
  expect(() => fixedHeaders(nonce)).toThrow('may depend on the request');
});

test('a middleware that does not call next at once is refused', () => {
  const later: RequestHandler = (_req, _res, next) => {
    setTimeout(next, 1);
  };
  expect(() => fixedHeaders(later)).toThrow('did not call next synchronously');
});
