// sendEnvelope writes the JSON envelope itself rather than through res.json's chain. What goes on the
// wire must be what res.json sends: each case is answered by one server calling sendEnvelope and one
// calling res.status().json() with the same envelope, and the raw answers are compared byte for byte
// (statuses with and without a body, HEAD, conditional GETs, headers set before, large bodies).
import express, { type Express, type Response } from 'express';
import { sendEnvelope } from '../../server/http/envelope';
import { JsonText } from '../../server/http/json-text';
import { comparable, exchange, type RawRequest } from './raw-exchange';
import { listenApp, type ListeningApp } from '../support/listen-app';

type Send = (res: Response, status: number, meta: Record<string, unknown>, body: Record<string, unknown>) => void;

function app(send: Send): Express {
  const a = express();
  a.disable('x-powered-by');
  a.set('etag', false);
  a.all('/answer', (req, res) => {
    const status = Number(req.query.status ?? 200);
    if (req.query.preset === 'retry') res.setHeader('Retry-After', '1');
    if (req.query.preset === 'type') res.setHeader('Content-Type', 'application/vnd.waymark+json');
    const size = Number(req.query.size ?? 0);
    const body: Record<string, unknown> = { text: 'é'.repeat(size), list: [1, null, 'two'] };
    // Serialised before (the track answer's user): spliced by sendEnvelope, parsed back by res.json.
    if (req.query.raw === 'yes') Object.assign(body, { user: new JsonText(JSON.stringify({ _id: 'u1', name: 'Zoë', geofences: [{ n: 1.5 }], empty: {} })), left: undefined });
    send(res, status, req.query.meta === 'yes' ? { message: 'm', param: 'p' } : {}, body);
  });
  return a;
}

let direct: ListeningApp;
let viaJson: ListeningApp;

beforeAll(async () => {
  direct = await listenApp(app(sendEnvelope));
  viaJson = await listenApp(app((res, status, meta, body) => res.status(status).json({ meta: { code: status, ...meta }, ...body })));
});
afterAll(async () => {
  await direct.close();
  await viaJson.close();
});

const get = (query: string, headers: Record<string, string> = {}, method = 'GET'): RawRequest => ({ method, path: `/answer?${query}`, headers });

const cases: Array<[string, RawRequest]> = [
  ['200', get('')],
  ['200 with meta', get('meta=yes')],
  ['201', get('status=201')],
  ['400', get('status=400&meta=yes')],
  ['500', get('status=500')],
  ['a large body (res.json sends it as a Buffer)', get('size=3000')],
  ['a body of 999 characters', get('size=470')],
  ['HEAD', get('size=100', {}, 'HEAD')],
  ['POST', get('status=201', {}, 'POST')],
  ['204 (no body)', get('status=204')],
  ['205 (no body)', get('status=205')],
  ['304', get('status=304')],
  ['If-None-Match: * (res.json answers 304)', get('', { 'If-None-Match': '*' })],
  ['If-None-Match with a tag', get('', { 'If-None-Match': '"abc"' })],
  ['If-Modified-Since', get('', { 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' })],
  ['If-None-Match on a POST', get('', { 'If-None-Match': '*' }, 'POST')],
  ['Retry-After set before', get('status=429&preset=retry')],
  ['a Content-Type set before', get('preset=type')],
  ['a member serialised before (JsonText)', get('raw=yes')],
  ['a member serialised before, large', get('raw=yes&size=3000')],
  ['a member serialised before, HEAD', get('raw=yes', {}, 'HEAD')],
];

test.each(cases)('%s: the same bytes as res.json', async (_name, req) => {
  const [mine, theirs] = await Promise.all([exchange(direct.port, req), exchange(viaJson.port, req)]);
  expect(comparable(mine)).toBe(comparable(theirs));
});
