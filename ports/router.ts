// The Router port. Track, trips and search need `eta` and `reach`; the routing endpoints need routes,
// tables, matching and isochrones. Routes and steps are modelled on OSRM's v5 response objects
// (snake_case fields kept), because that is the lingua franca of routing engines: the OSRM adapter
// passes them through, the Valhalla adapter asks Valhalla for its OSRM-compatible format, the embedded
// engine emits them, and one formatter (with osrm-text-instructions) turns them into Radar's shapes.
import type { LngLat, OsrmManeuver, OsrmStep, OsrmLeg, OsrmRoute, TracePoint, MatchedPoint, MatchedRoad, MatchResult } from '../core/routing/route-shapes';

export type { LngLat, OsrmManeuver, OsrmStep, OsrmLeg, OsrmRoute, TracePoint, MatchedPoint, MatchedRoad, MatchResult };

export type RouterMode = 'car' | 'truck' | 'foot' | 'bike';

/** Radar's `avoid` values. */
export type AvoidOption = 'tolls' | 'highways' | 'ferries' | 'borderCrossings';

export interface Eta {
  /** Minutes. */
  duration: number;
  /** Metres. */
  distance: number;
}

export interface RouteRequest {
  /** Two or more points, visited in order. */
  locations: LngLat[];
  mode: RouterMode;
  avoid?: AvoidOption[];
  /** Ask for up to two alternatives (only with exactly two locations). */
  alternatives?: boolean;
  /** Turn-by-turn steps in each leg. */
  steps?: boolean;
  /** Degrees clockwise from north the traveller faces at the first location. */
  heading?: number;
}

export interface RouteResult {
  /** The best route first, then alternatives. */
  routes: OsrmRoute[];
  /** Each input location snapped to the network. */
  waypoints: LngLat[];
}

export interface TableRequest {
  sources: LngLat[];
  destinations: LngLat[];
  mode: RouterMode;
  avoid?: AvoidOption[];
}

export interface TableResult {
  /** Seconds, [source][destination]; null where no route exists. */
  durations: Array<Array<number | null>>;
  /** Metres, [source][destination]; null where no route exists. */
  distances: Array<Array<number | null>>;
}

export interface MatchRequest {
  points: TracePoint[];
  mode: RouterMode;
}

export interface IsochroneRequest {
  center: LngLat;
  mode: RouterMode;
  minutes: number;
}

/** Which network answered, so responses can say when an answer is only an estimate. */
export type RouterSource = 'embedded' | 'osrm' | 'valhalla' | 'geodesic-estimate';

/** A location no configured network reaches: answered as a 4xx naming the point. */
export class OutsideNetwork extends Error {
  constructor(readonly index: number, readonly location: LngLat, message?: string) {
    super(message ?? `location ${index} (${location[1]},${location[0]}) is not near any road network for this mode`);
  }
}

/**
 * The engine has the road network for these points but is still reading it (a gateway just started, or
 * a mode asked for the first time on a large region): not the caller's fault, retry after the seconds.
 */
export class RouterLoading extends Error {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
    this.name = 'RouterLoading';
  }
}

export interface Router {
  readonly name: string;
  /** What the engine is still loading (extracts, modes), one phrase each; empty when nothing is. */
  loading?(): string[];
  eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta>;
  /** How far (metres, straight line) one can get in `minutes`; used to bound searches by travel time. */
  reach(minutes: number, mode: RouterMode): number;
  /** What answers for this mode and area; `geodesic-estimate` when no network covers it. */
  sourceFor?(locations: LngLat[], mode: RouterMode): RouterSource;
  /**
   * Reads what answering for these points and mode needs (a network or a mode's graph still being read),
   * so that sourceFor decides on the graph rather than guessing; may fail with RouterLoading.
   */
  prepare?(locations: LngLat[], mode: RouterMode): Promise<void>;
  route?(req: RouteRequest): Promise<RouteResult>;
  table?(req: TableRequest): Promise<TableResult>;
  match?(req: MatchRequest): Promise<MatchResult>;
  /** The reachable area as a GeoJSON polygon ring set (outer ring first, [lng, lat]). */
  isochrone?(req: IsochroneRequest): Promise<LngLat[][]>;
}
