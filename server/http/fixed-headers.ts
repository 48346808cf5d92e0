// Headers that are the same on every response (helmet's security headers), worked out once at start-up
// and replayed per request. Helmet sets them through a chain of thirteen middleware closures; with
// static options each sets the same value every time, so replaying the recorded calls answers the same
// bytes in the same order for less work per request.
import type { RequestHandler } from 'express';

type HeaderOp = { kind: 'set'; name: string; value: string } | { kind: 'remove'; name: string };

/**
 * Runs `middleware` once against a recording response and returns a middleware that repeats what it did.
 * Only for middleware whose headers do not depend on the request (helmet with static options: no
 * function-valued directives such as per-request nonces). Anything else it does (reading a header,
 * answering, calling next asynchronously or with an error) stops start-up rather than being frozen.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const ops: HeaderOp[] = [];
  let calledNext = false;
  const refuse = (what: string): never => {
    throw new Error(`fixedHeaders: the middleware ${what}; its headers may depend on the request`);
  };
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') refuse(`set ${name} to a non-string value`);
      ops.push({ kind: 'set', name, value: value as string });
      return recorder;
    },
    removeHeader(name: string) {
      ops.push({ kind: 'remove', name });
    },
  };
  const request = new Proxy({}, { get: (_t, key) => refuse(`read request.${String(key)}`) });
  const response = new Proxy(recorder, {
    get: (target, key) => (key in target ? target[key as keyof typeof target] : refuse(`used response.${String(key)}`)),
  });
  (middleware as unknown as (req: unknown, res: unknown, next: (err?: unknown) => void) => void)(request, response, (err?: unknown) => {
    if (err !== undefined) refuse('failed');
    calledNext = true;
  });
  if (!calledNext) refuse('did not call next synchronously');
  const names = ops.map((op) => op.name);
  const values = ops.map((op) => (op.kind === 'set' ? op.value : undefined));
  return (_req, res, next) => {
    for (let i = 0; i < names.length; i++) {
      const value = values[i];
      if (value === undefined) res.removeHeader(names[i]);
      else res.setHeader(names[i], value);
    }
    next();
  };
}
