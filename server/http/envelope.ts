// The response envelope: every body is JSON with meta.code equal to the HTTP status, errors included.
// This file is the one place where errors become responses.
import type { ErrorRequestHandler, Response } from 'express';
import { ApiError, apiErrorOf, BadRequest, Busy, EngineLoading, PayloadTooLarge, StoreUnavailable, TooManyRequests } from './errors';
import { FaultLog } from './fault-log';
import { LockWaitTimeout } from '../../ports/store';
import { stringifyWithText } from './json-text';
import type { Logger } from '../../ports/logger';
import type { StoreFaults } from './store-faults';

export function sendEnvelope(res: Response, status: number, meta: Record<string, unknown> = {}, body: Record<string, unknown> = {}): void {
  const envelope = { meta: { code: status, ...meta }, ...body };
  if (!sendJsonDirect(res, status, envelope)) res.status(status).json(envelope);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What res.json would put on the wire, written without its chain (content-type lookup and charset
 * rewrite, ETag and freshness checks, a Buffer copy of bodies over 1000 characters): the same status,
 * headers in the same order (Content-Type, then Content-Length, after those already set) and body.
 * Returns false, having done nothing, for what res.json does differently: statuses without a body
 * (204, 205, 304, 1xx), conditional GET/HEAD requests (the freshness check may turn them into 304),
 * a Content-Type or Transfer-Encoding already set, and apps that enabled ETags or JSON formatting.
 */
function sendJsonDirect(res: Response, status: number, value: Record<string, unknown>): boolean {
  if (!Number.isInteger(status) || status < 200 || status > 999 || status === 204 || status === 205 || status === 304) return false;
  const req = res.req;
  const method = req.method;
  if ((method === 'GET' || method === 'HEAD') && (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined)) return false;
  const settings = (res.app as { settings?: Record<string, unknown> } | undefined)?.settings;
  if (!settings || settings['etag fn'] !== undefined || settings['json replacer'] !== undefined || settings['json spaces'] !== undefined || settings['json escape']) return false;
  if (res.hasHeader('Content-Type') || res.hasHeader('Transfer-Encoding')) return false;
  const text = stringifyWithText(value);
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  if (method === 'HEAD') res.end();
  else res.end(text, 'utf8');
  return true;
}

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

function isClientStatus(status: unknown): status is number {
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** body-parser signals its failures with a `type`; translate them into our typed errors. */
function fromBodyParser(err: BodyParserError): ApiError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new BadRequest('body', 'Request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLarge(err.limit ? `${err.limit} bytes` : 'the limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'Unsupported body encoding or charset', 'body', 'ERROR_UNSUPPORTED_MEDIA_TYPE');
    case 'request.aborted':
      return new BadRequest('body', 'Request body was aborted');
    case 'parameters.too.many':
      return new ApiError(413, 'Request body has too many parameters', 'body', 'ERROR_PAYLOAD_TOO_LARGE');
    default:
      return undefined;
  }
}

/**
 * Other failures Express and its parsers raise before a handler runs carry a 4xx status: a path segment
 * that is not valid percent-encoding (the router's URIError), a body that does not decompress. They are
 * the client's mistake, so they answer 4xx rather than 500.
 */
function fromExpress(err: unknown): ApiError | undefined {
  const status = (err as BodyParserError | null)?.status;
  if (!isClientStatus(status)) return undefined;
  if (err instanceof URIError) return new BadRequest('path', 'Request path is not valid percent-encoding');
  return new ApiError(status, 'Request body could not be read (check Content-Type and Content-Encoding)', 'body');
}

/** A lock held elsewhere for longer than the store waits is contention, not a fault: 503, retry later. */
function fromStore(err: unknown): ApiError | undefined {
  if (!(err instanceof LockWaitTimeout)) return undefined;
  return new Busy('The resource is busy with another request (a lock is held elsewhere); retry shortly', 1);
}

/**
 * `faults`, when given, turns the store's environment failures (a full or read-only disk, a lost
 * database) into 503 with Retry-After and notes them for readiness. Failures that repeat per request
 * are logged through a FaultLog: one line per kind every few seconds, without a stack.
 */
export function errorHandler(logger: Logger, faults?: StoreFaults): ErrorRequestHandler {
  const log = new FaultLog(logger);
  return (err: unknown, req, res, _next) => {
    const requestId = res.getHeader('x-request-id');
    const fault = faults?.answer(err);
    if (fault) {
      log.error(`store:${fault.state.fault}`, 'store unavailable', { fault: fault.state.fault, requestId, path: req.path, error: fault.state.detail });
    }
    const known = apiErrorOf(err) ?? (fromBodyParser(err as BodyParserError) ?? fromExpress(err) ?? fromStore(err) ?? fault?.error);
    if (!known) {
      const message = err instanceof Error ? err.message : String(err);
      // A bug keeps its stack, once per message every few seconds: the same bug on every request is one story.
      log.error(`unhandled:${message.slice(0, 200)}`, 'unhandled error', { requestId, path: req.path, error: err instanceof Error ? err.stack : message });
      sendEnvelope(res, 500, { message: 'Internal server error', type: 'ERROR_SERVER' });
      return;
    }
    if (known instanceof TooManyRequests || known instanceof Busy || known instanceof StoreUnavailable || known instanceof EngineLoading) res.setHeader('Retry-After', String(known.retryAfterSeconds));
    const meta: Record<string, unknown> = { message: known.message };
    if (known.param !== undefined) meta.param = known.param;
    if (known.type !== undefined) meta.type = known.type;
    sendEnvelope(res, known.status, meta);
  };
}
