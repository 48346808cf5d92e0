// Radar's shape of a map-matching answer: the matched points, the roads driven (class, speed limit,
// names, where each stretch starts and ends), the geometry and the distance.
import type { MatchResult, MatchedRoad } from '../../../ports/router';
import { geometryOf, latLng, type GeometryFormat } from './route-format';
import { distanceMeasure, type Units } from './route-units';

export const ROAD_ATTRIBUTES = ['speedLimit', 'names', 'roadClass'] as const;
export type RoadAttribute = (typeof ROAD_ATTRIBUTES)[number];

/** Radar's road classes, largest first, from OSM `highway` values (links count as their road). */
export function roadClassOf(highway: string): string {
  const base = highway.replace(/_link$/, '');
  if (['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'residential', 'unclassified'].includes(base)) return base;
  if (base === 'living_street') return 'residential';
  return 'service_other';
}

const MPH_PER_KPH = 0.621371;

export function speedLimit(kph: number, units: Units): { value: number; text: string } {
  if (units === 'imperial') {
    // Posted limits in mph are whole multiples of 5; OSM keeps them as mph and we converted to km/h.
    const mph = Math.round((kph * MPH_PER_KPH) / 5) * 5;
    return { value: mph, text: `${mph} mph` };
  }
  const value = Math.round(kph);
  return { value, text: `${value} km/h` };
}

function roadAttribute(road: MatchedRoad, wanted: ReadonlySet<RoadAttribute>, units: Units): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (wanted.has('roadClass')) out.roadClass = roadClassOf(road.highway);
  if (wanted.has('speedLimit') && road.speedLimitKph) out.speedLimit = speedLimit(road.speedLimitKph, units);
  if (wanted.has('names')) out.names = road.names;
  out.startLocation = latLng(road.start);
  out.endLocation = latLng(road.end);
  return out;
}

export function matchBody(result: MatchResult, opts: { units: Units; geometry: GeometryFormat; roadAttributes: ReadonlySet<RoadAttribute> }): Record<string, unknown> {
  const body: Record<string, unknown> = {
    matchedPath: result.matchedPoints.map((p) => ({ ...latLng(p.location), originalIndex: p.originalIndex })),
  };
  if (opts.roadAttributes.size > 0) body.roadAttributes = result.roads.map((r) => roadAttribute(r, opts.roadAttributes, opts.units));
  body.geometry = geometryOf(result.geometry, opts.geometry);
  body.distance = distanceMeasure(result.distance, opts.units);
  return body;
}
