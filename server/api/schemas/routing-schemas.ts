// Response schemas of the routing endpoints (route/distance, matrix, directions, optimize, match), Radar's
// shapes with Waymark's `estimate` flag (an answer from straight-line estimates, not a road network).
import { BOOLEAN, INTEGER, LNG_LAT, NUMBER, STRING, arrayOf, component, object, values, type Schema } from '../../http/response-schema';

const MEASURE = object({ value: NUMBER, text: STRING });
export const LAT_LNG: Schema = component('LatLng', object({ latitude: NUMBER, longitude: NUMBER }));
/** An encoded polyline (the default) or GeoJSON LineString (geometry=linestring). */
const GEOMETRY = component('RouteGeometry', object({ polyline: STRING, type: { const: 'LineString' }, coordinates: arrayOf(LNG_LAT) }, { optional: ['polyline', 'type', 'coordinates'] }));

const STEP = object({
  distance: MEASURE, duration: MEASURE, start_location: LAT_LNG, end_location: LAT_LNG,
  bearing_before: NUMBER, bearing_after: NUMBER, instructions: STRING,
  banner_instructions: arrayOf(object({ distanceAlongGeometry: NUMBER, primary: object({ text: STRING, type: STRING, modifier: STRING }, { optional: ['modifier'] }) })),
  voice_instructions: arrayOf(object({ distanceAlongGeometry: NUMBER, announcement: STRING })),
  geometry: GEOMETRY, mode: STRING, travel_mode: STRING, manuever: STRING, street_name: STRING, speed_limit: NUMBER,
}, { optional: ['speed_limit', 'banner_instructions', 'voice_instructions'] });

const LEG = object({
  startLocation: LAT_LNG, endLocation: LAT_LNG, startIndex: INTEGER, endIndex: INTEGER,
  distance: MEASURE, duration: MEASURE, geometry: GEOMETRY, steps: arrayOf(STEP),
}, { optional: ['startIndex', 'endIndex', 'geometry', 'steps'] });

/** One mode's answer in route/distance. */
const DISTANCE_ROUTE = object({ distance: MEASURE, duration: MEASURE, geometry: GEOMETRY, estimate: BOOLEAN }, { optional: ['geometry', 'estimate'] });

export const DISTANCE_ROUTES: Schema = object({
  geodesic: object({ distance: MEASURE }),
  car: DISTANCE_ROUTE, truck: DISTANCE_ROUTE, foot: DISTANCE_ROUTE, bike: DISTANCE_ROUTE, motorbike: DISTANCE_ROUTE,
}, { optional: ['geodesic', 'car', 'truck', 'foot', 'bike', 'motorbike'] });

export const DIRECTIONS_ROUTE: Schema = object({ distance: MEASURE, duration: MEASURE, geometry: GEOMETRY, legs: arrayOf(LEG), estimate: BOOLEAN }, { optional: ['geometry', 'estimate'] });

export const MATRIX_CELL: Schema = object({ distance: MEASURE, duration: MEASURE, originIndex: INTEGER, destinationIndex: INTEGER, estimate: BOOLEAN }, { optional: ['estimate'] });

export const OPTIMIZED_ROUTE: Schema = object({ distance: MEASURE, duration: MEASURE, legs: arrayOf(LEG), geometry: GEOMETRY, estimate: BOOLEAN }, { optional: ['geometry', 'estimate'] });

export const MATCHED_POINT: Schema = object({ latitude: NUMBER, longitude: NUMBER, originalIndex: INTEGER });
export const ROAD_ATTRIBUTE: Schema = object({
  roadClass: STRING, speedLimit: MEASURE, names: arrayOf(STRING), startLocation: LAT_LNG, endLocation: LAT_LNG,
}, { optional: ['roadClass', 'speedLimit', 'names'] });
export const MATCH_GEOMETRY: Schema = GEOMETRY;
export const MEASURE_SCHEMA: Schema = MEASURE;
export const UNITS: Schema = values('metric', 'imperial');
