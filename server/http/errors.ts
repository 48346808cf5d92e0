// One error class per kind, each with its status. The envelope middleware (envelope.ts) is the only
// place that turns them into responses, so handlers never choose status codes ad hoc.

import { InputError } from '../../core/input/input-error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly type?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends ApiError {
  constructor(param: string, message: string) {
    super(400, message, param);
  }
  // BadRequest always names its parameter.
  declare readonly param: string;
}

export class Unauthorized extends ApiError {
  constructor(message = 'Unauthorized: a valid API key is required in the Authorization header') {
    super(401, message, 'Authorization', 'ERROR_UNAUTHORIZED');
  }
}

export class Forbidden extends ApiError {
  constructor(message: string) {
    super(403, message, 'Authorization', 'ERROR_FORBIDDEN');
  }
}

export class NotFound extends ApiError {
  constructor(message = 'Not found', param?: string) {
    super(404, message, param, 'ERROR_NOT_FOUND');
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, path: string) {
    super(405, `${method} is not allowed on ${path}`, undefined, 'ERROR_METHOD_NOT_ALLOWED');
  }
}

export class Conflict extends ApiError {
  constructor(param: string, message: string) {
    super(409, message, param, 'ERROR_CONFLICT');
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(limit: string) {
    super(413, `Request body is larger than ${limit}`, 'body', 'ERROR_PAYLOAD_TOO_LARGE');
  }
}

export class TooManyRequests extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message, undefined, 'ERROR_RATE_LIMIT');
  }
}

/** A configured engine (router, geocoder, database) could not answer. */
export class EngineUnavailable extends ApiError {
  constructor(engine: string, detail: string) {
    super(503, `${engine} is unavailable: ${detail}`, undefined, 'ERROR_ENGINE_UNAVAILABLE');
  }
}

/** The engine is still reading the data this request needs (a gateway just started, a re-import): retry after the seconds. */
export class EngineLoading extends EngineUnavailable {
  constructor(engine: string, detail: string, readonly retryAfterSeconds: number) {
    super(engine, detail);
  }
}

/** Contention: the work is locked by another request for longer than we wait. Safe to retry. */
export class Busy extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message, undefined, 'ERROR_BUSY');
  }
}

/**
 * The store cannot take the request now for a reason of the environment (adapters/store/store-fault.ts):
 * a full or read-only disk, I/O errors, a lost database connection. Nothing was written; retry later.
 */
export class StoreUnavailable extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message, undefined, 'ERROR_STORE_UNAVAILABLE');
  }
}

/**
 * The answer an error of the API layer or of core's input rules gets: core throws the neutral InputError
 * (it knows nothing of HTTP), which is a 400 naming its parameter. Anything else is not the caller's fault.
 */
export function apiErrorOf(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof InputError) return new BadRequest(err.param, err.message);
  return undefined;
}
