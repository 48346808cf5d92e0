// Reads request bodies (JSON, form-encoded). The common case (Content-Type application/json, optionally
// with charset=utf-8, no Content-Encoding) is read here: a track update is ~250 bytes, and express.json's
// general machinery (type-is, content-type parsing, iconv, raw-body, http-errors) cost more than the
// parse itself. Everything else (application/*+json, other charsets, compressed or form-encoded bodies,
// odd headers) goes to express.json, then express.urlencoded, with the same options, so its answers
// there are unchanged. Both give the same answers for what both can see: the limit (413 before reading
// when Content-Length says so, else as soon as the bytes pass it), an empty body read as {}, a leading
// BOM dropped, only an object or array at the top (strict), and a failure answered only once the rest
// of the body has been read off.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, BadRequest, PayloadTooLarge } from './errors';

/** application/json, with at most a UTF-8 charset parameter (the forms clients send). */
const PLAIN_JSON = /^application\/json(?:[ \t]*;[ \t]*charset=(?:utf-8|"utf-8"))?$/i;
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };

/** A size as body-parser reads its `limit` ("100kb", "1048576b", 1024-based units), in bytes. */
export function parseByteLimit(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const m = /^((?:-|\+)?\d+(?:\.\d+)?) *(kb|mb|gb|tb|pb)$/i.exec(limit);
  const bytes = m ? Math.floor(UNITS[m[2].toLowerCase()] * Number.parseFloat(m[1])) : Number.parseInt(limit, 10);
  if (Number.isNaN(bytes)) throw new Error(`body limit "${limit}" is not a size`);
  return bytes;
}

/** The strict rule: after optional whitespace, a JSON body opens an object or an array. */
function opensObjectOrArray(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b || c === 0x5b;
  }
  return false;
}

function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // An empty body is read as {} (a common client mistake, and what express.json answers).
  if (body.length === 0) return {};
  if (!opensObjectOrArray(body)) throw new BadRequest('body', 'Request body is not valid JSON');
  try {
    return JSON.parse(body);
  } catch {
    throw new BadRequest('body', 'Request body is not valid JSON');
  }
}

/** The request was already read, or cannot be (the check express.json makes before reading). */
function finished(req: Request): boolean {
  const socket = req.socket as Request['socket'] | null;
  return Boolean((req as { upgrade?: boolean }).upgrade || !socket || !socket.readable || (req.complete && !req.readable));
}

/** Reads off what is left of a refused body, then reports the failure (the connection stays usable). */
function failAfterDraining(req: Request, next: NextFunction, err: ApiError): void {
  if (finished(req) || req.destroyed || req.readableEnded) {
    next(err);
    return;
  }
  let reported = false;
  const report = (): void => {
    if (reported) return;
    reported = true;
    next(err);
  };
  req.once('end', report);
  req.once('close', report);
  req.once('error', report);
  req.resume();
}

function readPlainJson(req: Request, next: NextFunction, limit: number, length: number | undefined): void {
  if (length !== undefined && length > limit) {
    failAfterDraining(req, next, new PayloadTooLarge(`${limit} bytes`));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const cleanup = (): void => {
    settled = true;
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('aborted', onAborted);
    req.removeListener('close', onClose);
    req.removeListener('error', onError);
  };
  const fail = (err: ApiError): void => {
    cleanup();
    failAfterDraining(req, next, err);
  };
  const onData = (chunk: Buffer): void => {
    if (settled) return;
    received += chunk.length;
    if (received > limit) {
      fail(new PayloadTooLarge(`${limit} bytes`));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void => {
    if (settled) return;
    cleanup();
    if (length !== undefined && received !== length) {
      next(new ApiError(400, 'Request body could not be read (check Content-Type and Content-Encoding)', 'body'));
      return;
    }
    const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, received).toString('utf8');
    try {
      req.body = parseJson(text);
    } catch (err) {
      next(err);
      return;
    }
    next();
  };
  const onAborted = (): void => {
    if (!settled) fail(new BadRequest('body', 'Request body was aborted'));
  };
  const onClose = (): void => {
    if (!settled && !req.complete) fail(new BadRequest('body', 'Request body was aborted'));
  };
  const onError = (): void => {
    if (!settled) fail(new ApiError(400, 'Request body could not be read (check Content-Type and Content-Encoding)', 'body'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('close', onClose);
  req.on('error', onError);
}

/**
 * The request body parsers: JSON (application/json and application/*+json) and form-encoded bodies up
 * to `limit`, into req.body. A request without a body (no Content-Length, no Transfer-Encoding: most
 * GETs) skips both, as they would skip it themselves after their own checks; a plain JSON body is read
 * here, and the form parser would only find it already read.
 */
export function requestBody(limit: string): RequestHandler {
  const json = express.json({ limit, type: ['application/json', 'application/*+json'] });
  const form = express.urlencoded({ limit, extended: false });
  const maxBytes = parseByteLimit(limit);
  const general = (req: Request, res: Response, next: NextFunction): void => {
    json(req, res, (err?: unknown) => (err === undefined ? form(req, res, next) : next(err)));
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const lengthHeader = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (lengthHeader === undefined && !chunked) {
      if (!('body' in (req as object))) (req as { body?: unknown }).body = undefined;
      next();
      return;
    }
    const type = req.headers['content-type'];
    if (type === undefined || !PLAIN_JSON.test(type) || req.headers['content-encoding'] !== undefined || finished(req)) {
      general(req, res, next);
      return;
    }
    const length = lengthHeader === undefined ? undefined : Number.parseInt(lengthHeader, 10);
    if (length !== undefined && Number.isNaN(length)) {
      general(req, res, next);
      return;
    }
    readPlainJson(req, next, maxBytes, length);
  };
}
