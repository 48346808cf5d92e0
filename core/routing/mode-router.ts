// Routes and tables on one extract for one mode: snapping to the nearest open segment, seeds for the
// partial segments at both ends, the hierarchy for plain queries, a base-graph Dijkstra when segments
// must be avoided or alternatives are asked for, and the OSRM-shaped result.
import type { LngLat, OsrmRoute } from './route-shapes';
import { BoundedTable, DIRECT_PATH, type FoundPaths } from './bounded-table';
import { BaseSearch, type BaseGraph } from './dijkstra';
import { ChQuery, SearchWorkspace } from './ch-query';
import { arcsBy, modeTablesNow, type ModeTables } from './mode-tables';
import { finish } from './steps';
import { MAIN_PART, NO_START, ON_TRAIN, PUSHED_BACKWARD, PUSHED_FORWARD, SEGMENT_FERRY, type ModeGraph, type Network } from './network';
import { Polylines } from '../isochrone/polylines';
import { buildLeg, buildLegWithoutSteps, pieceGeometry, piecePoints, type LegContext, type Piece } from './route-steps';
import type { SearchResult, SearchSeed } from './search-seed';
import { SegmentIndex, type Snap } from './segment-index';

export interface RouteOptions {
  /** SEGMENT_* bits a route must not use. */
  avoidMask?: number;
  alternatives?: boolean;
  /** Degrees; the first leg starts in the direction closest to it. */
  heading?: number;
  /**
   * Go on through each intermediate point in the direction it was reached (no turning back there):
   * OSRM's `continue_straight`, on by default in its car profile. Falls back to independent legs when
   * no such route exists.
   */
  continueStraight?: boolean;
  /** Turn-by-turn steps in each leg (the default); false leaves them empty and does not make them. */
  steps?: boolean;
}


/** Alternatives: weight factor on the arcs of routes found so far, and what makes one acceptable. */
const ALTERNATIVE_PENALTY = 1.6;
const ALTERNATIVE_MAX_STRETCH = 1.5;
const ALTERNATIVE_MAX_SHARED = 0.7;

export class ModeRouter {
  private readonly query: ChQuery;
  /** The hierarchy searches' labels: the network's shared one when given, else this router's own. */
  readonly workspace: SearchWorkspace;
  private baseSearch: BaseSearch | undefined;
  private bounded: BoundedTable | undefined;
  private baseGraph: BaseGraph | undefined;
  /** Turn arcs arriving at each code (vertex), CSR: the target seeds. */
  private readonly inFirst: Uint32Array;
  private readonly inArc: Uint32Array;
  private readonly legContext: LegContext;
  /** Whether the mode's main part is large in OSRM's sense (else the map is small and every part counts). */
  private readonly bigComponent: boolean;
  /** Segment directions: 2 × segments; vertices from there on are copies (ModeGraph.duplicateOf). */
  private readonly codes: number;
  /** The copies of each copied code, so a point on it is reached through them too. */
  private readonly copies = new Map<number, number[]>();
  /** Node-based graph (network.ts GraphKind): arc c is segment direction c, seeds sit on network vertices. */
  private readonly nodeBased: boolean;

