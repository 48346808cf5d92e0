// Builds one mode's graph, edge-based as OSRM's: a vertex per open direction of a segment (code
// 2 × segment + 1 when against its direction), an arc per allowed turn from one to the next, weighted
// with the next segment's crossing time plus the turn's cost (turn-costs.ts). Turn restrictions drop
// turns; u-turns exist only at dead ends (where a single road leads in), and a turn between two merged
// carriageways of one road costs as one (merged-carriageways.ts). Turning from a road open to all onto a restricted-access one
// (`private`, `destination`…) weighs RESTRICTED_ENTRY_SECONDS (instead of the turn's cost) but takes no more travel time (OSRM's
// routability weight): such roads serve the ends of a route, not its middle. An obstacle on a vertex
// (traffic signal, stop or give-way sign: obstacles.ts) adds its seconds to the turns through it that it
// binds. Restrictions through ways copy the via roads (via-way-restrictions.ts). Then the large strongly connected part (for snapping) and the contraction hierarchy. A mode
// whose turns are all free and allowed gets a node-based graph instead (node-mode-graph.ts).
import { contract, orderByRank, type BaseArcs, type ContractionOptions, type FinishedEdges } from './contraction';
import { bearing, metresBetween, turnAngle } from './geometry';
import { NO_START, ON_TRAIN, PUSHED_BACKWARD, PUSHED_FORWARD, SEGMENT_FERRY, SEGMENT_ROUNDABOUT, type ModeGraph, type Network } from './network';
import { turnSeconds, type TurnCostSpec } from './turn-costs';
import { mergedCarriageways } from './merged-carriageways';
import { applyPathRestrictions, type PathRestriction } from './via-way-restrictions';
import { TurnArcs } from './turn-arcs';
import { buildNodeModeGraph } from './node-mode-graph';
import { stronglyConnected } from './strongly-connected';

export { stronglyConnected };
import { obstacleFacesTravel, stopBelongsElsewhere, OBSTACLE_MINOR, type VertexObstacles } from './obstacles';

/** A turn restriction via a node (`via` its vertex), or through ways (`path`, via-way-restrictions.ts). */
export interface SegmentRestriction {
  via: number;
  /** Segments of the `from` way that touch `via`. */
  fromSegments: number[];
  toSegments: number[];
  only: boolean;
  /** Through ways: the codes arriving from the `from` way and those driven along the via ways. */
  path?: { fromCodes: number[]; viaCodes: number[] };
}

export interface ModeGraphInput {
  network: Network;
  segmentForward: Float32Array;
  segmentBackward: Float32Array;
  restrictions: SegmentRestriction[];
  turnCosts: TurnCostSpec | null;
  /** Per segment, 1 when its access is restricted for the mode (OSRM's `restricted` roads). */
  restricted?: Uint8Array;
  /** Per segment direction (code), the routability rate in percent (ModeGraph.ratePercent); absent: 100. */
  ratePercent?: Uint8Array;
  /** Vertices the mode cannot pass (barriers): no turn through them. */
  blockedVertices?: ReadonlySet<number>;
  /** Per segment, 1 when a route may not start or end on it (marked NO_START in `segmentMain`). */
  noStart?: Uint8Array;
  /** Per segment, bit 1 / bit 2 when a bike is pushed along / against it, bit 4 on a train (PUSHED_*, ON_TRAIN in `segmentMain`). */
  pushed?: Uint8Array;
  /** Obstacles on vertices whose seconds this mode's turns pay. */
  obstacles?: VertexObstacles;
  /** Where the contraction puts its finished edges (contraction.ts); default in memory. */
  finishedEdges?: FinishedEdges;
  /** Threads for the contraction and how to start its helpers (contraction.ts ContractionOptions). */
  contractionThreads?: Pick<ContractionOptions, 'threads' | 'startHelpers' | 'afterContracting'>;
  /**
   * The hierarchy rank of another mode's edge-based graph over the same network (truck takes car's):
   * contracted in that order, without simulating priorities (contraction.ts). Ignored by a node-based graph.
   */
  orderFrom?: Uint32Array;
  /** Edge-based even when every turn is free (tests compare both layouts); default: node-based then. */
  edgeBased?: boolean;
  /** `shortcuts`: the contraction's so far (contraction.ts ContractionProgress). */
  onProgress?(step: string, done: number, total?: number, shortcuts?: number): void;
}

