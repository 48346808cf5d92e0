// Internal intersection edges, after OSRM's segregated-intersection classification (read in
// Project-OSRM/osrm-backend, guidance/segregated_intersection_classification): where a divided road
// crosses another, the short piece of road between its two carriageways is part of the junction, not a
// road a driver turns onto. Turning left from one carriageway of East Lombard Street across the 16 m of
// Bayview Boulevard to the ramp beyond is one maneuver, "turn left onto the ramp", not "turn left onto
// Bayview Boulevard" and then "take the ramp". The piece is internal when it is at most
// INTERNAL_MAX_METRES long, a one-way road (not a link, not a service road or path) leads into its start
// by a real turn, a one-way road leads out of its end by a real turn, and those turns do not point to
// opposite sides (no left turn in with a right turn out, no outs to both sides). Its step is then no
// step: it joins the step before it, and the maneuver after it is announced as before.
import type { OsrmStep } from './route-shapes';
import { turnAngle } from './geometry';
import { segmentBearing } from './segment-bearing';
import type { StepStart } from './sliproads';
import type { StepJunctions } from './step-collapse';
import { ROAD_CLASSES, SEGMENT_LINK, SEGMENT_ROUNDABOUT, type Network } from './network';

/** OSRM's INTERNAL_LENGTH_MAX, metres. */
const INTERNAL_MAX_METRES = 32;
/** A turn within this of straight on is no turn into or out of a crossing (OSRM's 150°–210°). */
const STRAIGHT_DEGREES = 30;
/** Turns sharper than this are left or right (OSRM's getTurnDirection: left, sharp left…). */
const SIDE_DEGREES = 40;
/** Road classes that count as roads for the carriageways (OSRM: up to its side-residential class). */
const ROAD = new Set(['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street', 'road', 'other']);

export interface InternalEdgeContext {
  network: Network;
  departures(vertex: number): Array<[number, boolean]>;
  /** Open segment directions that end at the vertex. */
  arrivals?(vertex: number): Array<[number, boolean]>;
  /** Whether the mode may use the segment in both directions. */
  twoWay?(segment: number): boolean;
}

/** Where a step begins and the segment it leaves on. */
export interface StepPlace extends StepStart {
  leftOn: number;
  leftReversed: boolean;
}

/** A one-way road of a carriageway's kind (OSRM: not bidirectional, not a link, a road). */
function carriageway(ctx: InternalEdgeContext, segment: number): boolean {
  const n = ctx.network;
  return !ctx.twoWay!(segment) && (n.segmentFlags[segment] & SEGMENT_LINK) === 0 && ROAD.has(ROAD_CLASSES[n.wayClass[n.segmentWay[segment]]] ?? '');
}

function sides(angles: number[]): { left: boolean; right: boolean } {
  return { left: angles.some((a) => a < -SIDE_DEGREES), right: angles.some((a) => a > SIDE_DEGREES) };
}

/** Whether the step from `start` to `end` (the next step's start) runs over an internal intersection edge. */
function isInternal(ctx: InternalEdgeContext, step: OsrmStep, junctions: StepJunctions, start: StepPlace, end: StepPlace): boolean {
  const n = ctx.network;
  if (step.distance > INTERNAL_MAX_METRES || junctions.passed > 0 || (n.segmentFlags[start.leftOn] & SEGMENT_ROUNDABOUT) !== 0) return false;
  const inAngles: number[] = [];
  let onewayIn = false;
  for (const [s, r] of ctx.arrivals!(start.vertex)) {
    if (s === start.leftOn) continue;
    const angle = turnAngle(segmentBearing(n, s, r, true), step.maneuver.bearing_after);
    inAngles.push(angle);
    if (carriageway(ctx, s) && Math.abs(angle) >= STRAIGHT_DEGREES) onewayIn = true;
  }
  if (!onewayIn) return false;
  const outAngles: number[] = [];
  let onewayOut = false;
  for (const [s, r] of ctx.departures(end.vertex)) {
    if (s === end.arrivedOn) continue;
    const angle = turnAngle(segmentBearing(n, end.arrivedOn, end.arrivedReversed, true), segmentBearing(n, s, r, false));
    outAngles.push(angle);
    if (carriageway(ctx, s) && Math.abs(angle) >= STRAIGHT_DEGREES) onewayOut = true;
  }
  if (!onewayOut) return false;
  const ins = sides(inAngles), outs = sides(outAngles);
  return !((ins.left && outs.right) || (ins.right && outs.left) || (outs.left && outs.right));
}

/** Folds each step over an internal intersection edge into the step before it; the arrays run in step. */
export function foldInternalEdges(ctx: InternalEdgeContext, steps: OsrmStep[], places: Array<StepPlace | null>, junctions: StepJunctions[]): { steps: OsrmStep[]; starts: Array<StepPlace | null>; junctions: StepJunctions[] } {
  if (ctx.arrivals === undefined || ctx.twoWay === undefined) return { steps, starts: places, junctions };
  const out: OsrmStep[] = [];
  const outPlaces: Array<StepPlace | null> = [];
  const outJunctions: StepJunctions[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const start = places[i], end = places[i + 1];
    const previous = out.length - 1;
    const internal = previous >= 0 && start != null && end != null && steps[i + 1].maneuver.type !== 'arrive'
      && step.mode === out[previous].mode && step.maneuver.type !== 'roundabout' && isInternal(ctx, step, junctions[i], start, end);
    if (!internal) {
      out.push(step);
      outPlaces.push(start);
      outJunctions.push(junctions[i]);
      continue;
    }
    const before = out[previous];
    out[previous] = { ...before, distance: before.distance + step.distance, duration: before.duration + step.duration, geometry: [...before.geometry, ...step.geometry.slice(1)] };
    outJunctions[previous] = { choices: outJunctions[previous].choices, passed: outJunctions[previous].passed + 1 + junctions[i].passed };
  }
  return { steps: out, starts: outPlaces, junctions: outJunctions };
}
