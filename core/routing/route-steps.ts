// Turns a leg's path (pieces of segments in travel order) into an OSRM-v5-shaped leg: geometry,
// distance, duration, summary and steps with maneuvers. The maneuver rules follow what OSRM's guidance
// emits, in a smaller form (see docs/routing-engine.md): depart/arrive, turn with a modifier from the
// bearing change, new name, continue, fork, end of road, merge, on/off ramp, roundabout with its exit
// number and exit roundabout; a road that only bends, or a vertex without a choice, makes no step.
import type { LngLat, OsrmLeg, OsrmStep } from './route-shapes';
import { modifierOf, turnAngle } from './geometry';
import { collapseShortSteps } from './step-collapse';
import { suppressShortNameSegments } from './short-name-segments';
import { nameChangeAnnounced } from './name-changes';
import { foldSliproads } from './sliproads';
import { foldInternalEdges, type StepPlace } from './internal-edges';
import { segmentBearing } from './segment-bearing';
import type { StepJunctions } from './step-collapse';
import { SEGMENT_FERRY, SEGMENT_LINK, SEGMENT_MOTORWAY, SEGMENT_ROUNDABOUT, type Network } from './network';

export interface Piece {
  segment: number;
  reversed: boolean;
  /** Metres from the segment's start (in segment order) where the piece begins and ends. */
  from: number;
  to: number;
  /** Seconds and metres of the piece. */
  duration: number;
  distance: number;
}

export interface LegContext {
  network: Network;
  /** Metres from its segment's start to each point. */
  alongAt(point: number): number;
  /** Departures at an original vertex: [segment, reversed] pairs of open arcs. */
  departures(vertex: number): Array<[number, boolean]>;
  /** Roads at a vertex the mode may use in either direction, the arriving one included. */
  roads(vertex: number): number;
  /** Open segment directions ending at a vertex, and whether the mode may use a segment both ways (internal-edges.ts). */
  arrivals?(vertex: number): Array<[number, boolean]>;
  twoWay?(segment: number): boolean;
  /** Whether a bike is pushed along the segment in that direction (OSRM's `pushing bike` mode). */
  pushed?(segment: number, reversed: boolean): boolean;
  /** Whether the mode rides a train on the segment (OSRM's `train` mode: a bike on a railway open to it). */
  onTrain?(segment: number): boolean;
  /** `driving`, `cycling`, `walking`. */
  travelMode: string;
}

/** Points of a piece in travel order, with interpolated ends. */
export function pieceGeometry(ctx: LegContext, piece: Piece): LngLat[] {
  const out: LngLat[] = [];
  piecePoints(ctx, piece, (lng, lat) => out.push([lng, lat]));
  return out;
}

