// The request body reader (server/http/request-body.ts) reads plain JSON bodies itself and hands the
// rest to express.json/express.urlencoded. Its answers must be the parsers' own: every case here goes,
// byte for byte, to a server using requestBody() and to one using the two Express parsers, both behind
// our error handler, and the raw answers are compared. Then the cases the brief names are checked on
// the gateway itself: 413 with meta.param, bad JSON → 400, other content types, empty and chunked
// bodies, NUL bytes.
import express, { type Express } from 'express';
import { errorHandler, sendEnvelope } from '../../server/http/envelope';
import { silentLogger } from '../../ports/logger';
import { parseByteLimit, requestBody } from '../../server/http/request-body';
import { startTestServer, type TestServer } from '../support/server';
import { comparable, exchange, jsonBodyOf, statusLine, type RawRequest } from './raw-exchange';
import { listenApp, type ListeningApp } from '../support/listen-app';

const LIMIT = '1kb';

/** Echoes what the parsers left in req.body. */
function echoApp(parsers: (app: Express) => void): Express {
  const app = express();
  app.set('etag', false);
  parsers(app);
  app.all('/echo', (req, res) => {
    sendEnvelope(res, 200, {}, { body: req.body === undefined ? '<undefined>' : (req.body as unknown) });
  });
  app.use(errorHandler(silentLogger()));
  return app;
}

let ours: ListeningApp;
let express4: ListeningApp;

beforeAll(async () => {
  ours = await listenApp(echoApp((app) => app.use(requestBody(LIMIT))));
  express4 = await listenApp(echoApp((app) => {
    app.use(express.json({ limit: LIMIT, type: ['application/json', 'application/*+json'] }));
    app.use(express.urlencoded({ limit: LIMIT, extended: false }));
  }));
});
afterAll(async () => {
  await ours.close();
  await express4.close();
});

const JSON_TYPE = { 'Content-Type': 'application/json' };
const post = (body: string[] | undefined, headers: Record<string, string> = JSON_TYPE, chunked = false): RawRequest => ({ method: 'POST', path: '/echo', headers, body, chunked });
const big = `{"x":"${'y'.repeat(1100)}"}`;

const cases: Array<[string, RawRequest]> = [
  ['an object', post(['{"deviceId":"d1","latitude":40.7,"longitude":-73.9}'])],
  ['an array', post(['[1,2,3]'])],
  ['unicode, in one piece', post([Buffer.from('{"name":"café € 😀"}').toString('latin1')])],
  ['unicode split inside a character', post(['{"name":"caf\xc3', '\xa9 \xe2\x82', '\xac"}'])],
  ['a leading byte-order mark', post(['\xef\xbb\xbf{"a":1}'])],
  ['only a byte-order mark', post(['\xef\xbb\xbf'])],
  ['bytes that are not UTF-8', post(['{"a":"\xff\xfe"}'])],
  ['whitespace around', post([' \t\r\n{"a":1} \n'])],
  ['an empty body', post([''])],
  ['only whitespace', post(['   '])],
  ['a string at the top', post(['"text"'])],
  ['a number at the top', post(['42'])],
  ['null at the top', post(['null'])],
  ['truncated JSON', post(['{"a":'])],
  ['a trailing comma', post(['{"a":1,}'])],
  ['a raw NUL byte inside a string', post(['{"a":"x\x00y"}'])],
  ['an escaped NUL inside a string', post(['{"a":"x\\u0000y"}'])],
  ['a NUL byte before the object', post(['\x00{"a":1}'])],
  ['over the limit by Content-Length', post([big])],
  ['exactly at the limit', post([`{"x":"${'y'.repeat(1024 - 8)}"}`])],
  ['one byte over the limit', post([`{"x":"${'y'.repeat(1024 - 7)}"}`])],
  ['chunked', post(['{"a":', '1,"b":', '[true]}'], JSON_TYPE, true)],
  ['chunked, empty', post([], JSON_TYPE, true)],
  ['chunked over the limit', post([big.slice(0, 600), big.slice(600)], JSON_TYPE, true)],
  ['chunked, bad JSON', post(['{"a"', ':}'], JSON_TYPE, true)],
  ['charset=utf-8', post(['{"a":1}'], { 'Content-Type': 'application/json; charset=utf-8' })],
  ['charset=UTF-8, quoted, no space', post(['{"a":1}'], { 'Content-Type': 'application/json;charset="UTF-8"' })],
  ['upper-case type', post(['{"a":1}'], { 'Content-Type': 'APPLICATION/JSON' })],
  ['charset=latin1', post(['{"a":1}'], { 'Content-Type': 'application/json; charset=latin1' })],
  ['charset=utf-16le', post([Buffer.from('{"a":1}', 'utf16le').toString('latin1')], { 'Content-Type': 'application/json; charset=utf-16le' })],
  ['a charset without a value', post(['{"a":1}'], { 'Content-Type': 'application/json; charset' })],
  ['another parameter', post(['{"a":1}'], { 'Content-Type': 'application/json; version=2' })],
  ['a +json type', post(['{"a":1}'], { 'Content-Type': 'application/vnd.api+json' })],
  ['a +json type, malformed', post(['{'], { 'Content-Type': 'application/vnd.api+json' })],
  ['text/plain', post(['{"a":1}'], { 'Content-Type': 'text/plain' })],
  ['no Content-Type', post(['{"a":1}'], {})],
  ['form-encoded', post(['a=1&b=two'], { 'Content-Type': 'application/x-www-form-urlencoded' })],
  ['form-encoded over the limit', post([`a=${'y'.repeat(1100)}`], { 'Content-Type': 'application/x-www-form-urlencoded' })],
  ['gzip that is not gzip', post(['{"a":1}'], { ...JSON_TYPE, 'Content-Encoding': 'gzip' })],
  ['an unknown content encoding', post(['{"a":1}'], { ...JSON_TYPE, 'Content-Encoding': 'x-snappy' })],
  ['identity content encoding', post(['{"a":1}'], { ...JSON_TYPE, 'Content-Encoding': 'identity' })],
  ['a GET without a body', { method: 'GET', path: '/echo' }],
  ['a GET with a JSON body', { method: 'GET', path: '/echo', headers: JSON_TYPE, body: ['{"a":1}'] }],
  ['a DELETE with Content-Length 0', { method: 'DELETE', path: '/echo', headers: JSON_TYPE, body: [''] }],
];

