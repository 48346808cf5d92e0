// OSRM-shaped routes (the Router port) in Radar's shapes: measures in the requested units, geometry in the
// requested format, legs and steps with the fields Radar's directions carry (snake_case steps, `manuever`
// spelled as Radar spells it).
import type { LngLat, OsrmManeuver, OsrmRoute, OsrmStep } from '../../../ports/router';
import { encodePolyline } from '../../../adapters/router/polyline';
import { distanceMeasure, durationMeasure, type Measure, type Units } from './route-units';
import { legTexts, type Language } from './step-instructions';

export const GEOMETRY_FORMATS = ['linestring', 'polyline5', 'polyline6'] as const;
export type GeometryFormat = (typeof GEOMETRY_FORMATS)[number];

export type Geometry = { type: 'LineString'; coordinates: LngLat[] } | { polyline: string };

export interface LatLngObject {
  latitude: number;
  longitude: number;
}

export function latLng([lng, lat]: LngLat): LatLngObject {
  return { latitude: lat, longitude: lng };
}

export function geometryOf(points: readonly LngLat[], format: GeometryFormat): Geometry {
  if (format === 'linestring') return { type: 'LineString', coordinates: points.map(([lng, lat]) => [round6(lng), round6(lat)]) };
  return { polyline: encodePolyline(points, format === 'polyline5' ? 5 : 6) };
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

const SIDES: Record<string, string> = {
  left: 'left', right: 'right', 'slight left': 'left', 'slight right': 'right', 'sharp left': 'left', 'sharp right': 'right',
};

/**
 * Radar's maneuver names (values seen: start, left, right, stay-left, stay-right, ramp-left, exit-right,
 * exit-left, destination, destination-right); the rest follow the same pattern, listed in docs/routing.md.
 */
export function maneuverName(m: OsrmManeuver): string {
  const modifier = m.modifier ?? 'straight';
  const side = SIDES[modifier];
  const dashed = modifier.replace(' ', '-');
  switch (m.type) {
    case 'depart':
      return 'start';
    case 'arrive':
      return side ? `destination-${side}` : 'destination';
    case 'fork':
      return side ? `stay-${side}` : 'straight';
    case 'on ramp':
      return side ? `ramp-${side}` : 'ramp';
    case 'off ramp':
      return side ? `exit-${side}` : 'exit';
    case 'merge':
      return side ? `merge-${side}` : 'merge';
    case 'roundabout':
    case 'rotary':
    case 'roundabout turn':
      return 'roundabout';
    case 'exit roundabout':
    case 'exit rotary':
      return 'roundabout-exit';
    default:
      return dashed === 'uturn' ? 'uturn' : dashed;
  }
}

const TRAVEL_MODE: Record<string, string> = { driving: 'DRIVE', walking: 'WALK', cycling: 'BICYCLE', ferry: 'FERRY', train: 'TRAIN', 'pushing bike': 'WALK' };

export interface FormatOptions {
  units: Units;
  geometry: GeometryFormat;
  lang: Language;
}

export function measures(route: { distance: number; duration: number }, units: Units): { distance: Measure; duration: Measure } {
  return { distance: distanceMeasure(route.distance, units), duration: durationMeasure(route.duration) };
}

/** Short spoken distances for announcements, in the request's units. */
function spokenDistance(units: Units): (metres: number) => string {
  return (metres) => {
    if (units === 'imperial') {
      const feet = metres * 3.28084;
      return feet < 1000 ? `${Math.max(50, Math.round(feet / 50) * 50)} ft` : `${(feet / 5280).toFixed(1)} mi`;
    }
    return metres < 1000 ? `${Math.max(10, Math.round(metres / 10) * 10)} m` : `${(metres / 1000).toFixed(1)} km`;
  };
}

function stepOut(step: OsrmStep, text: ReturnType<typeof legTexts>[number], opts: FormatOptions): Record<string, unknown> {
  const start = step.geometry[0] ?? step.maneuver.location;
  const end = step.geometry[step.geometry.length - 1] ?? step.maneuver.location;
  const out: Record<string, unknown> = {
    ...measures(step, opts.units),
    start_location: latLng(start),
    end_location: latLng(end),
    bearing_before: step.maneuver.bearing_before,
    bearing_after: step.maneuver.bearing_after,
    instructions: text.instruction,
    banner_instructions: text.banner.map((b) => ({ ...b, distanceAlongGeometry: distanceMeasure(b.distanceAlongGeometry, opts.units).value })),
    voice_instructions: text.voice.map((v) => ({ ...v, distanceAlongGeometry: distanceMeasure(v.distanceAlongGeometry, opts.units).value })),
    geometry: geometryOf(step.geometry, opts.geometry),
    mode: step.mode,
    travel_mode: TRAVEL_MODE[step.mode] ?? step.mode.toUpperCase(),
    manuever: maneuverName(step.maneuver),
    street_name: step.name,
  };
  if (step.exits) out.exit_name = step.exits.split(';')[0];
  if (step.speed_limit_kph !== undefined) out.speed_limit = opts.units === 'imperial' ? Math.round(step.speed_limit_kph / 1.609344) : step.speed_limit_kph;
  return out;
}

/**
 * One directions route. `stops` are the requested locations (legs start and end there, as Radar's legs
 * do); leg geometry is the steps' shapes joined, or the stretch of the whole route when steps are absent.
 */
export function directionsRoute(route: OsrmRoute, stops: readonly LngLat[], opts: FormatOptions): Record<string, unknown> {
  const legs = route.legs.map((leg, i) => {
    const texts = legTexts(leg.steps, opts.lang, i, route.legs.length, spokenDistance(opts.units));
    const shape = joinShapes(leg.steps.map((s) => s.geometry));
    return {
      startLocation: latLng(stops[i]),
      endLocation: latLng(stops[i + 1]),
      ...measures(leg, opts.units),
      geometry: geometryOf(shape.length ? shape : [stops[i], stops[i + 1]], opts.geometry),
      steps: leg.steps.map((s, j) => stepOut(s, texts[j], opts)),
    };
  });
  return { ...measures(route, opts.units), geometry: geometryOf(route.geometry, opts.geometry), legs };
}

/** Consecutive shapes share their joining point; it appears once. */
export function joinShapes(shapes: ReadonlyArray<readonly LngLat[]>): LngLat[] {
  const out: LngLat[] = [];
  for (const shape of shapes) {
    for (const p of shape) {
      const last = out[out.length - 1];
      if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
    }
  }
  return out;
}
