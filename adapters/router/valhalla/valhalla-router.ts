// The Router port over a Valhalla server: `/route` with `format: osrm` (Valhalla writes OSRM v5 routes and
// steps, polyline6 shapes), `/sources_to_targets` for tables, `/trace_attributes` for map matching
// (valhalla-trace.ts) and `/isochrone` for reachable areas (valhalla-isochrone.ts). One server serves every
// mode through its costing models.
import { OutsideNetwork, type AvoidOption, type Eta, type IsochroneRequest, type LngLat, type MatchRequest, type MatchResult, type RouteRequest, type RouteResult, type Router, type RouterMode, type TableRequest, type TableResult } from '../../../ports/router';
import { RouterRejected, RouterUnavailable } from '../engine-errors';
import { etaByRoute, reachAtTopSpeed } from '../external-eta';
import { EngineHttp, type EngineReply } from '../../engine-http/engine-http';
import { routeFrom } from '../osrm/osrm-router';
import { isochroneBody, ringsFrom } from './valhalla-isochrone';
import { matchFrom, traceAttributesBody } from './valhalla-trace';

export interface ValhallaRouterOptions {
  url: string;
  timeoutMs: number;
}

export const COSTING: Record<RouterMode, string> = { car: 'auto', truck: 'truck', bike: 'bicycle', foot: 'pedestrian' };

/** Seconds added per border crossing to "avoid" them: Valhalla penalises borders rather than forbidding them. */
const BORDER_PENALTY_S = 86_400;


/** Valhalla's error codes for "no road near this location" (170s: locate failures). */
const NO_EDGE_CODES = new Set([171, 172]);

/** Map matching's "no match": no path for the trace (442), the exact (443) or HMM (444) matcher failed. */
const NO_MATCH_CODES = new Set([442, 443, 444]);

const ENGINE = 'valhalla';

type ValhallaLocation = { lat: number; lon: number; heading?: number; heading_tolerance?: number };

function location([lng, lat]: LngLat): ValhallaLocation {
  return { lat, lon: lng };
}

/** Avoid options as costing options of the mode's costing model. */
export function costingOptions(mode: RouterMode, avoid: readonly AvoidOption[] | undefined): Record<string, Record<string, number>> | undefined {
  if (!avoid?.length) return undefined;
  const options: Record<string, number> = {};
  for (const a of avoid) {
    if (a === 'tolls') options.use_tolls = 0;
    if (a === 'highways') options.use_highways = 0;
    if (a === 'ferries') options.use_ferry = 0;
    if (a === 'borderCrossings') options.country_crossing_penalty = BORDER_PENALTY_S;
  }
  return { [COSTING[mode]]: options };
}

export class ValhallaRouter implements Router {
  readonly name = 'valhalla';
  private readonly http: EngineHttp;

  constructor(opts: ValhallaRouterOptions) {
    this.http = new EngineHttp({ engine: ENGINE, baseUrl: opts.url, timeoutMs: opts.timeoutMs });
  }

  eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
    return etaByRoute((req) => this.route(req), from, to, mode);
  }

  reach(minutes: number, mode: RouterMode): number {
    return reachAtTopSpeed(minutes, mode);
  }

  async route(req: RouteRequest): Promise<RouteResult> {
    const locations = req.locations.map(location);
    if (req.heading !== undefined) {
      locations[0].heading = Math.round(((req.heading % 360) + 360) % 360);
      locations[0].heading_tolerance = 45;
    }
    const body: Record<string, unknown> = {
      locations,
      costing: COSTING[req.mode],
      format: 'osrm',
      shape_format: 'polyline6',
      units: 'kilometers',
      directions_type: req.steps ? 'instructions' : 'none',
    };
    const costing = costingOptions(req.mode, req.avoid);
    if (costing) body.costing_options = costing;
    if (req.alternatives && req.locations.length === 2) body.alternates = 2;
    const reply = await this.http.post('/route', body);
    const ok = this.okBody(reply, req.locations) as { code?: string; routes?: unknown[]; waypoints?: Array<{ location: LngLat }> };
    if (!Array.isArray(ok.routes) || ok.routes.length === 0) throw new RouterUnavailable(ENGINE, 'answered without routes');
    return {
      routes: ok.routes.map((r) => routeFrom(r as Parameters<typeof routeFrom>[0])),
      waypoints: (ok.waypoints ?? []).map((w) => w.location),
    };
  }

  async table(req: TableRequest): Promise<TableResult> {
    const body: Record<string, unknown> = {
      sources: req.sources.map(location),
      targets: req.destinations.map(location),
      costing: COSTING[req.mode],
      units: 'kilometers',
    };
    const costing = costingOptions(req.mode, req.avoid);
    if (costing) body.costing_options = costing;
    const reply = await this.http.post('/sources_to_targets', body);
    const ok = this.okBody(reply, [...req.sources, ...req.destinations]);
    return tableFrom(ok.sources_to_targets, req.sources.length, req.destinations.length);
  }

  async match(req: MatchRequest): Promise<MatchResult> {
    const reply = await this.http.post('/trace_attributes', traceAttributesBody(req, COSTING[req.mode]));
    const first = req.points[0].location;
    const code = (reply.body as { error_code?: unknown } | null)?.error_code;
    if (typeof code === 'number' && NO_MATCH_CODES.has(code)) {
      throw new OutsideNetwork(0, first, `the path could not be matched to a road network for this mode (valhalla ${code})`);
    }
    return matchFrom(this.okBody(reply, [first]), req.points.length);
  }

  async isochrone(req: IsochroneRequest): Promise<LngLat[][]> {
    const reply = await this.http.post('/isochrone', isochroneBody(req, COSTING[req.mode]));
    const rings = ringsFrom(this.okBody(reply, [req.center]));
    if (rings.length === 0) throw new RouterUnavailable(ENGINE, 'answered an isochrone without a contour');
    return rings;
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private okBody(reply: EngineReply, points: readonly LngLat[]): Record<string, unknown> {
    const body = (typeof reply.body === 'object' && reply.body !== null ? reply.body : {}) as Record<string, unknown>;
    if (reply.status === 200 && body.error_code === undefined) return body;
    const code = typeof body.error_code === 'number' ? body.error_code : undefined;
    const message = typeof body.error === 'string' ? body.error : `answered ${reply.status}`;
    if (code !== undefined && NO_EDGE_CODES.has(code)) {
      // Valhalla does not say which location; the first is named and the message says so.
      throw new OutsideNetwork(0, points[0], `a location is not near any road network for this mode (valhalla: ${message})`);
    }
    if (code === 442 || code === 443) throw new RouterRejected(ENGINE, 'no route connects these locations', 'locations');
    if (reply.status >= 400 && reply.status < 500 && code !== undefined && code >= 150 && code < 160) {
      throw new RouterRejected(ENGINE, `the Valhalla server refused the request as too big: ${message}`);
    }
    throw new RouterUnavailable(ENGINE, `${code ?? reply.status}: ${message}`);
  }
}

/**
 * Valhalla writes tables two ways: older servers a row per source of {time (s), distance (km)} cells, newer
 * ones `durations`/`distances` matrices. Both become seconds and metres, null where no route exists.
 */
export function tableFrom(raw: unknown, rows: number, cols: number): TableResult {
  const km = (v: unknown): number | null => (typeof v === 'number' ? Math.round(v * 1000 * 10) / 10 : null);
  const s = (v: unknown): number | null => (typeof v === 'number' ? v : null);
  let durations: Array<Array<number | null>>;
  let distances: Array<Array<number | null>>;
  if (Array.isArray(raw)) {
    const cells = raw as Array<Array<{ time?: number | null; distance?: number | null }>>;
    durations = cells.map((row) => row.map((c) => s(c?.time)));
    distances = cells.map((row) => row.map((c) => km(c?.distance)));
  } else if (typeof raw === 'object' && raw !== null && Array.isArray((raw as { durations?: unknown }).durations)) {
    const m = raw as { durations: unknown[][]; distances?: unknown[][] };
    durations = m.durations.map((row) => row.map(s));
    distances = (m.distances ?? m.durations.map((row) => row.map(() => null))).map((row) => row.map(km));
  } else {
    throw new RouterUnavailable(ENGINE, 'answered without sources_to_targets');
  }
  if (durations.length !== rows || durations.some((r) => r.length !== cols)) {
    throw new RouterUnavailable(ENGINE, `answered a table that is not ${rows}×${cols}`);
  }
  return { durations, distances };
}