/** Whether every turn of the mode costs nothing and none is forbidden: then the graph is node-based. */
export function turnsAreFree(input: Pick<ModeGraphInput, 'turnCosts' | 'restrictions' | 'obstacles' | 'restricted' | 'ratePercent'>): boolean {
  return input.turnCosts === null && input.restrictions.length === 0 && (input.obstacles === undefined || input.obstacles.vertex.length === 0)
    && (input.restricted === undefined || input.restricted.every((r) => r === 0))
    && (input.ratePercent === undefined || input.ratePercent.every((r) => r === 100));
}

/**
 * Weight, not time, of the turn onto a restricted-access road from an unrestricted one, in place of the
 * turn's own cost: large enough that a route goes through such roads only to start or end there. OSRM's
 * car profile sets such a turn's weight to its maximum turn weight, 32767 tenths of a second (a 16-bit
 * turn penalty at weight precision 1).
 */
export const RESTRICTED_ENTRY_SECONDS = 3276.7;

/** Km/h by which another road must be faster for the arriving one to be the minor road at a `stop=minor`. */
const MINOR_ROAD_KPH_MARGIN = 0.5;

/** Components smaller than this are islands (OSRM's default for "tiny components" is 1000). */
const MAIN_COMPONENT_VERTICES = 1000;

export function codeTail(n: Network, c: number): number {
  return (c & 1) === 0 ? n.segmentFrom[c >> 1] : n.segmentTo[c >> 1];
}

export function codeHead(n: Network, c: number): number {
  return (c & 1) === 0 ? n.segmentTo[c >> 1] : n.segmentFrom[c >> 1];
}

/** Metres along a road at which a turn's angle is measured, as OSRM does, so that a kink right at the vertex does not decide it. */
const TURN_LOOKAHEAD_METRES = 10;
/** Along a roundabout OSRM looks only 2 m ahead: the ring curves, and a longer look would turn each exit into a sharp turn. */
const ROUNDABOUT_LOOKAHEAD_METRES = 2;

/**
 * Bearing leaving (or, with `arriving`, entering) along code c, measured between the vertex and the
 * point TURN_LOOKAHEAD_METRES along the segment (ROUNDABOUT_LOOKAHEAD_METRES on a roundabout; its far
 * end when shorter).
 */
export function codeBearing(n: Network, c: number, arriving: boolean): number {
  const s = c >> 1;
  const first = n.segmentStart[s], last = n.segmentStart[s + 1] - 1;
  const reversed = (c & 1) === 1;
  // The vertex end of the segment and the direction to walk away from it.
  const fromStart = reversed === arriving;
  const vertex = fromStart ? first : last;
  const step = fromStart ? 1 : -1;
  const lookahead = (n.segmentFlags[s] & SEGMENT_ROUNDABOUT) !== 0 ? ROUNDABOUT_LOOKAHEAD_METRES : TURN_LOOKAHEAD_METRES;
  const lon = (p: number) => n.pointLon[p] / 1e7, lat = (p: number) => n.pointLat[p] / 1e7;
  let p = vertex + step;
  let before = 0;
  let along = metresBetween(lon(vertex), lat(vertex), lon(p), lat(p));
  while (along < lookahead && p !== (fromStart ? last : first)) {
    p += step;
    before = along;
    along += metresBetween(lon(p - step), lat(p - step), lon(p), lat(p));
  }
  // The point exactly `lookahead` metres along (on the piece that reaches it), or the far end.
  const share = along > lookahead && along > before ? (lookahead - before) / (along - before) : 1;
  const q = p - step;
  const toLon = lon(q) + (lon(p) - lon(q)) * share, toLat = lat(q) + (lat(p) - lat(q)) * share;
  return arriving ? bearing(toLon, toLat, lon(vertex), lat(vertex)) : bearing(lon(vertex), lat(vertex), toLon, toLat);
}