  /**
   * `tables`: built beforehand from this network and graph (the gateway builds them in steps, mode-tables.ts); else built here at once.
   * `workspace`: the hierarchy searches' labels, shared with the other modes of the network (the gateway's); else its own.
   */
  constructor(readonly network: Network, readonly mode: ModeGraph, readonly index: SegmentIndex, travelMode: string, tables: ModeTables = modeTablesNow(network, mode), workspace?: SearchWorkspace) {
    this.bigComponent = tables.bigComponent;
    this.codes = network.segmentFrom.length * 2;
    mode.duplicateOf?.forEach((c, i) => {
      const list = this.copies.get(c);
      if (list) list.push(this.codes + i);
      else this.copies.set(c, [this.codes + i]);
    });
    this.nodeBased = mode.kind === 'node';
    this.workspace = workspace ?? new SearchWorkspace();
    this.query = new ChQuery(mode.hierarchy, mode.vertexCount, tables.seconds, this.workspace);
    ({ inFirst: this.inFirst, inArc: this.inArc } = tables);
    const { leaveFirst, leave, arriveFirst, arrive, roads } = tables;
    const open = (c: number) => ((c & 1) === 0 ? mode.segmentForward[c >> 1] : mode.segmentBackward[c >> 1]) >= 0;
    this.legContext = {
      roads: (v) => roads[v],
      pushed: (s, reversed) => (mode.segmentMain[s] & (reversed ? PUSHED_BACKWARD : PUSHED_FORWARD)) !== 0,
      onTrain: (s) => (mode.segmentMain[s] & ON_TRAIN) !== 0,
      network, travelMode,
      alongAt: (p) => index.alongAt(p),
      arrivals: (v) => {
        const out: Array<[number, boolean]> = [];
        for (let i = arriveFirst[v]; i < arriveFirst[v + 1]; i++) out.push([arrive[i] >> 1, (arrive[i] & 1) === 1]);
        return out;
      },
      twoWay: (s) => open(2 * s) && open(2 * s + 1),
      departures: (v) => {
        const out: Array<[number, boolean]> = [];
        for (let i = leaveFirst[v]; i < leaveFirst[v + 1]; i++) out.push([leave[i] >> 1, (leave[i] & 1) === 1]);
        return out;
      },
    };
  }

  /**
   * The base-graph search and its workspace (about 44 bytes a vertex), made when first needed: only
   * avoid options, alternatives and isochrones use it, and a region's four modes would hold it for nothing.
   */
  private get base(): BaseSearch {
    return (this.baseSearch ??= new BaseSearch(this.graph));
  }

  /**
   * The turn graph with the arcs leaving each vertex, made when first needed: only the base-graph
   * searches (avoid, alternatives, isochrones, matching legs) read it, and on a region the list is a
   * second copy of the arcs' size that a plain route never touches (and time at start).
   */
  private get graph(): BaseGraph {
    const mode = this.mode;
    if (this.baseGraph) return this.baseGraph;
    const [outFirst, outArc] = finish(arcsBy(mode, mode.arcTail));
    return (this.baseGraph = { vertexCount: mode.vertexCount, outFirst, outArc, arcTail: mode.arcTail, arcHead: mode.arcHead, arcWeight: mode.arcWeight, arcDistance: mode.arcDistance, arcSeconds: mode.arcSeconds });
  }

  private segmentOpen(segment: number, avoidMask: number): boolean {
    if ((this.network.segmentFlags[segment] & avoidMask) !== 0) return false;
    return this.mode.segmentForward[segment] >= 0 || this.mode.segmentBackward[segment] >= 0;
  }

  /**
   * Where a route may start or end: an open segment that is not a ferry or train, nor marked NO_START by
   * the profile (a car's private service road), OSRM's startpoint rule.
   */
  private startable(segment: number, avoidMask: number): boolean {
    return (this.network.segmentFlags[segment] & SEGMENT_FERRY) === 0 && (this.mode.segmentMain[segment] & NO_START) === 0
      && this.segmentOpen(segment, avoidMask);
  }

  /**
   * Nearest open segment within `radius` metres, preferring the network's large connected part. On a
   * network without a part of OSRM's size for "large" (mode-tables.ts), every part is as good.
   */
  snap(point: LngLat, radius: number, avoidMask = 0): Snap | null {
    return this.snapCandidates(point, radius, avoidMask)[0] ?? null;
  }

  /**
   * The snaps a route may start or end at, best first: the nearest place on a startable segment (with
   * every segment there, `Snap.ties`) when the large part is among them, else the nearest place of the
   * large part and that nearer place after it (OSRM snaps to the large part unless every point is on the
   * same small one; trying the nearer place when the large part connects nothing covers that).
   */
  snapCandidates(point: LngLat, radius: number, avoidMask = 0): Snap[] {
    // Only start points, as OSRM snaps: a point near nothing but ferries or private service roads is off the network.
    const nearest = this.index.nearestPlace(point[0], point[1], radius, (s) => this.startable(s, avoidMask));
    if (nearest === null) return [];
    if (!this.bigComponent || positions(nearest).some((p) => (this.mode.segmentMain[p.segment] & MAIN_PART) !== 0)) return [nearest];
    const main = this.index.nearestPlace(point[0], point[1], radius, (s) => (this.mode.segmentMain[s] & MAIN_PART) !== 0 && this.startable(s, avoidMask));
    return main === null ? [nearest] : [main, nearest];
  }

