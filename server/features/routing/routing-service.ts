// The four routing operations over the router selection: which router answers, what its failures mean to
// the client (a point off the network → 400 naming it; an engine down → 503), and Radar's response shapes.
import { RouterRejected, RouterUnavailable } from '../../../adapters/router/engine-errors';
import { OutsideNetwork, RouterLoading, type AvoidOption, type LngLat, type RouterMode, type RouterSource } from '../../../ports/router';
import { haversineMeters } from '../../../core/geo/sphere';
import { bestOrder } from '../../../core/routing/best-order';
import { BadRequest, EngineLoading, EngineUnavailable } from '../../http/errors';
import { NoRouteBetween } from '../../../adapters/router/embedded/embedded-router';
import { directionsRoute, geometryOf, joinShapes, latLng, measures, type GeometryFormat } from './route-format';
import { distanceMeasure, type Units } from './route-units';
import type { RouterSelection } from './router-selection';
import type { Language } from './step-instructions';

/** The sentence a response carries when a mode was answered by the straight-line estimate. */
export const ESTIMATE_WARNING = 'No imported road network covers these locations for this mode: distances and durations are straight-line estimates (routes marked "estimate": true).';

/** Named input lists, to say which parameter holds a point the network does not reach. */
type NamedPoints = Array<{ param: string; points: readonly LngLat[] }>;

function same(a: LngLat, b: LngLat): boolean {
  return Math.abs(a[0] - b[0]) < 1e-9 && Math.abs(a[1] - b[1]) < 1e-9;
}

/** Router failures as API errors; anything else is a bug and stays a 500. */
function asApiError(err: unknown, named: NamedPoints): unknown {
  if (err instanceof NoRouteBetween) {
    // Both ends are near roads; the network does not join them. Named after the last point's parameter.
    const last = named[named.length - 1];
    return new BadRequest(last?.param ?? 'locations', err.message);
  }
  if (err instanceof OutsideNetwork) {
    for (const { param, points } of named) {
      const i = points.findIndex((p) => same(p, err.location));
      if (i >= 0) {
        const which = points.length > 1 ? `${param} point ${i + 1}` : param;
        return new BadRequest(param, `${which} (${err.location[1]},${err.location[0]}) is not near any road network for this mode`);
      }
    }
    return new BadRequest(named[0]?.param ?? 'locations', err.message);
  }
  if (err instanceof RouterRejected) return new BadRequest(err.param ?? named[0]?.param ?? 'locations', err.message);
  if (err instanceof RouterUnavailable) return new EngineUnavailable('The routing engine', err.message.replace(/^.*? is unavailable: /, `${err.engine}: `));
  if (err instanceof RouterLoading) return new EngineLoading('The routing engine', err.message, err.retryAfterSeconds);
  return err;
}

export async function guarded<T>(named: NamedPoints, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asApiError(err, named);
  }
}

export interface Answer {
  body: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

function withWarning(estimated: boolean, body: Record<string, unknown>): Answer {
  return estimated ? { body, meta: { warning: ESTIMATE_WARNING } } : { body };
}

export interface DistanceQuery {
  origin: LngLat;
  destination: LngLat;
  modes: Array<RouterMode | 'geodesic'>;
  units: Units;
  avoid?: AvoidOption[];
  geometry?: GeometryFormat;
}

export interface MatrixQuery {
  origins: LngLat[];
  destinations: LngLat[];
  mode: RouterMode;
  units: Units;
  avoid?: AvoidOption[];
}

export interface DirectionsQuery {
  locations: LngLat[];
  mode: RouterMode;
  units: Units;
  avoid?: AvoidOption[];
  geometry: GeometryFormat;
  heading?: number;
  alternatives: boolean;
  lang: Language;
}

export interface OptimizeQuery {
  locations: LngLat[];
  mode: RouterMode;
  units: Units;
  geometry?: GeometryFormat;
}

export class RoutingService {
  constructor(private readonly routers: RouterSelection) {}