/** The points of pieceGeometry, handed one by one (isochrones draw hundreds of thousands of pieces). */
export function piecePoints(ctx: LegContext, piece: Piece, visit: (lng: number, lat: number) => void): void {
  const n = ctx.network;
  const first = n.segmentStart[piece.segment];
  const last = n.segmentStart[piece.segment + 1] - 1;
  const at = (along: number): void => {
    for (let p = first; p < last; p++) {
      const a = ctx.alongAt(p), b = ctx.alongAt(p + 1);
      if (along <= b || p === last - 1) {
        const t = b > a ? Math.min(1, Math.max(0, (along - a) / (b - a))) : 0;
        const ax = n.pointLon[p] / 1e7, ay = n.pointLat[p] / 1e7, bx = n.pointLon[p + 1] / 1e7, by = n.pointLat[p + 1] / 1e7;
        visit(round6(ax + t * (bx - ax)), round6(ay + t * (by - ay)));
        return;
      }
    }
    visit(n.pointLon[first] / 1e7, n.pointLat[first] / 1e7);
  };
  const lo = Math.min(piece.from, piece.to), hi = Math.max(piece.from, piece.to);
  if (!piece.reversed) {
    at(lo);
    for (let p = first; p <= last; p++) {
      const a = ctx.alongAt(p);
      if (a > lo && a < hi) visit(n.pointLon[p] / 1e7, n.pointLat[p] / 1e7);
    }
    at(hi);
  } else {
    at(hi);
    for (let p = last; p >= first; p--) {
      const a = ctx.alongAt(p);
      if (a > lo && a < hi) visit(n.pointLon[p] / 1e7, n.pointLat[p] / 1e7);
    }
    at(lo);
  }
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

interface Attrs {
  name: string;
  ref: string;
  flags: number;
  way: number;
  maxspeed: number;
}

function attrs(n: Network, segment: number): Attrs {
  const w = n.segmentWay[segment];
  return { name: n.strings[n.wayName[w]], ref: n.strings[n.wayRef[w]], flags: n.segmentFlags[segment], way: w, maxspeed: n.wayMaxspeed[w] };
}

export function buildLeg(ctx: LegContext, pieces: Piece[]): { leg: OsrmLeg; geometry: LngLat[] } {
  const n = ctx.network;
  const steps: OsrmStep[] = [];
  const starts: Array<StepPlace | null> = [];
  const junctions: StepJunctions[] = [];
  const geometry: LngLat[] = [];
  let step: OsrmStep | null = null;
  let roundaboutExits = 0;

  const open = (type: string, location: LngLat, before: number, after: number, a: Attrs, mode: string, modifier?: string): OsrmStep => {
    const s: OsrmStep = {
      distance: 0, duration: 0, name: a.name, mode, driving_side: 'right', geometry: [location],
      maneuver: { type, bearing_before: before, bearing_after: after, location },
    };
    if (modifier !== undefined) s.maneuver.modifier = modifier;
    if (a.ref) s.ref = a.ref;
    if (a.maxspeed > 0) s.speed_limit_kph = a.maxspeed;
    steps.push(s);
    starts.push(null);
    junctions.push({ choices: 0, passed: 0 });
    return s;
  };

  pieces.forEach((piece, i) => {
    const pts = pieceGeometry(ctx, piece);
    const cur = attrs(n, piece.segment);
    if (i === 0) {
      step = open('depart', pts[0], 0, segmentBearing(n, piece.segment, piece.reversed, false), cur, modeOf(ctx, piece));
      geometry.push(pts[0]);
    } else {
      const prevPiece = pieces[i - 1];
      const prev = attrs(n, prevPiece.segment);
      const before = segmentBearing(n, prevPiece.segment, prevPiece.reversed, true);
      const after = segmentBearing(n, piece.segment, piece.reversed, false);
      const angle = turnAngle(before, after);
      const vertex = piece.reversed ? n.segmentTo[piece.segment] : n.segmentFrom[piece.segment];
      // Turning back on the road itself (a dead end) is a step of its own, as OSRM's `continue uturn`.
      const turningBack = piece.segment === prevPiece.segment && piece.reversed !== prevPiece.reversed;
      const decision = turningBack ? { type: 'continue', modifier: 'uturn' }
        : modeOf(ctx, prevPiece) !== modeOf(ctx, piece) && (prev.flags & SEGMENT_FERRY) === (cur.flags & SEGMENT_FERRY)
          ? { type: 'notification', modifier: modifierOf(angle) }
          : decide(ctx, vertex, prevPiece, piece, prev, cur, angle, before);
      if (decision === 'roundabout-exit-passed') roundaboutExits++;
      if (decision === null || decision === 'roundabout-exit-passed') {
        // A junction driven through without a step: the step is no longer undisturbed (OSRM's
        // noIntermediaryIntersections), which bounds what may be folded into it.
        if (!turningBack && ctx.roads(vertex) > 2) junctions[junctions.length - 1].passed++;
      } else {
        if (decision.type === 'exit roundabout') {
          for (let k = steps.length - 1; k >= 0; k--) if (steps[k].maneuver.type === 'roundabout') { steps[k].maneuver.exit = roundaboutExits + 1; break; }
        }
        if (decision.type === 'roundabout') roundaboutExits = 0;
        step = open(decision.type, pts[0], before, after, cur, modeOf(ctx, piece), decision.modifier);
        starts[starts.length - 1] = { vertex, arrivedOn: prevPiece.segment, arrivedReversed: prevPiece.reversed, leftOn: piece.segment, leftReversed: piece.reversed };
        junctions[junctions.length - 1].choices = ctx.departures(vertex).filter(([s, r]) => !(s === prevPiece.segment && r !== prevPiece.reversed)).length;
      }
    }
    const s = step!;
    s.distance += piece.distance;
    s.duration += piece.duration;
    for (let k = 1; k < pts.length; k++) {
      s.geometry.push(pts[k]);
      geometry.push(pts[k]);
    }
  });
  const end = geometry[geometry.length - 1];
  const lastPiece = pieces[pieces.length - 1];
  const last = attrs(n, lastPiece.segment);
  // A roundabout left by arriving in it still gets its exit count.
  for (let k = steps.length - 1; k >= 0; k--) if (steps[k].maneuver.type === 'roundabout' && steps[k].maneuver.exit === undefined) { steps[k].maneuver.exit = roundaboutExits + 1; break; }
  const arrive = open('arrive', end, segmentBearing(n, lastPiece.segment, lastPiece.reversed, true), 0, last, modeOf(ctx, lastPiece));
  arrive.geometry.push(end);
  const internalFolded = foldInternalEdges(ctx, steps, starts, junctions);
  const sliproadsFolded = foldSliproads(ctx, internalFolded.steps, internalFolded.starts, internalFolded.junctions);
  const folded = suppressShortNameSegments(collapseShortSteps(sliproadsFolded.steps, sliproadsFolded.junctions));
  for (const s of folded) {
    s.distance = Math.round(s.distance * 10) / 10;
    s.duration = Math.round(s.duration * 10) / 10;
  }
  return { leg: { ...legMeasures(n, pieces), steps: folded }, geometry };
}

/**
 * buildLeg without the steps: the same distance, duration, summary and geometry for callers that drop
 * the steps (route/distance, ETAs, tables of routes). The steps' maneuver rules were half the CPU of a
 * 100 km route on a region, spent on steps thrown away.
 */
export function buildLegWithoutSteps(ctx: LegContext, pieces: Piece[]): { leg: OsrmLeg; geometry: LngLat[] } {
  const geometry: LngLat[] = [];
  // buildLeg's line: every point of each piece, less the first of each piece after the first (its previous piece's last).
  let skip = false;
  const push = (lng: number, lat: number): void => {
    if (skip) skip = false;
    else geometry.push([lng, lat]);
  };
  for (const piece of pieces) {
    piecePoints(ctx, piece, push);
    skip = true;
  }
  return { leg: { ...legMeasures(ctx.network, pieces), steps: [] }, geometry };
}

/** A leg's distance and duration (sums of its pieces, to 0.1) and summary (the two names driven longest). */
function legMeasures(n: Network, pieces: readonly Piece[]): Omit<OsrmLeg, 'steps'> {
  const byName = new Map<string, number>();
  for (const piece of pieces) {
    const name = n.strings[n.wayName[n.segmentWay[piece.segment]]];
    if (name) byName.set(name, (byName.get(name) ?? 0) + piece.distance);
  }
  const distance = pieces.reduce((t, p) => t + p.distance, 0);
  const duration = pieces.reduce((t, p) => t + p.duration, 0);
  const summary = [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([name]) => name).join(', ');
  return { distance: Math.round(distance * 10) / 10, duration: Math.round(duration * 10) / 10, summary };
}

/** OSRM's travel mode of a piece: `ferry` on ferries and shuttle trains, `train` where a bike rides a train, `pushing bike` where it is walked. */
function modeOf(ctx: LegContext, piece: Piece): string {
  if ((ctx.network.segmentFlags[piece.segment] & SEGMENT_FERRY) !== 0) return 'ferry';
  if (ctx.onTrain?.(piece.segment) === true) return 'train';
  return ctx.pushed?.(piece.segment, piece.reversed) === true ? 'pushing bike' : ctx.travelMode;
}

/** Degrees by which every other road must turn more sharply for a bend of the same way to be obvious. */
const OBVIOUS_MARGIN_DEGREES = 45;

type Decision = { type: string; modifier?: string } | 'roundabout-exit-passed' | null;

function decide(ctx: LegContext, vertex: number, prevPiece: Piece, piece: Piece, prev: Attrs, cur: Attrs, angle: number, before: number): Decision {
  const n = ctx.network;
  const prevRound = (prev.flags & SEGMENT_ROUNDABOUT) !== 0;
  const curRound = (cur.flags & SEGMENT_ROUNDABOUT) !== 0;
  const departures = ctx.departures(vertex).filter(([s, r]) => !(s === prevPiece.segment && r !== prevPiece.reversed));
  if (prevRound && curRound) {
    return departures.some(([s]) => (n.segmentFlags[s] & SEGMENT_ROUNDABOUT) === 0) ? 'roundabout-exit-passed' : null;
  }
  if (curRound) return { type: 'roundabout', modifier: modifierOf(angle) };
  if (prevRound) return { type: 'exit roundabout', modifier: modifierOf(angle) };
  if ((prev.flags & SEGMENT_FERRY) !== (cur.flags & SEGMENT_FERRY)) return { type: 'notification', modifier: modifierOf(angle) };
  // Leaving a named road for an unnamed one where there is a choice is a maneuver of its own (a
  // link, a slip road): OSRM announces it though the name change alone would not be.
  // The other ways on, by their turn angle, for whether staying on the road is the obvious choice.
  const otherAngles = departures.filter(([s, r]) => !(s === piece.segment && r === piece.reversed))
    .map(([s, r]) => turnAngle(before, segmentBearing(n, s, r, false)));
  // An unnamed road straight ahead while every other way turns far more sharply is the obvious way on
  // (Kane Street going on as the link into Dundalk Avenue): OSRM does not announce losing the name there.
  const obviousAhead = Math.abs(angle) < 40 && otherAngles.every((a) => Math.abs(a) >= Math.abs(angle) + OBVIOUS_MARGIN_DEGREES);
  const ontoUnnamed = prev.name !== '' && cur.name === '' && cur.ref === '' && departures.length > 1 && !obviousAhead;
  const sameRoad = prev.way === cur.way || (!nameChangeAnnounced(prev, cur) && !ontoUnnamed);
  const prevMotorway = (prev.flags & SEGMENT_MOTORWAY) !== 0 && (prev.flags & SEGMENT_LINK) === 0;
  const curMotorway = (cur.flags & SEGMENT_MOTORWAY) !== 0 && (cur.flags & SEGMENT_LINK) === 0;
  const prevLink = (prev.flags & SEGMENT_LINK) !== 0;
  const curLink = (cur.flags & SEGMENT_LINK) !== 0;
  if (prevMotorway && curLink) return { type: 'off ramp', modifier: angle >= 0 ? 'slight right' : 'slight left' };
  if (!prevMotorway && !prevLink && curLink && (cur.flags & SEGMENT_MOTORWAY) !== 0) return { type: 'on ramp', modifier: modifierOf(angle) };
  if (prevLink && curMotorway) return { type: 'merge', modifier: angle >= 0 ? 'slight right' : 'slight left' };
  if (sameRoad && Math.abs(angle) < 40) {
    // A road of a similar name (O'Donnell Street → O'Donnell Street Cutoff) branching off where another
    // way goes on straighter is a choice OSRM announces (a fork or a continue), not the road going on.
    const branching = prev.way !== cur.way && otherAngles.some((a) => Math.abs(a) < Math.abs(angle));
    if (!branching) return null;
  }
  // The same way bending at a junction whose other roads turn far more sharply is the obvious way on,
  // which OSRM does not announce.
  if (prev.way === cur.way && Math.abs(angle) < 90 && otherAngles.every((a) => Math.abs(a) >= Math.abs(angle) + OBVIOUS_MARGIN_DEGREES)) return null;
  if (departures.length <= 1) {
    if (sameRoad) return null;
    // Where only two roads meet OSRM names the change only (its obvious turn), whatever the angle.
    if (ctx.roads(vertex) <= 2) return { type: 'new name', modifier: modifierOf(angle) };
    if (Math.abs(angle) < 40) return throughStreet(ctx, vertex, prevPiece, piece, cur) ? mergeOnto(angle) : { type: 'new name', modifier: modifierOf(angle) };
    return { type: 'turn', modifier: modifierOf(angle) };
  }
  const others = departures.map(([s, r]) => turnAngle(before, segmentBearing(n, s, r, false)));
  const straightOptions = others.filter((a) => Math.abs(a) < 40).length;
  if (Math.abs(angle) < 40 && straightOptions >= 2) {
    const moreLeft = others.filter((a) => Math.abs(a) < 40).every((a) => a >= angle);
    return { type: 'fork', modifier: moreLeft ? 'slight left' : 'slight right' };
  }
  if (straightOptions === 0 && Math.abs(angle) >= 40 && !sameRoad) return { type: 'end of road', modifier: angle > 0 ? 'right' : 'left' };
  if (Math.abs(angle) < 20 && !sameRoad) {
    if (throughStreet(ctx, vertex, prevPiece, piece, cur)) return mergeOnto(angle);
    // Going straight on onto another name while the road driven goes on another way (South Ponca Street
    // goes on to the right, the route keeps straight onto Poncabird Pass) is leaving that road: a turn
    // OSRM announces (its obvious-turn rule favours the road of the same name), not a name change.
    const roadGoesOn = prev.name !== '' && departures.some(([s, r]) => !(s === piece.segment && r === piece.reversed) && n.strings[n.wayName[n.segmentWay[s]]] === prev.name);
    return roadGoesOn ? { type: 'turn', modifier: 'straight' } : { type: 'new name', modifier: 'straight' };
  }
  return { type: sameRoad ? 'continue' : 'turn', modifier: modifierOf(angle) };
}

/** Degrees from opposite within which another road at a vertex carries the road joined on through it (OSRM's FUZZY_ANGLE_DIFFERENCE). */
const THROUGH_DEGREES = 25;

/**
 * Whether the road joined goes on through the vertex on the other side: another road there, not the one
 * arrived on, of the same name and class, within THROUGH_DEGREES of straight on behind it (OSRM's
 * isThroughStreet). Joining such a road is a merge onto it, which OSRM announces as a `merge` (its
 * instruction for an obvious turn onto a through street) and keeps however short, where a mere name change
 * under 105 m is folded (Key Highway → East McComas Street, a ramp → Debelius Avenue).
 */
function throughStreet(ctx: LegContext, vertex: number, prevPiece: Piece, piece: Piece, cur: Attrs): boolean {
  if (cur.name === '' || ctx.arrivals === undefined) return false;
  const n = ctx.network;
  const out = segmentBearing(n, piece.segment, piece.reversed, false);
  const same = (s: number) => s !== piece.segment && s !== prevPiece.segment && n.strings[n.wayName[n.segmentWay[s]]] === cur.name
    && n.wayClass[n.segmentWay[s]] === n.wayClass[cur.way];
  // A road arriving at the vertex carries on through it when it arrives heading the way the joined road leaves.
  if (ctx.arrivals(vertex).some(([s, r]) => same(s) && Math.abs(turnAngle(segmentBearing(n, s, r, true), out)) < THROUGH_DEGREES)) return true;
  return ctx.departures(vertex).some(([s, r]) => same(s) && Math.abs(turnAngle(segmentBearing(n, s, r, false), out)) > 180 - THROUGH_DEGREES);
}

function mergeOnto(angle: number): Decision {
  return { type: 'merge', modifier: angle >= 0 ? 'slight right' : 'slight left' };
}
