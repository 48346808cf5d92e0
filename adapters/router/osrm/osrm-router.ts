// The Router port over an OSRM server (osrm-routed, v5 HTTP API; v6 answers the same). One server per mode:
// OSRM loads one profile per process, so each mode's base URL points at the process built for it. Routes are
// asked as polyline6 (precise and compact) and decoded here; tables ask for durations and distances.
import { OutsideNetwork, type AvoidOption, type Eta, type LngLat, type OsrmLeg, type OsrmRoute, type OsrmStep, type RouteRequest, type RouteResult, type Router, type RouterMode, type TableRequest, type TableResult } from '../../../ports/router';
import { RouterRejected, RouterUnavailable } from '../engine-errors';
import { etaByRoute, reachAtTopSpeed } from '../external-eta';
import { EngineHttp, type EngineReply } from '../../engine-http/engine-http';
import { decodePolyline } from '../polyline';

export interface OsrmRouterOptions {
  /** Base URL of the OSRM server of each mode it serves. */
  urls: Partial<Record<RouterMode, string>>;
  timeoutMs: number;
  /** Largest answer read (bytes); the engine client's default when unset. */
  maxResponseBytes?: number;
}

/** The profile segment of OSRM URLs; osrm-routed ignores it, but proxies in front of several servers use it. */
const PROFILE: Record<RouterMode, string> = { car: 'driving', truck: 'driving', bike: 'cycling', foot: 'walking' };

/** OSRM's car profile names these exclude classes; borderCrossings has none. */
const EXCLUDE: Partial<Record<AvoidOption, string>> = { tolls: 'toll', highways: 'motorway', ferries: 'ferry' };


const ENGINE = 'osrm';

/**
 * OSRM snaps a point to the nearest road however far it is (0,0 lands in whatever the extract holds).
 * Farther than this from any road, a point counts as outside the network.
 */
export const MAX_SNAP_METERS = 2000;

interface Snapped {
  location: LngLat;
  /** Metres from the input point to where it snapped. */
  distance?: number;
}

function checkSnapping(snapped: readonly Snapped[] | undefined, inputs: readonly LngLat[], first: number): void {
  snapped?.forEach((w, i) => {
    if (typeof w.distance === 'number' && w.distance > MAX_SNAP_METERS && i < inputs.length) {
      throw new OutsideNetwork(first + i, inputs[i], `location ${first + i} (${inputs[i][1]},${inputs[i][0]}) is ${Math.round(w.distance)} m from the nearest road of this network`);
    }
  });
}

interface OsrmErrorBody {
  code?: string;
  message?: string;
}

function coordinateList(points: readonly LngLat[]): string {
  // Six decimals (≈ 0.1 m) keep URLs short and identical for identical inputs.
  return points.map(([lng, lat]) => `${+lng.toFixed(6)},${+lat.toFixed(6)}`).join(';');
}

export class OsrmRouter implements Router {
  readonly name = 'osrm';
  private readonly clients = new Map<RouterMode, EngineHttp>();

  constructor(opts: OsrmRouterOptions) {
    for (const [mode, url] of Object.entries(opts.urls) as Array<[RouterMode, string]>) {
      this.clients.set(mode, new EngineHttp({ engine: `${ENGINE} (${mode})`, baseUrl: url, timeoutMs: opts.timeoutMs, maxBytes: opts.maxResponseBytes }));
    }
  }

  /** The modes this adapter has a server for. */
  modes(): RouterMode[] {
    return [...this.clients.keys()];
  }

  eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
    return etaByRoute((req) => this.route(req), from, to, mode);
  }

  reach(minutes: number, mode: RouterMode): number {
    return reachAtTopSpeed(minutes, mode);
  }

  async route(req: RouteRequest): Promise<RouteResult> {
    const query = new URLSearchParams({
      overview: 'full',
      geometries: 'polyline6',
      steps: req.steps ? 'true' : 'false',
      alternatives: req.alternatives && req.locations.length === 2 ? 'true' : 'false',
    });
    const exclude = excludeClasses(req.avoid);
    if (exclude) query.set('exclude', exclude);
    if (req.heading !== undefined) {
      // One entry per coordinate; only the first is constrained (OSRM wants "bearing,range").
      query.set('bearings', [`${Math.round(((req.heading % 360) + 360) % 360)},45`, ...req.locations.slice(1).map(() => '')].join(';'));
    }
    const reply = await this.client(req.mode).get(`/route/v1/${PROFILE[req.mode]}/${coordinateList(req.locations)}?${query.toString().replace(/%3B/g, ';').replace(/%2C/g, ',')}`);
    const body = this.okBody(reply, req.locations) as { routes?: unknown[]; waypoints?: Snapped[] };
    checkSnapping(body.waypoints, req.locations, 0);
    if (!Array.isArray(body.routes) || body.routes.length === 0) throw new RouterUnavailable(ENGINE, 'answered Ok without routes');
    return {
      routes: body.routes.map((r) => routeFrom(r as RawRoute)),
      waypoints: (body.waypoints ?? []).map((w) => w.location),
    };
  }

  async table(req: TableRequest): Promise<TableResult> {
    // The same list both ways (a square matrix) is sent once; otherwise sources then destinations.
    const same = req.sources.length === req.destinations.length && req.sources.every((p, i) => p[0] === req.destinations[i][0] && p[1] === req.destinations[i][1]);
    const points = same ? req.sources : [...req.sources, ...req.destinations];
    const query = new URLSearchParams({ annotations: 'duration,distance' });
    if (!same) {
      query.set('sources', req.sources.map((_, i) => i).join(';'));
      query.set('destinations', req.destinations.map((_, i) => req.sources.length + i).join(';'));
    }
    const exclude = excludeClasses(req.avoid);
    if (exclude) query.set('exclude', exclude);
    const reply = await this.client(req.mode).get(`/table/v1/${PROFILE[req.mode]}/${coordinateList(points)}?${query.toString().replace(/%3B/g, ';').replace(/%2C/g, ',')}`);
    const body = this.okBody(reply, points, same ? undefined : req.sources.length) as {
      durations?: Array<Array<number | null>>; distances?: Array<Array<number | null>>; sources?: Snapped[]; destinations?: Snapped[];
    };
    checkSnapping(body.sources, req.sources, 0);
    checkSnapping(body.destinations, req.destinations, 0);
    const rows = req.sources.length;
    const cols = req.destinations.length;
    const durations = body.durations;
    const distances = body.distances;
    if (!Array.isArray(durations) || durations.length !== rows || durations.some((r) => !Array.isArray(r) || r.length !== cols)) {
      throw new RouterUnavailable(ENGINE, `answered a table that is not ${rows}×${cols}`);
    }
    return {
      durations,
      // Servers older than 5.17 have no distance annotation: unknown distances stay null, never invented.
      distances: Array.isArray(distances) && distances.length === rows ? distances : durations.map((r) => r.map(() => null)),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }

  private client(mode: RouterMode): EngineHttp {
    const client = this.clients.get(mode);
    if (!client) throw new RouterRejected(ENGINE, `no OSRM server is configured for mode ${mode}`, 'mode');
    return client;
  }

  /**
   * The body of an "Ok" answer, or the error it means. `offset` maps table coordinates back to the
   * destination list when sources and destinations were sent together.
   */
  private okBody(reply: EngineReply, points: readonly LngLat[], offset?: number): Record<string, unknown> {
    const body = (typeof reply.body === 'object' && reply.body !== null ? reply.body : {}) as OsrmErrorBody & Record<string, unknown>;
    if (reply.status === 200 && body.code === 'Ok') return body;
    const message = body.message ?? `answered ${reply.status}`;
    switch (body.code) {
      case 'NoSegment': {
        const m = /coordinate (\d+)/.exec(message);
        const index = m ? Number(m[1]) : 0;
        const point = points[Math.min(index, points.length - 1)];
        const shown = offset !== undefined && index >= offset ? index - offset : index;
        throw new OutsideNetwork(shown, point);
      }
      case 'NoRoute':
        throw new RouterRejected(ENGINE, 'no route connects these locations', 'locations');
      case 'TooBig':
        throw new RouterRejected(ENGINE, `the OSRM server refused the request as too big: ${message}`);
      case 'InvalidValue':
      case 'InvalidOptions':
      case 'InvalidQuery':
        // We build every query: the server not accepting one (an exclude class its profile lacks…) is a
        // mismatch between this adapter and that server, reported as such rather than blamed on the client.
        if (/exclude/i.test(message)) throw new RouterRejected(ENGINE, `this OSRM server's profile cannot avoid that: ${message}`, 'avoid');
        throw new RouterUnavailable(ENGINE, `refused our request (${body.code}): ${message}`);
      default:
        throw new RouterUnavailable(ENGINE, `${body.code ?? 'error'}: ${message}`);
    }
  }
}

function excludeClasses(avoid: readonly AvoidOption[] | undefined): string | undefined {
  if (!avoid?.length) return undefined;
  const unsupported = avoid.filter((a) => !EXCLUDE[a]);
  if (unsupported.length) throw new RouterRejected(ENGINE, `avoid=${unsupported.join(',')} is not supported by the OSRM engine`, 'avoid');
  return avoid.map((a) => EXCLUDE[a]).join(',');
}

interface RawStep extends Omit<OsrmStep, 'geometry'> {
  geometry: unknown;
}

interface RawRoute {
  distance: number;
  duration: number;
  geometry?: unknown;
  legs: Array<Omit<OsrmLeg, 'steps'> & { steps?: RawStep[] }>;
}

/** polyline6 as asked; GeoJSON too, for servers (and proxies) that answer in it regardless. */
function shape(raw: unknown): LngLat[] {
  if (typeof raw === 'string') return decodePolyline(raw, 6);
  if (typeof raw === 'object' && raw !== null && Array.isArray((raw as { coordinates?: unknown }).coordinates)) {
    return (raw as { coordinates: LngLat[] }).coordinates;
  }
  return [];
}

export function routeFrom(raw: RawRoute): OsrmRoute {
  const legs: OsrmLeg[] = raw.legs.map((leg) => ({
    distance: leg.distance,
    duration: leg.duration,
    summary: leg.summary ?? '',
    steps: (leg.steps ?? []).map((s) => ({ ...s, geometry: shape(s.geometry) })),
  }));
  let geometry = shape(raw.geometry);
  if (geometry.length === 0) geometry = legs.flatMap((l) => l.steps.flatMap((s) => s.geometry));
  return { distance: raw.distance, duration: raw.duration, geometry, legs };
}