  async distance(q: DistanceQuery): Promise<Answer> {
    const named: NamedPoints = [{ param: 'origin', points: [q.origin] }, { param: 'destination', points: [q.destination] }];
    // Radar always answers the straight-line distance, first, whatever modes were asked (its documented
    // sample for modes=foot,car has it, and radar-python reads it).
    const routes: Record<string, unknown> = { geodesic: { distance: distanceMeasure(haversineMeters(q.origin, q.destination), q.units) } };
    let estimated = false;
    const travelModes = q.modes.filter((mode): mode is RouterMode => mode !== 'geodesic');
    const answers = await Promise.all(travelModes.map(async (mode) => {
      const { router, source } = await guarded(named, () => this.routers.pickReady([q.origin, q.destination], mode));
      const result = await guarded(named, () => router.route({ locations: [q.origin, q.destination], mode, avoid: q.avoid }));
      const route = result.routes[0];
      const out: Record<string, unknown> = measures(route, q.units);
      if (q.geometry) out.geometry = geometryOf(route.geometry, q.geometry);
      if (source === 'geodesic-estimate') {
        out.estimate = true;
        estimated = true;
      }
      return { mode, out };
    }));
    for (const { mode, out } of answers) routes[mode] = out;
    return withWarning(estimated, { routes });
  }

  async matrix(q: MatrixQuery): Promise<Answer> {
    const named: NamedPoints = [{ param: 'origins', points: q.origins }, { param: 'destinations', points: q.destinations }];
    const { router, source } = await guarded(named, () => this.routers.pickReady([...q.origins, ...q.destinations], q.mode));
    const table = await guarded(named, () => router.table({ sources: q.origins, destinations: q.destinations, mode: q.mode, avoid: q.avoid }));
    const estimated = source === 'geodesic-estimate';
    const matrix = q.origins.map((_, i) => q.destinations.map((__, j) => {
      const duration = table.durations[i][j];
      const distance = table.distances[i][j];
      if (duration === null) {
        // No route joins the pair: the entry stays, flagged, so indexes line up for clients.
        return { distance: { value: -1, text: '' }, duration: { value: -1, text: '' }, originIndex: i, destinationIndex: j, unreachable: true };
      }
      const entry: Record<string, unknown> = {
        ...measures({ distance: distance ?? 0, duration }, q.units),
        originIndex: i,
        destinationIndex: j,
      };
      if (distance === null) entry.distance = { value: -1, text: '' };
      if (estimated) entry.estimate = true;
      return entry;
    }));
    return withWarning(estimated, { origins: q.origins.map(latLng), destinations: q.destinations.map(latLng), matrix });
  }

  async directions(q: DirectionsQuery): Promise<Answer> {
    const named: NamedPoints = [{ param: 'locations', points: q.locations }];
    const { router, source } = await guarded(named, () => this.routers.pickReady(q.locations, q.mode));
    const result = await guarded(named, () => router.route({
      locations: q.locations, mode: q.mode, avoid: q.avoid, alternatives: q.alternatives, steps: true, heading: q.heading,
    }));
    const estimated = source === 'geodesic-estimate';
    const routes = result.routes.map((r) => {
      const out = directionsRoute(r, q.locations, { units: q.units, geometry: q.geometry, lang: q.lang });
      return estimated ? { ...out, estimate: true } : out;
    });
    return withWarning(estimated, { routes });
  }

  /**
   * The first location stays first and the last stays last; the middle ones are put in the order of least
   * total travel time (exact, over the table of durations), then routed in that order.
   */
  async optimize(q: OptimizeQuery): Promise<Answer> {
    const named: NamedPoints = [{ param: 'locations', points: q.locations }];
    const n = q.locations.length;
    const { router, source } = await guarded(named, () => this.routers.pickReady(q.locations, q.mode));
    const table = await guarded(named, () => router.table({ sources: q.locations, destinations: q.locations, mode: q.mode }));
    const cost = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) cost[i * n + j] = table.durations[i][j] ?? Infinity;
    const best = bestOrder(cost, n);
    if (best.cost === Infinity) throw new BadRequest('locations', 'no order of these locations is connected by roads for this mode');
    const ordered = best.order.map((i) => q.locations[i]);
    const result = await guarded(named, () => router.route({ locations: ordered, mode: q.mode, steps: q.geometry !== undefined }));
    const route = result.routes[0];
    const estimated = source === 'geodesic-estimate';
    const legs = route.legs.map((leg, k) => {
      const out: Record<string, unknown> = {
        startLocation: latLng(ordered[k]),
        endLocation: latLng(ordered[k + 1]),
        startIndex: best.order[k],
        endIndex: best.order[k + 1],
        ...measures(leg, q.units),
      };
      if (q.geometry) {
        const shape = joinShapes(leg.steps.map((s) => s.geometry));
        out.geometry = geometryOf(shape.length ? shape : [ordered[k], ordered[k + 1]], q.geometry);
      }
      return out;
    });
    const body: Record<string, unknown> = { ...measures(route, q.units), legs };
    if (estimated) body.estimate = true;
    return withWarning(estimated, { route: body });
  }
}