  /** The position of a snapped point on segment s: its own, or the tie on s (a point at a junction is on every road there). */
  private on(snap: Snap, s: number): Snap {
    return snap.segment === s || snap.ties === undefined ? snap : (snap.ties.find((t) => t.segment === s) ?? snap);
  }

  /** Share of the segment behind the snapped point in the direction of code c. */
  private travelled(snap: Snap, c: number): number {
    const at = this.on(snap, c >> 1);
    const len = this.network.segmentLength[at.segment];
    const f = len > 0 ? at.along / len : 0;
    return (c & 1) === 0 ? f : 1 - f;
  }

  /** The segment direction a graph vertex stands for (a copy's original). */
  private codeOf(v: number): number {
    return v < this.codes ? v : this.mode.duplicateOf![v - this.codes];
  }

  private seconds(c: number): number {
    return (c & 1) === 0 ? this.mode.segmentForward[c >> 1] : this.mode.segmentBackward[c >> 1];
  }

  /** Routing weight per travel second on code c: over 1 where a rate penalty applies (ModeGraph.ratePercent). */
  private weightPerSecond(c: number): number {
    const rates = this.mode.ratePercent;
    return rates === undefined ? 1 : 100 / rates[c];
  }

  /** The segment direction an arc of a path enters: a turn's next segment (a copy's original), or (node-based) the arc's own. */
  private arcCode(a: number): number {
    return this.nodeBased ? a : this.codeOf(this.mode.arcHead[a]);
  }

  /** Seeds leaving a snapped point: at the end of its segments' open directions (option = code). */
  sourceSeeds(snap: Snap, heading?: number): SearchSeed[] {
    const seeds: SearchSeed[] = [];
    for (const at of positions(snap)) {
      const s = at.segment;
      const len = this.network.segmentLength[s];
      for (const c of [2 * s, 2 * s + 1]) {
        const secs = this.seconds(c);
        if (secs < 0) continue;
        const left = 1 - this.travelled(at, c);
        // Edge-based the search starts on c itself; node-based, at the vertex c leads to.
        const vertex = this.nodeBased ? this.mode.arcHead[c] : c;
        seeds.push({ vertex, cost: secs * left * this.weightPerSecond(c), metres: len * left, seconds: secs * left, option: c });
      }
    }
    if (heading !== undefined && seeds.length > 1) {
      const off = (b: number) => Math.abs(((b - heading + 540) % 360) - 180);
      const bearing = (c: number) => this.on(snap, c >> 1).bearing;
      const keep = seeds.filter((seed) => off((seed.option & 1) === 0 ? bearing(seed.option) : (bearing(seed.option) + 180) % 360) <= 90);
      if (keep.length > 0) return keep;
    }
    return seeds;
  }

  /** Seeds arriving at a snapped point: every turn onto its segments' open directions (option = code). */
  targetSeeds(snap: Snap): SearchSeed[] {
    const seeds: SearchSeed[] = [];
    for (const at of positions(snap)) this.targetSeedsOn(at, seeds);
    return seeds;
  }

  private targetSeedsOn(snap: Snap, seeds: SearchSeed[]): void {
    const s = snap.segment;
    const len = this.network.segmentLength[s];
    for (const c of [2 * s, 2 * s + 1]) {
      const secs = this.seconds(c);
      if (secs < 0) continue;
      const share = this.travelled(snap, c);
      const crossing = secs * this.weightPerSecond(c);
      if (this.nodeBased) {
        // Reached at the vertex c starts from, whatever road led there (turns are free).
        seeds.push({ vertex: this.mode.arcTail[c], cost: secs * share, metres: len * share, seconds: secs * share, option: c });
        continue;
      }
      for (const v of [c, ...(this.copies.get(c) ?? [])]) {
        for (let i = this.inFirst[v]; i < this.inFirst[v + 1]; i++) {
          const a = this.inArc[i];
          // The turn's own cost is the arc's weight beyond the segment's (its time, the arc's travel seconds beyond).
          const turn = this.mode.arcWeight[a] - crossing;
          const turnTime = this.mode.arcSeconds[a] - secs;
          seeds.push({ vertex: this.mode.arcTail[a], cost: turn + crossing * share, metres: len * share, seconds: turnTime + secs * share, option: c });
        }
      }
    }
  }

