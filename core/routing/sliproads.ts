// Sliproads, after the rule of OSRM's guidance (its sliproad handler, read in Project-OSRM/osrm-backend): a
// short unnamed road that leaves a road before a junction and cuts the corner onto the crossing road is
// not a road of its own to a driver: "turn right onto Bayview Boulevard", not "turn right" then "turn
// right onto Bayview Boulevard". It is such a shortcut when the road it leaves goes on to meet the road it
// leads to within MAX_SLIPROAD_METRES (OSRM's constant, 250 m), so that the three make a triangle; the
// sliproad's step then joins the step after it, at the sliproad's place, named after the road it leads to.
import type { OsrmStep } from './route-shapes';
import { bearing, modifierOf, turnAngle } from './geometry';
import type { StepJunctions } from './step-collapse';
import { SEGMENT_FERRY, SEGMENT_LINK, SEGMENT_MOTORWAY, SEGMENT_ROUNDABOUT, type Network } from './network';

const MAX_SLIPROAD_METRES = 250;
/** A sliproad leaves and joins at a narrow angle: within twice OSRM's narrow turn (35°) of straight on. */
const NARROW_DEGREES = 70;

/** Where a step begins: the vertex, and the segment the route arrived on (in travel direction). */
export interface StepStart {
  vertex: number;
  arrivedOn: number;
  arrivedReversed: boolean;
}

export interface SliproadContext {
  network: Network;
  departures(vertex: number): Array<[number, boolean]>;
  /** Roads the mode may use in either direction at a vertex. */
  roads(vertex: number): number;
}

function leavingBearing(n: Network, segment: number, reversed: boolean): number {
  const first = n.segmentStart[segment], last = n.segmentStart[segment + 1] - 1;
  const [a, b] = reversed ? [last, last - 1] : [first, first + 1];
  return bearing(n.pointLon[a] / 1e7, n.pointLat[a] / 1e7, n.pointLon[b] / 1e7, n.pointLat[b] / 1e7);
}

function arrivingBearing(n: Network, segment: number, reversed: boolean): number {
  const first = n.segmentStart[segment], last = n.segmentStart[segment + 1] - 1;
  const [a, b] = reversed ? [first + 1, first] : [last - 1, last];
  return bearing(n.pointLon[a] / 1e7, n.pointLat[a] / 1e7, n.pointLon[b] / 1e7, n.pointLat[b] / 1e7);
}

const nameOf = (n: Network, segment: number): string => n.strings[n.wayName[n.segmentWay[segment]]];

/**
 * Whether the road named `road`, followed from `start` straight on (by name) past vertices where it only
 * goes on, meets a road named `target` at its next junction, within MAX_SLIPROAD_METRES: that junction, or -1.
 */
function roadMeets(ctx: SliproadContext, start: StepStart, road: string, target: string): number {
  const n = ctx.network;
  let vertex = start.vertex;
  let segment = start.arrivedOn;
  let reversed = start.arrivedReversed;
  let metres = 0;
  for (let hops = 0; hops < 32; hops++) {
    const before = arrivingBearing(n, segment, reversed);
    let best: [number, boolean] | null = null;
    let bestAngle = Infinity;
    for (const [s, r] of ctx.departures(vertex)) {
      if (s === segment || nameOf(n, s) !== road) continue;
      const angle = Math.abs(turnAngle(before, leavingBearing(n, s, r)));
      if (angle < bestAngle) [best, bestAngle] = [[s, r], angle];
    }
    if (best === null || bestAngle > 60) return -1;
    [segment, reversed] = best;
    metres += n.segmentLength[segment];
    if (metres > MAX_SLIPROAD_METRES) return -1;
    vertex = reversed ? n.segmentFrom[segment] : n.segmentTo[segment];
    const ways = ctx.departures(vertex).filter(([s]) => s !== segment);
    if (ways.some(([s]) => nameOf(n, s) === target)) return vertex;
    // The next junction, and the target road is not there: the road the step leaves does not cut back.
    if (ways.length > 1) return -1;
  }
  return -1;
}

/**
 * Whether a road named `target` joins vertex `from` to vertex `to` with no junction between (vertices
 * where only that road goes on, such as a signal, do not count), as OSRM asks of the corner the sliproad
 * cuts: a driveway meeting the road between makes it two junctions, and the link a way of its own.
 */
