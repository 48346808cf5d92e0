// Every response carries x-request-id (the caller's, when it sent a sane one) so a client's report can be
// matched with our log lines, and the same id as x-radar-request-id: Radar's SDKs read that one (the web
// SDK sends it back in its autocomplete click reports).
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const SANE_ID = /^[\w.:-]{1,128}$/;

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', id);
    res.setHeader('x-radar-request-id', id);
    next();
  };
}