  /** Both points on one segment (a position of each), going the open way from one to the other. */
  private direct(from: Snap, to: Snap, sources: SearchSeed[]): SearchResult | null {
    let best: SearchResult | null = null;
    for (const seed of sources) {
      const c = seed.option;
      if (this.on(to, c >> 1).segment !== c >> 1) continue;
      const len = this.network.segmentLength[c >> 1];
      if (len <= 0) continue;
      const ahead = this.travelled(to, c) - this.travelled(from, c);
      if (ahead < 0) continue;
      const seconds = this.seconds(c) * ahead;
      const cost = seconds * this.weightPerSecond(c);
      if (best === null || cost < best.cost) best = { cost, metres: len * ahead, seconds, sourceOption: c, targetOption: c, arcs: [] };
    }
    return best;
  }

  private best(from: Snap, to: Snap, sources: SearchSeed[], targets: SearchSeed[], avoidMask: number): SearchResult | null {
    const via = avoidMask === 0 ? this.query.shortest(sources, targets) : this.base.run(sources, [targets], this.filterFor(avoidMask))[0];
    const direct = this.direct(from, to, sources);
    if (direct && (via === null || direct.cost <= via.cost)) return direct;
    return via;
  }

  private filterFor(avoidMask: number) {
    const flags = this.network.segmentFlags;
    return { allowed: (a: number) => (flags[this.arcCode(a) >> 1] & avoidMask) === 0 };
  }

  /** The stretch of segment direction c between two shares of it (0 = where c enters, 1 = where it leaves). */
  private piece(c: number, startShare: number, endShare: number): Piece {
    const segment = c >> 1;
    const reversed = (c & 1) === 1;
    const len = this.network.segmentLength[segment];
    const along = (share: number) => (reversed ? len * (1 - share) : len * share);
    const distance = len * (endShare - startShare);
    return { segment, reversed, from: along(startShare), to: along(endShare), distance, duration: this.seconds(c) * (endShare - startShare) };
  }

  /** The pieces of a leg from a search result. */
  pieces(from: Snap, to: Snap, r: SearchResult): Piece[] {
    const piece = (c: number, startShare: number, endShare: number) => this.piece(c, startShare, endShare);
    if (r.arcs.length === 0 && r.sourceOption === r.targetOption && this.travelled(to, r.targetOption) >= this.travelled(from, r.sourceOption)) {
      return [piece(r.sourceOption, this.travelled(from, r.sourceOption), this.travelled(to, r.targetOption))];
    }
    const out: Piece[] = [piece(r.sourceOption, this.travelled(from, r.sourceOption), 1)];
    for (const a of r.arcs) {
      const p = piece(this.arcCode(a), 0, 1);
      // The arc's time holds the turn onto the segment as well.
      p.duration = this.mode.arcSeconds[a];
      out.push(p);
    }
    const last = piece(r.targetOption, 0, this.travelled(to, r.targetOption));
    // Its turn is in the search's time only: the rest of that time is this piece's.
    last.duration = Math.max(0, r.seconds - out.reduce((t, p) => t + p.duration, 0));
    out.push(last);
    return withoutEmptyEnds(out);
  }

  /** The best path between two snapped points as pieces of segments; null when there is none. */
  legPieces(from: Snap, to: Snap, avoidMask = 0, heading?: number): Piece[] | null {
    const sources = this.sourceSeeds(from, heading);
    const r = this.best(from, to, sources, this.targetSeeds(to), avoidMask);
    return r === null ? null : this.pieces(from, to, r);
  }

