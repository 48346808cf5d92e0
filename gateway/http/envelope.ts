// The response envelope: every body is JSON with meta.code equal to the HTTP status, errors included.
// This file is the one place where errors become responses.
import type { ErrorRequestHandler, Response } from 'express';
import { ApiError, BadRequest, PayloadTooLarge, TooManyRequests } from './errors';
import type { Logger } from './logger';

export function sendEnvelope(res: Response, status: number, meta: Record<string, unknown> = {}, body: Record<string, unknown> = {}): void {
  res.status(status).json({ meta: { code: status, ...meta }, ...body });
}

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
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
    default:
      return undefined;
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const known = err instanceof ApiError ? err : fromBodyParser(err as BodyParserError);
    if (!known) {
      logger.error('unhandled error', { requestId: res.getHeader('x-request-id'), path: req.path, error: err instanceof Error ? err.stack : String(err) });
      sendEnvelope(res, 500, { message: 'Internal server error', type: 'ERROR_SERVER' });
      return;
    }
    if (known instanceof TooManyRequests) res.setHeader('Retry-After', String(known.retryAfterSeconds));
    const meta: Record<string, unknown> = { message: known.message };
    if (known.param !== undefined) meta.param = known.param;
    if (known.type !== undefined) meta.type = known.type;
    sendEnvelope(res, known.status, meta);
  };
}
