// Obstacles (OSRM v6's name): nodes that cost a vehicle time to pass, such as traffic signals, stop and
// give-way signs. The import stage reads them from node tags (importers/osm/stages/routing/profiles/obstacles.ts); one
// inside a segment is folded into the segment's crossing time there, one at a vertex is added to every
// turn through it here (mode-graph.ts), as OSRM adds it to the turns through the node. These rules
// decide whether a given passage pays it.

/** The obstacle binds only traffic arriving along its way's node order (`direction=forward`). */
export const OBSTACLE_FORWARD = 1;
/** Only traffic arriving against the way's node order (`direction=backward`). */
export const OBSTACLE_BACKWARD = 2;
/** A stop sign with no direction: it belongs to the nearest intersection (see `stopBelongsElsewhere`). */
export const OBSTACLE_STOP = 4;
/** `stop=minor`: binds only traffic entering the intersection from a slower road than the others there. */
export const OBSTACLE_MINOR = 8;

/** A stop sign stands within this many metres of the intersection it controls (OSRM's heuristic). */
const STOP_REACH_METRES = 20;

/** Obstacles at vertices, one entry each (a mode graph's input). */
export interface VertexObstacles {
  vertex: Uint32Array;
  seconds: Float32Array;
  /** OBSTACLE_* bits. */
  kind: Uint8Array;
}

/** Whether travel arriving at the obstacle along (`alongWay`) or against its way's node order pays it. */
export function obstacleFacesTravel(kind: number, alongWay: boolean): boolean {
  if ((kind & OBSTACLE_FORWARD) !== 0 && !alongWay) return false;
  if ((kind & OBSTACLE_BACKWARD) !== 0 && alongWay) return false;
  return true;
}

/**
 * A stop sign without a direction on a node where only two roads meet (within a road, or where one way
 * becomes another) is taken to control the intersection it is close to: travel leaving an intersection
 * less than 20 m behind, towards one more than 20 m ahead, does not stop there.
 */
export function stopBelongsElsewhere(kind: number, roads: number, metresBehind: number, metresAhead: number): boolean {
  return (kind & OBSTACLE_STOP) !== 0 && roads === 2 && metresBehind < STOP_REACH_METRES && metresAhead > STOP_REACH_METRES;
}