  /**
   * legPieces for two points a few hundred metres apart (map matching's legs): a Dijkstra on the turn
   * graph that stops once the target is settled visits tens of vertices, where the hierarchy's two
   * searches climb to its top and unpack shortcuts (on east Baltimore this took a fifth of a match).
   * The same least-cost path; between paths of exactly equal cost the two may choose differently. A
   * path costing more than `maxCost` (a restricted-access penalty, a slow road) is left to the hierarchy,
   * so the search stays small.
   */
  nearLegPieces(from: Snap, to: Snap, maxCost: number): Piece[] | null {
    const sources = this.sourceSeeds(from);
    const direct = this.direct(from, to, sources);
    const via = this.base.run(sources, [this.targetSeeds(to)], {}, true, maxCost)[0];
    if (via === null && !(direct && direct.cost <= maxCost)) return this.legPieces(from, to);
    const r = direct && (via === null || direct.cost <= via.cost) ? direct : via;
    return r === null ? null : this.pieces(from, to, r);
  }

  /** The legs of the route through snapped points in order, as pieces; null when some leg has no path. */
  routeLegs(snaps: Snap[], options: RouteOptions = {}): Piece[][] | null {
    const avoid = options.avoidMask ?? 0;
    const through = options.continueStraight && snaps.length > 2 ? this.straightThrough(snaps, avoid, options.heading) : null;
    if (through !== null) return through;
    const legs: Piece[][] = [];
    for (let i = 0; i + 1 < snaps.length; i++) {
      const pieces = this.legPieces(snaps[i], snaps[i + 1], avoid, i === 0 ? options.heading : undefined);
      if (pieces === null) return null;
      legs.push(pieces);
    }
    return legs;
  }

  /** A route through snapped points in order; null when some leg has no path. */
  route(snaps: Snap[], options: RouteOptions = {}): OsrmRoute[] | null {
    const avoid = options.avoidMask ?? 0;
    const legs = this.routeLegs(snaps, options);
    if (legs === null) return null;
    const steps = options.steps ?? true;
    const routes = [this.assemble(legs, steps)];
    if (options.alternatives && snaps.length === 2) {
      for (const alt of this.alternatives(snaps[0], snaps[1], legs[0], avoid, options.heading)) routes.push(this.assemble([alt], steps));
    }
    return routes;
  }

  /**
   * The legs of the best route that leaves every intermediate point in the direction it arrived: for
   * each direction of travel through each intermediate point, the best way there (so the legs are
   * chosen together, not one by one). Null when no such route exists.
   */
  private straightThrough(snaps: Snap[], avoidMask: number, heading?: number): Piece[][] | null {
    type Way = { cost: number; results: SearchResult[] };
    // Turning back on a dead end just before an intermediate point or just after it can cost exactly
    // the same; then the turn is made before it, so the point is reached facing the way on.
    const better = (a: Way, b: Way): boolean => {
      if (Math.abs(a.cost - b.cost) > 1e-3) return a.cost < b.cost;
      for (let i = 0; i < a.results.length; i++) {
        if (Math.abs(a.results[i].cost - b.results[i].cost) > 1e-3) return a.results[i].cost > b.results[i].cost;
      }
      return false;
    };
    // Keyed by the direction (segment code) travelled through the point reached so far; -1 at the start.
    let reached = new Map<number, Way>([[-1, { cost: 0, results: [] }]]);
    for (let i = 0; i + 1 < snaps.length; i++) {
      const from = snaps[i], to = snaps[i + 1];
      const last = i + 2 === snaps.length;
      const allSources = this.sourceSeeds(from, i === 0 ? heading : undefined);
      const allTargets = this.targetSeeds(to);
      const arrivals = last ? [-1] : [...new Set(allTargets.map((t) => t.option))];
      const next = new Map<number, Way>();
      for (const [through, way] of reached) {
        const sources = through < 0 ? allSources : allSources.filter((s) => s.option === through);
        if (sources.length === 0) continue;
        for (const arrival of arrivals) {
          const targets = arrival < 0 ? allTargets : allTargets.filter((t) => t.option === arrival);
          const r = this.best(from, to, sources, targets, avoidMask);
          if (r === null) continue;
          const candidate = { cost: way.cost + r.cost, results: [...way.results, r] };
          const known = next.get(arrival);
          if (!known || better(candidate, known)) next.set(arrival, candidate);
        }
      }
      if (next.size === 0) return null;
      reached = next;
    }
    const best = reached.get(-1);
    return best ? best.results.map((r, i) => this.pieces(snaps[i], snaps[i + 1], r)) : null;
  }