function joinsDirectly(ctx: SliproadContext, from: number, to: number, target: string, roads: (v: number) => number): boolean {
  const n = ctx.network;
  for (const [first, firstReversed] of ctx.departures(from)) {
    if (nameOf(n, first) !== target) continue;
    let [segment, reversed] = [first, firstReversed];
    let metres = 0;
    for (let hops = 0; hops < 8; hops++) {
      const vertex = reversed ? n.segmentFrom[segment] : n.segmentTo[segment];
      metres += n.segmentLength[segment];
      if (vertex === to) return true;
      if (roads(vertex) > 2 || metres > MAX_SLIPROAD_METRES) break;
      const on = ctx.departures(vertex).find(([s2]) => s2 !== segment && nameOf(n, s2) === target);
      if (on === undefined) break;
      [segment, reversed] = on;
    }
  }
  return false;
}

/**
 * A sliproad bends into the corner it cuts, as OSRM's "snuggles" test: seen along the chord from its
 * start to its end, no point of it lies on the outer side (left of the chord for a right turn).
 */
function bendsInward(geometry: Array<[number, number]>, right: boolean): boolean {
  const [ax, ay] = geometry[0];
  const [bx, by] = geometry[geometry.length - 1];
  const kx = Math.cos((ay * Math.PI) / 180);
  for (let k = 1; k + 1 < geometry.length; k++) {
    const [px, py] = geometry[k];
    const cross = ((px - ax) * kx) * (by - py) - (py - ay) * ((bx - px) * kx);
    if (right ? cross > 0 : cross < 0) return false;
  }
  return true;
}

/**
 * Folds each sliproad step into the step after it; `starts[i]` is where `steps[i]` begins, `junctions[i]`
 * what it meets (handed on beside the steps kept: a folded sliproad passes the junction it led to).
 */
export function foldSliproads(ctx: SliproadContext, steps: OsrmStep[], starts: Array<StepStart | null>, junctions: StepJunctions[]): { steps: OsrmStep[]; junctions: StepJunctions[] } {
  const out: OsrmStep[] = [];
  const outJunctions: StepJunctions[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const before = out[out.length - 1];
    const next = steps[i + 1];
    const start = starts[i];
    const isSliproad = before !== undefined && next !== undefined && start !== null
      && starts[i + 1] !== null && step.distance <= MAX_SLIPROAD_METRES
      && ((step.name === '' && (step.ref ?? '') === '') || (ctx.network.segmentFlags[starts[i + 1]!.arrivedOn] & SEGMENT_LINK) !== 0)
      && before.name !== '' && next.name !== '' && next.name !== before.name && nameOf(ctx.network, start.arrivedOn) !== ''
      && (step.maneuver.type === 'turn' || step.maneuver.type === 'fork' || step.maneuver.type === 'continue')
      && Math.abs(turnAngle(step.maneuver.bearing_before, step.maneuver.bearing_after)) <= NARROW_DEGREES
      && Math.abs(turnAngle(next.maneuver.bearing_before, next.maneuver.bearing_after)) <= NARROW_DEGREES
      && next.maneuver.type !== 'roundabout' && next.maneuver.type !== 'arrive' && next.mode === step.mode
      && (ctx.network.segmentFlags[start.arrivedOn] & (SEGMENT_FERRY | SEGMENT_ROUNDABOUT | SEGMENT_MOTORWAY)) === 0
      && bendsInward(step.geometry, turnAngle(step.maneuver.bearing_before, next.maneuver.bearing_after) > 0);
    const corner = isSliproad ? roadMeets(ctx, start!, nameOf(ctx.network, start!.arrivedOn), next.name) : -1;
    const target = starts[i + 1]?.vertex ?? -1;
    if (corner < 0 || !(joinsDirectly(ctx, corner, target, next.name, ctx.roads) || joinsDirectly(ctx, target, corner, next.name, ctx.roads))) {
      out.push(step);
      outJunctions.push(junctions[i]);
      continue;
    }
    outJunctions.push({ choices: junctions[i].choices, passed: junctions[i].passed + 1 + junctions[i + 1].passed });
    const modifier = modifierOf(turnAngle(step.maneuver.bearing_before, next.maneuver.bearing_after));
    out.push({
      ...next,
      distance: step.distance + next.distance,
      duration: step.duration + next.duration,
      geometry: [...step.geometry, ...next.geometry.slice(1)],
      maneuver: { ...step.maneuver, type: 'turn', modifier, bearing_after: next.maneuver.bearing_after },
    });
    i++;
  }
  return { steps: out, junctions: outJunctions };
}