describe('answers like express.json and express.urlencoded', () => {
  test.each(cases)('%s', async (_name, req) => {
    const [mine, theirs] = await Promise.all([exchange(ours.port, req), exchange(express4.port, req)]);
    expect(comparable(mine)).toBe(comparable(theirs));
  });

  test('a keep-alive connection goes on after a refused body', async () => {
    const refused = `{"x":"${'y'.repeat(1100)}"}`;
    const second = '{"after":true}';
    const req: RawRequest = {
      method: 'POST', path: '/echo', headers: { ...JSON_TYPE, Connection: 'keep-alive', 'Content-Length': String(refused.length) },
      body: [`${refused}POST /echo HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${second.length}\r\n\r\n${second}`],
    };
    const [mine, theirs] = await Promise.all([exchange(ours.port, req), exchange(express4.port, req)]);
    expect(comparable(mine)).toBe(comparable(theirs));
    expect(mine).toContain('HTTP/1.1 413');
    expect(mine).toContain('{"meta":{"code":200},"body":{"after":true}}');
  });
});

describe('the limit as body-parser reads it', () => {
  test.each([
    ['1kb', 1024], ['100kb', 102_400], ['1mb', 1_048_576], ['2048b', 2048], ['1.5kb', 1536], ['1048576', 1_048_576], ['2 MB', 2_097_152],
  ] as Array<[string, number]>)('%s → %d bytes', (text, bytes) => {
    expect(parseByteLimit(text)).toBe(bytes);
  });
  test('a limit that is not a size stops start-up', () => {
    expect(() => requestBody('lots')).toThrow();
    expect(() => parseByteLimit('lots')).toThrow('not a size');
  });
});

describe('on the gateway (POST /v1/track, 1 KiB limit)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ bodyLimit: '1kb' });
  });
  afterAll(async () => {
    await s.close();
  });
  const track = (body: string[] | undefined, headers: Record<string, string> = JSON_TYPE, chunked = false): Promise<string> =>
    exchange(s.running.port, { method: 'POST', path: '/v1/track', headers: { authorization: s.keys.testPk, ...headers }, body, chunked });
  const update = (deviceId: string): string => JSON.stringify({ deviceId, latitude: 40.75, longitude: -73.98, accuracy: 10 });

  test('a body over the limit → 413 naming body, by Content-Length and chunked', async () => {
    for (const answer of [await track([big]), await track([big.slice(0, 500), big.slice(500)], JSON_TYPE, true)]) {
      expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
      expect(jsonBodyOf(answer)).toEqual({ meta: { code: 413, param: 'body', type: 'ERROR_PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1024 bytes' } });
    }
  });

  test('bad JSON → 400 naming body', async () => {
    const answer = await track(['{"deviceId":']);
    expect(statusLine(answer)).toBe('HTTP/1.1 400 Bad Request');
    expect(jsonBodyOf(answer)).toEqual({ meta: { code: 400, param: 'body', message: 'Request body is not valid JSON' } });
  });

  test('a chunked update in pieces is tracked', async () => {
    const body = update('chunked-device');
    const answer = await track([body.slice(0, 10), body.slice(10, 30), body.slice(30)], JSON_TYPE, true);
    expect(statusLine(answer)).toBe('HTTP/1.1 200 OK');
    expect((jsonBodyOf(answer).user as { deviceId: string }).deviceId).toBe('chunked-device');
  });

  test('an empty body is read as {}: the update then lacks its deviceId', async () => {
    expect(jsonBodyOf(await track(['']))).toEqual({ meta: { code: 400, param: 'deviceId', message: 'deviceId is required' } });
  });

  test('a body under another content type is not read as JSON', async () => {
    const answer = await track([update('text-device')], { 'Content-Type': 'text/plain' });
    expect(jsonBodyOf(answer)).toEqual({ meta: { code: 400, param: 'deviceId', message: 'deviceId is required' } });
  });

  test('NUL: a raw NUL byte is not JSON (400 body); an escaped one is refused by name (400 deviceId)', async () => {
    expect(jsonBodyOf(await track(['{"deviceId":"a\x00b","latitude":1,"longitude":1,"accuracy":5}'])).meta).toEqual({ code: 400, param: 'body', message: 'Request body is not valid JSON' });
    const escaped = jsonBodyOf(await track(['{"deviceId":"a\\u0000b","latitude":1,"longitude":1,"accuracy":5}'])).meta as Record<string, unknown>;
    expect([escaped.code, escaped.param]).toEqual([400, 'deviceId']);
  });
});