  private alternatives(from: Snap, to: Snap, bestPieces: Piece[], avoidMask: number, heading?: number): Piece[][] {
    const found: Piece[][] = [bestPieces];
    const bestCost = bestPieces.reduce((t, p) => t + p.duration, 0);
    const penalised = new Set<number>();
    const out: Piece[][] = [];
    for (let attempt = 0; attempt < 4 && out.length < 2; attempt++) {
      for (const p of found[found.length - 1]) penalised.add(p.segment);
      const r = this.base.run(this.sourceSeeds(from, heading), [this.targetSeeds(to)], {
        allowed: avoidMask === 0 ? undefined : this.filterFor(avoidMask).allowed,
        factor: (a) => (penalised.has(this.arcCode(a) >> 1) ? ALTERNATIVE_PENALTY : 1),
      })[0];
      if (r === null) break;
      const pieces = this.pieces(from, to, r);
      const cost = pieces.reduce((t, p) => t + p.duration, 0);
      if (cost > bestCost * ALTERNATIVE_MAX_STRETCH) break;
      const length = pieces.reduce((t, p) => t + p.distance, 0);
      const distinct = found.every((other) => {
        const segs = new Set(other.map((p) => p.segment));
        const shared = pieces.filter((p) => segs.has(p.segment)).reduce((t, p) => t + p.distance, 0);
        return shared <= ALTERNATIVE_MAX_SHARED * length;
      });
      found.push(pieces);
      if (distinct) out.push(pieces);
    }
    return out;
  }

  private assemble(legPieces: Piece[][], steps: boolean): OsrmRoute {
    const legs = [];
    const geometry: LngLat[] = [];
    for (const pieces of legPieces) {
      const built = steps ? buildLeg(this.legContext, pieces) : buildLegWithoutSteps(this.legContext, pieces);
      legs.push(built.leg);
      geometry.push(...(geometry.length > 0 ? built.geometry.slice(1) : built.geometry));
    }
    const distance = legs.reduce((t, l) => t + l.distance, 0);
    const duration = legs.reduce((t, l) => t + l.duration, 0);
    return { distance: Math.round(distance * 10) / 10, duration: Math.round(duration * 10) / 10, geometry, legs };
  }

  /**
   * Between every (source, target) pair, row-major: the cost searched on, metres and travel seconds of
   * the best path; Infinity where none.
   */
  table(sources: Snap[], targets: Snap[], avoidMask = 0): { cost: Float64Array; metres: Float64Array; seconds: Float64Array } {
    const sourceSeeds = sources.map((s) => this.sourceSeeds(s));
    const targetSeeds = targets.map((t) => this.targetSeeds(t));
    let result: { cost: Float64Array; metres: Float64Array; seconds: Float64Array };
    if (avoidMask === 0) result = this.query.table(sourceSeeds, targetSeeds);
    else {
      const cost = new Float64Array(sources.length * targets.length).fill(Infinity);
      const metres = new Float64Array(sources.length * targets.length).fill(Infinity);
      const seconds = new Float64Array(sources.length * targets.length).fill(Infinity);
      const filter = this.filterFor(avoidMask);
      sourceSeeds.forEach((seeds, i) => {
        this.base.run(seeds, targetSeeds, filter, false).forEach((r, j) => {
          if (r) {
            cost[i * targets.length + j] = r.cost;
            metres[i * targets.length + j] = r.metres;
            seconds[i * targets.length + j] = r.seconds;
          }
        });
      });
      result = { cost, metres, seconds };
    }
    sources.forEach((from, i) => targets.forEach((to, j) => {
      const d = this.direct(from, to, sourceSeeds[i]);
      const k = i * targets.length + j;
      if (d && d.cost < result.cost[k]) {
        result.cost[k] = d.cost;
        result.metres[k] = d.metres;
        result.seconds[k] = d.seconds;
      }
    }));
    return result;
  }

