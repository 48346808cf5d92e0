// The CSV file of an import request: the raw body (text/csv and friends) or the `file` field of a
// multipart/form-data upload, read with this route's own size limit (the global JSON and form limit
// stays small). Anything else is refused with a message saying what to send.
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import busboy from 'busboy';
import { ApiError, BadRequest, PayloadTooLarge } from '../../http/errors';

/** Content types taken as the CSV itself. Browsers label .csv files application/vnd.ms-excel. */
const RAW_TYPES = new Set(['text/csv', 'text/plain', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel', 'application/octet-stream']);

export const UPLOAD_FIELD = 'file';

class UnsupportedMediaType extends ApiError {
  constructor(message: string) {
    super(415, message, 'body', 'ERROR_UNSUPPORTED_MEDIA_TYPE');
  }
}

function tooLarge(maxBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(`${maxBytes} bytes (WAYMARK_IMPORT_MAX_SIZE)`);
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Reads the body whole, through `inflater` when it came compressed. Past the limit it stops keeping
 * bytes (and stops inflating) but lets the request finish, so the client gets the 413 rather than a
 * reset connection in the middle of its upload.
 */
function readRaw(request: Readable, inflater: Transform | undefined, maxBytes: number, encoding = 'compressed'): Promise<Buffer> {
  const body: Readable = inflater ?? request;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    body.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      over = true;
      chunks.length = 0;
      if (inflater) {
        // A compressed body: inflating the rest would only burn CPU (a small "zip bomb" inflates to gigabytes).
        request.unpipe(inflater);
        inflater.destroy();
        request.resume();
        request.once('end', () => reject(tooLarge(maxBytes)));
      }
    });
    body.on('end', () => (over ? reject(tooLarge(maxBytes)) : resolve(Buffer.concat(chunks, size))));
    body.on('error', (err: NodeJS.ErrnoException) => {
      if (over) return;
      const inflating = inflater !== undefined && typeof err.code === 'string' && err.code.startsWith('Z_');
      reject(new BadRequest('body', inflating ? `Request body is not valid ${encoding} data` : 'Request body was aborted'));
    });
  });
}

function readMultipart(stream: Readable, headers: Record<string, string | string[] | undefined>, maxBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: headers as Record<string, string>, limits: { fileSize: maxBytes, files: 5, fields: 50, fieldSize: 64 * 1024, parts: 60 } });
    } catch (err) {
      reject(new BadRequest('body', `multipart body cannot be read: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    let file: Buffer | undefined;
    let failure: ApiError | undefined;
    parser.on('file', (name, part) => {
      if (name !== UPLOAD_FIELD || file !== undefined) {
        part.resume();
        return;
      }
      const chunks: Buffer[] = [];
      part.on('data', (chunk: Buffer) => chunks.push(chunk));
      part.on('limit', () => {
        failure = tooLarge(maxBytes);
        chunks.length = 0;
      });
      part.on('end', () => {
        if (!failure) file = Buffer.concat(chunks);
      });
    });
    parser.on('error', (err: Error) => {
      failure ??= new BadRequest('body', `multipart body cannot be read: ${err.message}`);
      stream.unpipe(parser);
      stream.resume();
    });
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (file === undefined) reject(new BadRequest(UPLOAD_FIELD, `multipart body needs the CSV in a file field named "${UPLOAD_FIELD}"`));
      else resolve(file);
    });
    stream.on('error', () => reject(new BadRequest('body', 'Request body was aborted')));
    stream.pipe(parser);
  });
}

/**
 * A raw body as sent, or inflated when it came compressed (a 50 MB CSV is a few MB gzipped). The
 * size limit then applies to the inflated file.
 */
function inflaterFor(stream: Readable, encoding: string | string[] | undefined): Transform | undefined {
  const name = (typeof encoding === 'string' ? encoding : '').trim().toLowerCase();
  if (name === '' || name === 'identity') return undefined;
  if (name !== 'gzip' && name !== 'deflate') {
    stream.resume();
    throw new UnsupportedMediaType(`Content-Encoding ${name} is not supported; send the file as is, gzip or deflate`);
  }
  const inflater = name === 'gzip' ? zlib.createGunzip() : zlib.createInflate();
  stream.on('error', (err) => inflater.destroy(err));
  stream.pipe(inflater);
  return inflater;
}

/** The uploaded CSV bytes of an import request. */
export async function readUploadedCsv(stream: Readable | undefined, headers: Record<string, string | string[] | undefined>, maxBytes: number): Promise<Buffer> {
  const type = mediaType(typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined);
  if (!stream || stream.readableEnded) {
    throw new UnsupportedMediaType('Send the CSV as the request body with Content-Type: text/csv, or as multipart/form-data with a file field named "file"');
  }
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + (type === 'multipart/form-data' ? 64 * 1024 : 0)) {
    // Refused before reading; the rest of the upload is discarded as it arrives.
    stream.resume();
    throw tooLarge(maxBytes);
  }
  if (type === 'multipart/form-data') return readMultipart(stream, headers, maxBytes);
  if (RAW_TYPES.has(type)) {
    const encoding = headers['content-encoding'];
    return readRaw(stream, inflaterFor(stream, encoding), maxBytes, typeof encoding === 'string' ? encoding.trim().toLowerCase() : undefined);
  }
  stream.resume();
  throw new UnsupportedMediaType(
    `Content-Type ${type === '' ? '(none)' : type} is not a CSV upload: send the file with Content-Type: text/csv, or as multipart/form-data with a file field named "file"`,
  );
}
