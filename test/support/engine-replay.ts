// A local HTTP server that answers like a routing engine from recorded real responses
// (../shared/fixtures/engines). OSRM recordings are matched on service and coordinates, then on the query
// options that change the answer; geometry is re-encoded to the requested `geometries` so one recording
// serves any format (the points are the recorded ones). Every request is logged for assertions.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { decodePolyline, encodePolyline } from '../../adapters/router/polyline';
import type { LngLat } from '../../ports/router';
import { announceSkip, files } from './requires';

export const ENGINE_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/engines');
export const OSRM_MONACO = path.join(ENGINE_FIXTURES, 'osrm/monaco-v6.0.0');
export const VALHALLA_FIXTURES = path.join(ENGINE_FIXTURES, 'valhalla');

/** Warns once, visibly, and tells the caller to skip when the shared fixtures are missing. */
export function engineFixturesPresent(dir: string): boolean {
  if (fs.existsSync(dir)) return true;
  announceSkip('routing replays of the shared engine fixtures', files(dir));
  return false;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body?: unknown;
}

export interface Forced {
  status: number;
  /** Raw body text, served as is. */
  text: string;
  /** Never answer (for deadline tests). */
  hang?: boolean;
}

export interface ReplayServer {
  url: string;
  requests: LoggedRequest[];
  /** Answer every following request with this, until cleared (error-mapping tests). */
  force(answer: Forced | undefined): void;
  close(): Promise<void>;
}

interface OsrmRecording {
  service: string;
  coords: string;
  query: URLSearchParams;
  status: number;
  file: string;
}

/** Options whose value must match exactly for a recording to answer (absent on both sides counts). */
const STRICT = ['exclude', 'sources', 'destinations', 'waypoints', 'radiuses', 'number', 'timestamps', 'source', 'destination', 'roundtrip'];
const DEFAULTS: Record<string, string> = { alternatives: 'false', steps: 'false', geometries: 'polyline', overview: 'simplified' };

function option(q: URLSearchParams, key: string): string | undefined {
  return q.get(key) ?? DEFAULTS[key];
}

function normalizeCoords(text: string): string {
  return text.split(';').map((pair) => pair.split(',').map((n) => String(Number(n))).join(',')).join(';');
}

function loadOsrm(dir: string): OsrmRecording[] {
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'INDEX.json'), 'utf8')) as { requests: Array<{ file: string; request: string; http_status: number }> };
  return index.requests.map((r) => {
    const url = new URL(r.request.replace(/^GET /, 'http://x'));
    const parts = url.pathname.split('/').filter(Boolean);
    return { service: parts[0], coords: normalizeCoords(parts[3] ?? ''), query: url.searchParams, status: r.http_status, file: r.file };
  });
}

function precisionOf(format: string | undefined): 5 | 6 | 'geojson' {
  return format === 'geojson' ? 'geojson' : format === 'polyline6' ? 6 : 5;
}

/** Re-encodes every `geometry` from the recorded format to the requested one. */
function transcode(value: unknown, from: 5 | 6 | 'geojson', to: 5 | 6 | 'geojson'): unknown {
  if (from === to || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => transcode(v, from, to));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'geometry' && v !== undefined) {
      const points: LngLat[] = typeof v === 'string' ? decodePolyline(v, from === 'geojson' ? 5 : from) : (v as { coordinates: LngLat[] }).coordinates;
      out[key] = to === 'geojson' ? { type: 'LineString', coordinates: points } : encodePolyline(points, to);
    } else {
      out[key] = transcode(v, from, to);
    }
  }
  return out;
}

function listen(handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void, log: LoggedRequest[], forced: { answer?: Forced }): Promise<ReplayServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      log.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
      const f = forced.answer;
      if (f?.hang) return;
      if (f) {
        res.writeHead(f.status, { 'content-type': 'application/json' });
        res.end(f.text);
        return;
      }
      handler(req, text, res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests: log,
        force: (answer) => {
          forced.answer = answer;
        },
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Replays osrm-routed answers recorded in `dir` (INDEX.json lists each file's request). */
export function startOsrmReplay(dir: string = OSRM_MONACO): Promise<ReplayServer> {
  const recordings = loadOsrm(dir);
  const log: LoggedRequest[] = [];
  return listen((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    const service = parts[0];
    const coords = normalizeCoords(parts[3] ?? '');
    const q = url.searchParams;
    const matching = (keys: string[]): OsrmRecording[] =>
      recordings.filter((r) => r.service === service && r.coords === coords && keys.every((k) => option(r.query, k) === option(q, k)));
    // Snapping radiuses only narrow what a recording answered; a recording made with them serves a request
    // without them when no other recording of those coordinates exists.
    let candidates = matching(STRICT);
    if (candidates.length === 0) candidates = matching(STRICT.filter((k) => k !== 'radiuses')).filter((r) => r.status === 200);
    if (candidates.length === 0) {
      send(res, 404, { code: 'NoRecording', message: `no recorded answer for ${url.pathname}?${q}` });
      return;
    }
    const score = (r: OsrmRecording): number => [...new Set([...r.query.keys(), ...q.keys()])].filter((k) => option(r.query, k) === option(q, k)).length;
    const best = candidates.reduce((a, b) => (score(b) > score(a) ? b : a));
    const recorded = JSON.parse(fs.readFileSync(path.join(dir, best.file), 'utf8')) as unknown;
    send(res, best.status, transcode(recorded, precisionOf(option(best.query, 'geometries')), precisionOf(option(q, 'geometries'))));
  }, log, {});
}

/** Valhalla's POST services the replay answers, each with its documented example answer. */
const VALHALLA_EXAMPLES: Record<string, string> = {
  '/sources_to_targets': 'docs-examples/sources_to_targets.json',
  '/trace_attributes': 'docs-examples/trace_attributes.json',
  '/trace_route': 'docs-examples/trace_route.json',
  '/isochrone': 'docs-examples/isochrone.json',
};

/**
 * Replays Valhalla: `/route` answers a recorded OSRM-format route (whatever the locations: the recording's
 * own request is not published); `/sources_to_targets`, `/trace_attributes`, `/trace_route` and
 * `/isochrone` answer Valhalla's documented examples, whatever was asked.
 */
export function startValhallaReplay(routeFile = 'osrm-format-ferrostar/valhalla_osrm_response.json'): Promise<ReplayServer> {
  const log: LoggedRequest[] = [];
  const route = fs.readFileSync(path.join(VALHALLA_FIXTURES, routeFile), 'utf8');
  const examples = new Map(Object.entries(VALHALLA_EXAMPLES).map(([service, file]) => [service, fs.readFileSync(path.join(VALHALLA_FIXTURES, file), 'utf8')]));
  return listen((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/route') return send(res, 200, route);
    const example = req.method === 'POST' ? examples.get(url.pathname) : undefined;
    if (example !== undefined) return send(res, 200, example);
    send(res, 400, { error_code: 106, error: 'Try any of', status_code: 400, status: 'Bad Request' });
  }, log, {});
}