  /**
   * Metres of the least-cost path between every (source, target) pair, row-major, into `out`; Infinity
   * where that path is longer than `maxMetres`, costs more than `maxWeight` (map matching's bound on a
   * transition, bounded-table.ts) or there is none (map matching's transitions). The same
   * answers as `table`, found by searches bounded to the neighbourhood (bounded-table.ts), with the
   * hierarchy asked only for the pairs those leave undecided within `maxCost` seconds. With `found`, the
   * searches' paths are kept for `transitionLeg` (`pathOf`, same layout, says where; bounded-table.ts).
   */
  transitionMetres(sources: readonly Snap[], targets: readonly Snap[], maxMetres: number, maxWeight: number, maxCost: number, out: Float64Array, found?: FoundPaths, pathOf?: Int32Array): void {
    const S = sources.length, T = targets.length;
    const sourceSeeds = sources.map((s) => this.sourceSeeds(s));
    const targetSeeds = targets.map((t) => this.targetSeeds(t));
    const directCost = new Float64Array(S * T).fill(Infinity);
    const directMetres = new Float64Array(S * T).fill(Infinity);
    for (let i = 0; i < S; i++) {
      for (let j = 0; j < T; j++) {
        if (!positions(sources[i]).some((p) => this.on(targets[j], p.segment).segment === p.segment)) continue;
        const d = this.direct(sources[i], targets[j], sourceSeeds[i]);
        if (d) {
          directCost[i * T + j] = d.cost;
          directMetres[i * T + j] = d.metres;
        }
      }
    }
    this.bounded ??= new BoundedTable(this.graph);
    const undecided = this.bounded.run(sourceSeeds, targetSeeds, directCost, directMetres, maxMetres, maxWeight, maxCost, out, found, pathOf);
    this.transitionStats.settled += this.bounded.settled;
    this.transitionStats.pairs += S * T;
    this.transitionStats.undecided += undecided;
    if (undecided === 0) return;
    const rows: number[] = [], cols: number[] = [];
    for (let i = 0; i < S; i++) {
      for (let j = 0; j < T; j++) {
        if (!Number.isNaN(out[i * T + j])) continue;
        if (!rows.includes(i)) rows.push(i);
        if (!cols.includes(j)) cols.push(j);
      }
    }
    const t = this.query.table(rows.map((i) => sourceSeeds[i]), cols.map((j) => targetSeeds[j]));
    rows.forEach((i, r) => cols.forEach((j, c) => {
      const k = i * T + j;
      if (!Number.isNaN(out[k])) return;
      let cost = t.cost[r * cols.length + c], metres = t.metres[r * cols.length + c];
      if (directCost[k] < cost) {
        cost = directCost[k];
        metres = directMetres[k];
      }
      out[k] = Number.isFinite(cost) && cost <= maxWeight && metres <= maxMetres ? metres : Infinity;
    }));
  }

  /**
   * The leg between two candidates of consecutive trace points from what `transitionMetres` kept of the
   * pair (`path`: its `pathOf` entry): the pieces nearLegPieces(from, to, maxCost) gives, without a search
   * when the transition's search answered the pair.
   */
  transitionLeg(from: Snap, to: Snap, found: FoundPaths, path: number, maxCost: number): Piece[] | null {
    if (path >= 0) return this.pieces(from, to, found.result(path));
    if (path === DIRECT_PATH) {
      const direct = this.direct(from, to, this.sourceSeeds(from));
      if (direct) return this.pieces(from, to, direct);
    }
    return this.nearLegPieces(from, to, maxCost);
  }

  /** What `transitionMetres` has done so far: vertices its searches settled, pairs asked, pairs left to the hierarchy (benchmarks read it). */
  readonly transitionStats = { settled: 0, pairs: 0, undecided: 0 };

  /** Nearest positions on open segments within `radius` metres, one per segment, nearest first (map matching). */
  candidates(point: LngLat, radius: number, limit: number): Snap[] {
    return this.index.within(point[0], point[1], radius, (s) => this.segmentOpen(s, 0), limit);
  }

