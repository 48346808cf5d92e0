// The road network one extract gives the engine, as built by the routing import stage: geometry,
// segments (the stretch of one way between two vertices) and, per mode, the arcs, the base CSR graph
// and the contraction hierarchy. Plain typed arrays; see docs/routing-engine.md for the files.
import type { Hierarchy } from './contraction';

/** Bits of `segmentFlags`. */
export const SEGMENT_TOLL = 1;
export const SEGMENT_HIGHWAY = 2;
export const SEGMENT_FERRY = 4;
export const SEGMENT_BORDER = 8;
export const SEGMENT_ROUNDABOUT = 16;
export const SEGMENT_LINK = 32;
export const SEGMENT_MOTORWAY = 64;
/** Traffic signals on the segment or at its end. */
export const SEGMENT_SIGNALS = 128;

/**
 * Bits of a mode's `segmentMain`: in the mode's large connected part; no start or end point there; a bike
 * is pushed (walked) along / against the segment (OSRM's `pushing bike` mode); the mode rides a train there
 * (OSRM's `train` mode: a bike on a railway open to it). Files written before a bit existed do not set it
 * (every bike segment then reads as ridden), so they load unchanged.
 */
export const MAIN_PART = 1;
export const NO_START = 2;
export const PUSHED_FORWARD = 4;
export const PUSHED_BACKWARD = 8;
export const ON_TRAIN = 16;

export interface Network {
  /** Geometry points, 1e-7 degrees. */
  pointLon: Int32Array;
  pointLat: Int32Array;
  /** Segment s runs over points segmentStart[s] … segmentStart[s+1]-1; its ends are vertices. */
  segmentStart: Uint32Array;
  segmentFrom: Uint32Array;
  segmentTo: Uint32Array;
  /** Metres. */
  segmentLength: Float32Array;
  segmentFlags: Uint8Array;
  segmentWay: Uint32Array;
  /** Per way: index into `strings` of its name, ref; its road class; maxspeed km/h (0 unknown). */
  wayName: Uint32Array;
  wayRef: Uint32Array;
  wayClass: Uint8Array;
  wayMaxspeed: Uint16Array;
  /** OSM id of each way (for operators' debugging and matching answers to the map). */
  wayOsmId: Float64Array;
  strings: string[];
  /** Vertex v sits at point vertexPoint[v]. */
  vertexPoint: Uint32Array;
}

/**
 * How a mode's graph is laid out. `edge` (OSRM's edge-based graph): vertex c is segment c >> 1 travelled
 * along (c even) or against it, and an arc is a turn from one onto the next, so turns can cost and be
 * forbidden. `node`, for a mode whose turns all cost nothing and none is forbidden (foot): the vertices
 * are the network's (a barrier vertex split into one per road direction reaching it, so nothing passes it) and arc c
 * is segment direction c itself; about half the vertices and far fewer shortcuts than `edge`.
 */
export type GraphKind = 'edge' | 'node';

/** One mode's graph and its contraction hierarchy (GraphKind says what a vertex and an arc are). */
export interface ModeGraph {
  kind: GraphKind;
  /** `edge`: 2 × segments plus copies (duplicateOf), closed directions are isolated vertices; `node`: network vertices plus split barrier ends. */
  vertexCount: number;
  /**
   * `edge`: turn arcs, from the end of one segment direction onto the next. `node`: 2 × segments arcs,
   * arc c running along segment direction c from the graph vertex at its start to the one at its end
   * (a closed direction has a negative weight and is in no search).
   */
  arcTail: Uint32Array;
  arcHead: Uint32Array;
  /** Seconds (the next segment's crossing plus the turn, plus routing penalties), metres (the next segment). */
  arcWeight: Float32Array;
  arcDistance: Float32Array;
  /** Travel seconds of each arc: its weight without routing penalties (entering restricted-access roads). */
  arcSeconds: Float32Array;
  /** Seconds to cross segment s forward / backward for this mode; negative when closed. */
  segmentForward: Float32Array;
  segmentBackward: Float32Array;
  /**
   * MAIN_PART when the segment is in the mode's large connected part (snapping prefers those); NO_START
   * when a route may not start or end on it (OSRM's `is_startpoint`: a car on a private service road);
   * PUSHED_FORWARD / PUSHED_BACKWARD where a bike is pushed in that direction.
   */
  segmentMain: Uint8Array;
  hierarchy: Hierarchy;
  /**
   * Vertices from 2 × segments on are copies of segment directions made for turn restrictions through
   * ways (via-way-restrictions.ts): the code each copies. Empty (or absent in older files) without any.
   */
  duplicateOf?: Uint32Array;
  /**
   * Per segment direction (code), the share of its speed in percent that its routing weight counts with
   * (OSRM's routability rate penalties: 50 on an alley weighs its seconds twice); absent when 100 everywhere.
   * Arc weights hold it already; the router reads it for the part of a segment at a route's ends.
   */
  ratePercent?: Uint8Array;
}

/** Road classes (`wayClass`), for maneuvers and summaries. */
export const ROAD_CLASSES = ['other', 'motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link',
  'tertiary', 'tertiary_link', 'unclassified', 'residential', 'living_street', 'service', 'track', 'path', 'footway', 'cycleway', 'pedestrian', 'steps', 'ferry', 'road'] as const;
