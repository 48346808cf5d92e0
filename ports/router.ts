// The Router port. Track, trips and search need `eta` and `reach`; the routing endpoints need routes,
// tables, matching and isochrones. Routes and steps are modelled on OSRM's v5 response objects
// (snake_case fields kept), because that is the lingua franca of routing engines: the OSRM adapter
// passes them through, the Valhalla adapter asks Valhalla for its OSRM-compatible format, the embedded
// engine emits them, and one formatter (with osrm-text-instructions) turns them into Radar's shapes.
export type RouterMode = 'car' | 'truck' | 'foot' | 'bike';

/** [longitude, latitude]. */
export type LngLat = [number, number];

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

export interface OsrmManeuver {
  /** OSRM maneuver types: depart, arrive, turn, new name, continue, merge, on ramp, off ramp, fork,
   *  end of road, roundabout, rotary, roundabout turn, exit roundabout, exit rotary, notification. */
  type: string;
  /** uturn, sharp right, right, slight right, straight, slight left, left, sharp left. */
  modifier?: string;
  bearing_before: number;
  bearing_after: number;
  location: LngLat;
  /** Roundabout exit number. */
  exit?: number;
}

export interface OsrmStep {
  /** Metres. */
  distance: number;
  /** Seconds. */
  duration: number;
  name: string;
  ref?: string;
  destinations?: string;
  exits?: string;
  rotary_name?: string;
  /** driving, walking, cycling, ferry… */
  mode: string;
  driving_side?: 'left' | 'right';
  geometry: LngLat[];
  maneuver: OsrmManeuver;
  /** Our addition: the step's speed limit (km/h) where the road is tagged, for Radar's step fields. */
  speed_limit_kph?: number;
}

export interface OsrmLeg {
  distance: number;
  duration: number;
  summary: string;
  steps: OsrmStep[];
}

export interface OsrmRoute {
  /** Metres. */
  distance: number;
  /** Seconds. */
  duration: number;
  /** The whole route, [lng, lat] points. */
  geometry: LngLat[];
  legs: OsrmLeg[];
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

/** A point of a trace to match. */
export interface TracePoint {
  location: LngLat;
  /** Seconds since the epoch, when known. */
  time?: number;
  /** Metres, when known. */
  accuracy?: number;
}

export interface MatchRequest {
  points: TracePoint[];
  mode: RouterMode;
}

export interface MatchedPoint {
  location: LngLat;
  /** Index of the input point it matched. */
  originalIndex: number;
}

export interface MatchedRoad {
  /** OSM `highway` class of the road. */
  highway: string;
  names: string[];
  /** km/h from `maxspeed`, when tagged. */
  speedLimitKph?: number;
  /** Positions of the road's stretch along the matched geometry. */
  start: LngLat;
  end: LngLat;
}

export interface MatchResult {
  matchedPoints: MatchedPoint[];
  geometry: LngLat[];
  /** Metres along the matched geometry. */
  distance: number;
  roads: MatchedRoad[];
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

export interface Router {
  readonly name: string;
  eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta>;
  /** How far (metres, straight line) one can get in `minutes`; used to bound searches by travel time. */
  reach(minutes: number, mode: RouterMode): number;
  /** What answers for this mode and area; `geodesic-estimate` when no network covers it. */
  sourceFor?(locations: LngLat[], mode: RouterMode): RouterSource;
  route?(req: RouteRequest): Promise<RouteResult>;
  table?(req: TableRequest): Promise<TableResult>;
  match?(req: MatchRequest): Promise<MatchResult>;
  /** The reachable area as a GeoJSON polygon ring set (outer ring first, [lng, lat]). */
  isochrone?(req: IsochroneRequest): Promise<LngLat[][]>;
}