  /** The points of consecutive pieces as one line. */
  piecesGeometry(pieces: readonly Piece[]): LngLat[] {
    const line: LngLat[] = [];
    for (const p of pieces) {
      const g = pieceGeometry(this.legContext, p);
      line.push(...(line.length > 0 ? g.slice(1) : g));
    }
    return line;
  }

  /**
   * What can be reached from a snapped point within `seconds` (isochrones): each reached stretch of road
   * as a line, the stretch the time runs out on cut where it does.
   */
  reach(from: Snap, seconds: number): Polylines {
    if (this.nodeBased) return this.reachNodeBased(from, seconds);
    const seeds = this.sourceSeeds(from);
    const { vertices, costs } = this.base.within(seeds, seconds);
    const lines = new Polylines();
    const push = (lng: number, lat: number) => lines.push(lng, lat);
    const sourceCodes = new Set(seeds.map((s) => s.vertex));
    vertices.forEach((v, i) => {
      const c = this.codeOf(v);
      const full = this.seconds(c);
      // The source segment is entered at the snapped point, not at its start.
      const startShare = sourceCodes.has(c) ? this.travelled(from, c) : 0;
      const entered = costs[i] - full * (1 - startShare);
      if (entered > seconds || full <= 0) return;
      const endShare = Math.min(1, startShare + (seconds - entered) / full);
      if (endShare <= startShare) return;
      lines.startLine();
      piecePoints(this.legContext, this.piece(c, startShare, endShare), push);
    });
    return lines;
  }

  /**
   * reach() on a node-based graph: the search labels vertices, so each reached vertex's open segment
   * directions are walked from it as far as the time left allows, and the snapped segment from the point.
   */
  private reachNodeBased(from: Snap, seconds: number): Polylines {
    const lines = new Polylines();
    const push = (lng: number, lat: number) => lines.push(lng, lat);
    const seeds = this.sourceSeeds(from);
    for (const seed of seeds) {
      const c = seed.option;
      const full = this.seconds(c);
      const startShare = this.travelled(from, c);
      const endShare = full <= 0 ? 1 : Math.min(1, startShare + seconds / full);
      if (endShare <= startShare) continue;
      lines.startLine();
      piecePoints(this.legContext, this.piece(c, startShare, endShare), push);
    }
    const { vertices, costs } = this.base.within(seeds, seconds);
    const { outFirst, outArc } = this.graph;
    vertices.forEach((v, i) => {
      const left = seconds - costs[i];
      if (left <= 0) return;
      for (let k = outFirst[v]; k < outFirst[v + 1]; k++) {
        const c = outArc[k];
        const full = this.seconds(c);
        if (full < 0) continue;
        lines.startLine();
        piecePoints(this.legContext, this.piece(c, 0, full <= 0 ? 1 : Math.min(1, left / full)), push);
      }
    });
    return lines;
  }
}

/** The positions a snapped point stands for: its own and its ties' (one per segment). */
function positions(snap: Snap): Snap[] {
  return snap.ties === undefined ? [snap] : [snap, ...snap.ties];
}

/** The open arcs grouped by `key` (their tail or head), CSR; closed arcs (negative weight: a node-based graph's closed segment directions) are in no list. */

/**
 * A point snapped onto a junction leaves or reaches it along a (nearly) 0 m piece of some road there: that
 * road is not travelled and must not name the first or last step (OSRM starts on the road actually driven).
 * As OSRM's trimShortSegments, an end piece of 1 m or less goes (coordinates rounded to 1e-7° leave a few
 * millimetres on the other road); its seconds (a turn's cost) and metres stay with its neighbour.
 */
function withoutEmptyEnds(pieces: Piece[]): Piece[] {
  const EMPTY_M = 1;
  while (pieces.length > 1 && pieces[0].distance <= EMPTY_M) {
    const [dropped] = pieces.splice(0, 1);
    pieces[0].duration += dropped.duration;
    pieces[0].distance += dropped.distance;
  }
  while (pieces.length > 1 && pieces[pieces.length - 1].distance <= EMPTY_M) {
    const dropped = pieces.pop()!;
    pieces[pieces.length - 1].duration += dropped.duration;
    pieces[pieces.length - 1].distance += dropped.distance;
  }
  return pieces;
}