export function buildModeGraph(input: ModeGraphInput): ModeGraph {
  const graph = !input.edgeBased && turnsAreFree(input) ? buildNodeModeGraph(input) : buildEdgeModeGraph(input);
  input.noStart?.forEach((no, s) => {
    if (no === 1) graph.segmentMain[s] |= NO_START;
  });
  input.pushed?.forEach((p, s) => {
    graph.segmentMain[s] |= ((p & 1) !== 0 ? PUSHED_FORWARD : 0) | ((p & 2) !== 0 ? PUSHED_BACKWARD : 0) | ((p & 4) !== 0 ? ON_TRAIN : 0);
  });
  return graph;
}

function buildEdgeModeGraph(input: ModeGraphInput): ModeGraph {
  const { network: n, segmentForward, segmentBackward } = input;
  const segments = n.segmentFrom.length;
  const codes = segments * 2;
  const vertices = n.vertexPoint.length;
  const weightOf = (c: number) => ((c & 1) === 0 ? segmentForward[c >> 1] : segmentBackward[c >> 1]);
  input.onProgress?.('turns', 0);

  // Open codes leaving each vertex, and roads (segments, either direction open) at each vertex.
  const leaveFirst = new Uint32Array(vertices + 1);
  const roads = new Uint16Array(vertices);
  // Roads a vehicle can arrive along, per vertex: where only one can, turning back is allowed (OSRM's
  // dead-end rule, which also lets a one-way road's end serve as a turning place).
  const arrivals = new Uint16Array(vertices);
  for (let s = 0; s < segments; s++) {
    if (segmentForward[s] < 0 && segmentBackward[s] < 0) continue;
    roads[n.segmentFrom[s]]++;
    if (n.segmentTo[s] !== n.segmentFrom[s]) roads[n.segmentTo[s]]++;
    if (segmentForward[s] >= 0) arrivals[n.segmentTo[s]]++;
    if (segmentBackward[s] >= 0 && n.segmentTo[s] !== n.segmentFrom[s]) arrivals[n.segmentFrom[s]]++;
  }
  for (let c = 0; c < codes; c++) if (weightOf(c) >= 0) leaveFirst[codeTail(n, c) + 1]++;
  for (let v = 0; v < vertices; v++) leaveFirst[v + 1] += leaveFirst[v];
  const leave = new Uint32Array(leaveFirst[vertices]);
  const pos = leaveFirst.slice(0, vertices);
  for (let c = 0; c < codes; c++) if (weightOf(c) >= 0) leave[pos[codeTail(n, c)]++] = c;

  // Restrictions by (arriving segment, via vertex).
  const rules = new Map<string, { forbidden: Set<number>; onlyTo: Set<number> | null }>();
  for (const r of input.restrictions) {
    if (r.path !== undefined) continue;
    for (const s of r.fromSegments) {
      const key = `${s}:${r.via}`;
      let rule = rules.get(key);
      if (!rule) rules.set(key, (rule = { forbidden: new Set(), onlyTo: null }));
      if (r.only) {
        rule.onlyTo ??= new Set();
        for (const t of r.toSegments) rule.onlyTo.add(t);
      } else for (const t of r.toSegments) rule.forbidden.add(t);
    }
  }

  const obstacleSeconds = obstacleCosts(input, roads);
  // Turns from one carriageway of a road onto the other are u-turns, and other turns see a merged
  // pair at its mean bearing (merged-carriageways.ts); only for modes that pay turns.
  const merged = input.turnCosts === null
    ? { uturns: new Map<number, number>(), bearings: new Map<number, number>() }
    : mergedCarriageways(n, (c) => weightOf(c) >= 0, (c) => codeBearing(n, c, false));
  const leaving = (d: number) => merged.bearings.get(d) ?? codeBearing(n, d, false);
  const arriving = (c: number) => {
    const m = merged.bearings.get(c ^ 1);
    return m === undefined ? codeBearing(n, c, true) : (m + 180) % 360;
  };

  // Turns at most: every open code arriving at a vertex times every one leaving it.
  let most = 0;
  for (let c = 0; c < codes; c++) if (weightOf(c) >= 0) most += leaveFirst[codeHead(n, c) + 1] - leaveFirst[codeHead(n, c)];
  const turns = new TurnArcs(most);
  const restricted = input.restricted;
  // The routing weight of crossing code d: its seconds over its rate (OSRM's routability weight).
  const rates = input.ratePercent;
  const weightOfCrossing = rates === undefined ? weightOf : (d: number) => (weightOf(d) * 100) / rates[d];
  for (let c = 0; c < codes; c++) {
    // Counted in segment directions; the caller throttles (a large region's turns take a minute).
    if ((c & 16383) === 0) input.onProgress?.('turns', c, codes);
    if (weightOf(c) < 0) continue;
    const v = codeHead(n, c);
    // A barrier vertex lets nothing through, but a vehicle (a mode that pays turns) may turn back there,
    // as OSRM allows only the u-turn at a barrier node; walkers' free-turn graph is node-based, where a
    // barrier end is a dead end as here (node-mode-graph.ts), so both layouts answer alike.
    const barrier = input.blockedVertices?.has(v) === true;
    if (barrier && input.turnCosts === null) continue;
    const before = arriving(c);
    const rule = rules.get(`${c >> 1}:${v}`);
    for (let i = leaveFirst[v]; i < leaveFirst[v + 1]; i++) {
      const d = leave[i];
      const uturn = (d >> 1) === (c >> 1);
      if (barrier && !uturn) continue;
      if (uturn && !barrier && roads[v] > 1 && arrivals[v] > 1) continue;
      if (rule && (rule.onlyTo ? !rule.onlyTo.has(d >> 1) : rule.forbidden.has(d >> 1))) continue;
      const turningBack = uturn || merged.uturns.get(c) === d;
      const angle = turningBack ? 180 : turnAngle(before, leaving(d));
      const modeChange = ((n.segmentFlags[c >> 1] ^ n.segmentFlags[d >> 1]) & SEGMENT_FERRY) !== 0;
      const travel = weightOf(d) + turnSeconds(input.turnCosts, angle, roads[v], turningBack, modeChange) + obstacleSeconds(c, d, v);
      const crossing = weightOfCrossing(d);
      const weight = restricted && restricted[d >> 1] === 1 && restricted[c >> 1] === 0 ? crossing + RESTRICTED_ENTRY_SECONDS
        : rates === undefined ? travel : travel - weightOf(d) + crossing;
      turns.push(c, d, weight, travel, n.segmentLength[d >> 1]);
    }
  }
  const paths: PathRestriction[] = input.restrictions.flatMap((r) => (r.path === undefined ? [] : [{ ...r.path, toSegments: r.toSegments, only: r.only }]));
  const { duplicateOf } = applyPathRestrictions(codes, turns, paths);
  const vertexCount = codes + duplicateOf.length;
  const { tail: arcTail, head: arcHead, weight: arcWeight, seconds: arcSeconds, distance: arcDistance } = turns.take();

  input.onProgress?.('components', 0);
  const component = stronglyConnected(vertexCount, arcTail, arcHead);
  const sizes = new Map<number, number>();
  for (let c = 0; c < codes; c++) if (weightOf(c) >= 0) sizes.set(component[c], (sizes.get(component[c]) ?? 0) + 1);
  const largest = Math.max(0, ...sizes.values());
  const threshold = Math.min(MAIN_COMPONENT_VERTICES, largest);
  const segmentMain = new Uint8Array(segments);
  for (let c = 0; c < codes; c++) if (weightOf(c) >= 0 && (sizes.get(component[c]) ?? 0) >= threshold) segmentMain[c >> 1] = 1;

  const arcs: BaseArcs = { vertexCount, tail: arcTail, head: arcHead, weight: arcWeight, distance: arcDistance };
  input.onProgress?.('ordering', 0, vertexCount);
  // A copy made by a via-way restriction goes right after its original.
  const order = input.orderFrom === undefined || input.orderFrom.length < codes ? undefined
    : orderByRank(input.orderFrom, vertexCount, codes, (v) => duplicateOf[v - codes]);
  const hierarchy = contract(arcs, (step, done, total, shortcuts) => input.onProgress?.(step, done, total, shortcuts), { ...input.contractionThreads, finishedEdges: input.finishedEdges, order });
  return {
    kind: 'edge',
    vertexCount, arcTail, arcHead, arcWeight, arcDistance, arcSeconds, segmentForward, segmentBackward, segmentMain, hierarchy,
    duplicateOf: Uint32Array.from(duplicateOf), ...(rates === undefined ? {} : { ratePercent: rates }),
  };
}

