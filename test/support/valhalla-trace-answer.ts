// A `/trace_attributes` answer with every field Waymark asks for. Valhalla's documented example answer
// (docs-examples/trace_attributes.json) carries only edge ids and lengths, so this one is assembled from its
// documented `/trace_route` example of the same kind of drive (Berlin, Karl-Marx-Allee → Lebuser Straße →
// Palisadenstraße): the recorded shape, street names and shape spans of its maneuvers, and the recorded
// locations. The road classes and speed limits are ours, chosen to exercise the mapping (not Valhalla's).
import fs from 'node:fs';
import path from 'node:path';
import { VALHALLA_FIXTURES } from './engine-replay';

interface Maneuver {
  street_names?: string[];
  begin_shape_index: number;
  end_shape_index: number;
  length: number;
}

export interface AssembledTrace {
  body: Record<string, unknown>;
  /** The recorded polyline6 shape. */
  shape: string;
  /** The recorded trip locations, [lng, lat]. */
  from: [number, number];
  to: [number, number];
}

export function assembledTraceAttributes(): AssembledTrace {
  const trip = JSON.parse(fs.readFileSync(path.join(VALHALLA_FIXTURES, 'docs-examples/trace_route.json'), 'utf8')).trip as {
    locations: Array<{ lat: number; lon: number }>;
    legs: Array<{ shape: string; maneuvers: Maneuver[] }>;
  };
  const [m0, m1, m2] = trip.legs[0].maneuvers;
  const edge = (m: Maneuver, roadClass: string, extra: Record<string, unknown>) => ({
    names: m.street_names ?? [], road_class: roadClass, length: m.length, begin_shape_index: m.begin_shape_index, end_shape_index: m.end_shape_index, ...extra,
  });
  // The first maneuver split into two edges of one road: they must come back as one stretch.
  const split = Math.floor((m0.begin_shape_index + m0.end_shape_index) / 2);
  const edges = [
    { ...edge(m0, 'primary', { speed_limit: 50 }), end_shape_index: split, length: 0.01 },
    { ...edge(m0, 'primary', { speed_limit: 50 }), begin_shape_index: split, length: Math.round((m0.length - 0.01) * 1000) / 1000 },
    edge(m1, 'residential', { speed_limit: 30 }),
    edge(m2, 'service_other', { speed_limit: 0 }),
  ];
  const [a, b] = trip.locations;
  return {
    body: {
      units: 'kilometers',
      shape: trip.legs[0].shape,
      edges,
      matched_points: [
        { type: 'matched', lat: a.lat, lon: a.lon, edge_index: 0, distance_along_edge: 0.2, distance_from_trace_point: 3.1 },
        { type: 'unmatched', lat: 52.5185, lon: 13.4339 },
        { type: 'interpolated', lat: b.lat, lon: b.lon, edge_index: 3, distance_along_edge: 1, distance_from_trace_point: 0 },
      ],
      alternate_paths: [],
    },
    shape: trip.legs[0].shape,
    from: [a.lon, a.lat],
    to: [b.lon, b.lat],
  };
}
