// The shapes of routes and matched traces the routing engine computes, in OSRM's v5 response objects
// (snake_case fields kept): the embedded engine emits them, the OSRM and Valhalla adapters pass theirs
// through, and the Router port (ports/router.ts) hands them on. Plain data, so they live in core.
/** [longitude, latitude]. */
export type LngLat = [number, number];

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

/** A point of a trace to match. */
export interface TracePoint {
  location: LngLat;
  /** Seconds since the epoch, when known. */
  time?: number;
  /** Metres, when known. */
  accuracy?: number;
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