/**
 * Seconds the obstacles on vertex v cost the turn from code c onto code d (0 for a vertex without any):
 * those binding c's direction of travel, except a stop sign placed by the nearest-intersection rule
 * (obstacles.ts) and a `stop=minor` when c is not slower than every other road there (OSRM compares the
 * roads' speeds to tell the minor road).
 */
function obstacleCosts(input: ModeGraphInput, roads: Uint16Array): (c: number, d: number, v: number) => number {
  const obstacles = input.obstacles;
  if (obstacles === undefined || obstacles.vertex.length === 0) return () => 0;
  const { network: n, segmentForward, segmentBackward } = input;
  const at = new Map<number, number[]>();
  obstacles.vertex.forEach((v, i) => {
    const list = at.get(v);
    if (list) list.push(i);
    else at.set(v, [i]);
  });
  // km/h of a segment in its faster open direction; the roads at an obstacle vertex, for `stop=minor`.
  const kph = (s: number) => {
    const open = [segmentForward[s], segmentBackward[s]].filter((t) => t > 0);
    return open.length === 0 ? 0 : (n.segmentLength[s] / Math.min(...open)) * 3.6;
  };
  const roadsAt = new Map<number, number[]>();
  for (let s = 0; s < n.segmentFrom.length; s++) {
    for (const v of [n.segmentFrom[s], n.segmentTo[s]]) {
      if (!at.has(v) || (segmentForward[s] < 0 && segmentBackward[s] < 0)) continue;
      const list = roadsAt.get(v);
      if (!list) roadsAt.set(v, [s]);
      else if (!list.includes(s)) list.push(s);
    }
  }
  const enteringByMinorRoad = (c: number, v: number) => {
    const source = kph(c >> 1);
    // Speeds come back from 32-bit seconds: two roads of one class differ by rounding, not by class.
    return (roadsAt.get(v) ?? []).some((s) => s !== c >> 1 && kph(s) > source + MINOR_ROAD_KPH_MARGIN);
  };
  return (c, d, v) => {
    const list = at.get(v);
    if (list === undefined) return 0;
    let seconds = 0;
    for (const i of list) {
      const kind = obstacles.kind[i];
      if (!obstacleFacesTravel(kind, (c & 1) === 0)) continue;
      if ((kind & OBSTACLE_MINOR) !== 0 && !enteringByMinorRoad(c, v)) continue;
      if (stopBelongsElsewhere(kind, roads[v], n.segmentLength[c >> 1], n.segmentLength[d >> 1])) continue;
      seconds += obstacles.seconds[i];
    }
    return seconds;
  };
}
