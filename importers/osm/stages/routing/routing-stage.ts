// The routing stage of `waymark data import` (OSRM's extract + contract in one): keeps the ways some
// mode may use with each mode's speeds (profiles/), the turn restrictions and obstacle nodes (traffic
// signals, stop and give-way signs: their seconds go into the segments they lie in, or into the turns
// through the vertex they are, for car and truck), then
// splits ways into segments at shared nodes, marks border crossings, builds each mode's graph and
// contraction hierarchy (core/routing; the modes in parallel, mode-graphs.ts) and writes them
// into the extract's routing/ folder.
import fs from 'node:fs';
import path from 'node:path';
import { bundledCountryAt } from '../../../../adapters/regions/embedded/embedded-regions';
import type { SegmentRestriction } from '../../../../core/routing/mode-graph';
import { TURN_COSTS } from '../../../../core/routing/turn-costs';
import { obstacleFacesTravel, stopBelongsElsewhere, OBSTACLE_MINOR, type VertexObstacles } from '../../../../core/routing/obstacles';
import {
  ROAD_CLASSES, SEGMENT_BORDER, SEGMENT_FERRY, SEGMENT_HIGHWAY, SEGMENT_LINK, SEGMENT_MOTORWAY, SEGMENT_ROUNDABOUT,
  SEGMENT_SIGNALS, SEGMENT_TOLL, type Network,
} from '../../../../core/routing/network';
import type { ImportStage, NodeCoordinates, OsmNode, OsmRelation, OsmTags, OsmWay, StageContext, StageSummary } from '../../stage';
import type { ModeGraphJob } from './mode-graph-job';
import { buildModeGraphs, expectedCostOfSize } from './mode-graphs';
import { describePlan } from './mode-graph-schedule';
import { jobBytes, jobSize } from './mode-graph-memory';
import { writeModeGraph, writeNetwork } from '../../../../core/formats/routing/network-files';
import { MODES, PROFILES } from './profiles/profiles';
import type { RoutingMode } from './profiles/profile';
import { wayClass } from './profiles/profile';
import { WaySpeedsMemo } from './profiles/way-speeds-memo';
import { bikeCandidate } from './profiles/bike';
import { parseMaxspeed } from './profiles/maxspeed';
import { barrierBlocks, barrierSeconds } from './profiles/barriers';
import { readObstacle, type NodeObstacle } from './profiles/obstacles';
import { readRestriction, type TurnRestriction } from './restrictions';
import { placeRestriction, type RestrictionPlaces } from './restriction-segments';
import { TypedList } from './typed-list';
import { closeDuplicateSegments, findParallelSegments } from './duplicate-segments';
import { formatBytes, formatCount, formatDuration, formatRate } from '../../import-progress';
import { collectGarbage } from '../../../../adapters/router/embedded/collect-garbage';

const EARTH_RADIUS_M = 6371008.8;
const RAD = Math.PI / 180;
/** Modes that pay obstacles' seconds (OSRM's car profile; ours truck too; its bicycle and foot profiles do not). */
const OBSTACLE_MODES: ReadonlySet<RoutingMode> = new Set(['car', 'truck']);
const CLASS_INDEX = new Map<string, number>(ROAD_CLASSES.map((c, i) => [c, i]));

function metres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export class RoutingStage implements ImportStage {
  readonly name = 'routing';

  /** `modes`: whose graphs finish() builds: all of them, except in the generated-network benchmark (car). */
  constructor(private readonly modes: readonly RoutingMode[] = MODES) {}

  private readonly restrictions: TurnRestriction[] = [];
  private unsupportedRestrictions = 0;
  private readonly restrictionWays = new Set<number>();
  /** First and last node of each way a restriction names: a via node inside one of them is ambiguous. */
  private readonly restrictionWayEnds = new Map<number, readonly [number, number]>();
  /** Obstacle nodes by OSM id (profiles/obstacles.ts). */
  private readonly obstacles = new Map<number, NodeObstacle>();
  /** Per mode (MODES order): OSM ids of barrier nodes it cannot pass. */
  private readonly barriers = MODES.map(() => new Set<number>());
  private readonly strings = new Map<string, number>([['', 0]]);
  /** The modes' speeds per distinct tag set the profiles read (profiles/way-speeds-memo.ts). */
  private readonly speedsMemo = new WaySpeedsMemo();

  // Per kept way.
  private readonly wayOsmId: number[] = [];
  private wayName = new TypedList(Uint32Array);
  private wayRef = new TypedList(Uint32Array);
  private wayClass = new TypedList(Uint8Array);
  private wayMaxspeed = new TypedList(Uint16Array);
  private wayFlags = new TypedList(Uint8Array);
  private wayLength = new TypedList(Float32Array);
  /**
   * Per mode: forward km/h, backward km/h, ferry seconds (0 none), restricted access (1), no start (1),
   * pushed (bits), and the routability rate per direction in percent (WaySpeeds.forwardRate), per way.
   */
  private waySpeed = MODES.map(() => ({
    fwd: new TypedList(Float32Array), bwd: new TypedList(Float32Array), ferry: new TypedList(Float32Array), restricted: new TypedList(Uint8Array),
    noStart: new TypedList(Uint8Array), pushed: new TypedList(Uint8Array), rateFwd: new TypedList(Uint8Array), rateBwd: new TypedList(Uint8Array),
  }));
  // Pieces: runs of a way's nodes present in the extract.
  private pieceWay = new TypedList(Uint32Array);
  private pieceStart = new TypedList(Uint32Array);
  private pieceNodes = new TypedList(Int32Array);
  private useCount: Uint8Array | null = null;
  private readonly scratch: number[] = [];

  relation(r: OsmRelation): void {
    const outcome = readRestriction(r);
    if (outcome === 'not-a-restriction') return;
    if (outcome === 'unsupported') {
      this.unsupportedRestrictions++;
      return;
    }
    this.restrictions.push(outcome);
    for (const w of [...outcome.fromWays, ...outcome.viaWays, ...outcome.toWays]) this.restrictionWays.add(w);
  }

  node(n: OsmNode): void {
    if (n.tags === null) return;
    const obstacle = withGate(readObstacle(n.tags), barrierSeconds(PROFILES.car, 'car', n.tags));
    if (obstacle !== null) this.obstacles.set(n.id, obstacle);
    // A node closes a mode's way by its barrier or by its own access tags (OSRM's process_node).
    MODES.forEach((mode, m) => {
      if (barrierBlocks(PROFILES[mode], mode, n.tags!)) this.barriers[m].add(n.id);
    });
  }

  private string(s: string | undefined): number {
    if (s === undefined) return 0;
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.strings.size;
      this.strings.set(s, i);
    }
    return i;
  }

  way(way: OsmWay, nodes: NodeCoordinates): void {
    const tags = way.tags;
    // Bikes also take railways open to them (trains, `bicycle=yes` on any railway) and movable bridges without a `highway`.
    if (wayClass(tags) === undefined && tags.route !== 'ferry' && tags.route !== 'shuttle_train' && !bikeCandidate(tags)) return;
    if (this.restrictionWays.has(way.id)) this.restrictionWayEnds.set(way.id, [way.refs[0], way.refs[way.refs.length - 1]]);
    const idx = this.scratch;
    idx.length = 0;
    for (let i = 0; i < way.refs.length; i++) idx.push(nodes.indexOf(way.refs[i]));
    let length = 0;
    for (let i = 1; i < idx.length; i++) {
      if (idx[i] >= 0 && idx[i - 1] >= 0) length += metres(nodes.lonAt(idx[i - 1]), nodes.latAt(idx[i - 1]), nodes.lonAt(idx[i]), nodes.latAt(idx[i]));
    }
    const speeds = this.speedsMemo.speeds(tags, length);
    if (speeds.every((s) => s === null)) return;

    const w = this.wayOsmId.length;
    this.wayOsmId.push(way.id);
    this.wayName.push(this.string(wayName(tags)));
    this.wayRef.push(this.string(tags.ref));
    const ferry = tags.route === 'ferry' || tags.route === 'shuttle_train';
    const highway = ferry ? 'ferry' : wayClass(tags) ?? 'other';
    this.wayClass.push(CLASS_INDEX.get(highway) ?? 0);
    this.wayMaxspeed.push(Math.round(parseMaxspeed(tags.maxspeed) ?? 0));
    let flags = 0;
    if (tags.toll === 'yes' || tags.toll === 'true') flags |= SEGMENT_TOLL;
    if (/^(motorway|trunk)(_link)?$/.test(highway)) flags |= SEGMENT_HIGHWAY;
    if (/^motorway(_link)?$/.test(highway)) flags |= SEGMENT_MOTORWAY;
    if (ferry) flags |= SEGMENT_FERRY;
    if (tags.junction === 'roundabout' || tags.junction === 'circular') flags |= SEGMENT_ROUNDABOUT;
    if (highway.endsWith('_link')) flags |= SEGMENT_LINK;
    this.wayFlags.push(flags);
    this.wayLength.push(length);
    speeds.forEach((s, m) => {
      this.waySpeed[m].fwd.push(s?.forwardKph ?? 0);
      this.waySpeed[m].bwd.push(s?.backwardKph ?? 0);
      this.waySpeed[m].ferry.push(s?.durationSeconds ?? 0);
      this.waySpeed[m].restricted.push(s?.restricted ? 1 : 0);
      this.waySpeed[m].noStart.push(s?.startpoint === false ? 1 : 0);
      this.waySpeed[m].pushed.push((s?.pushing?.forward ? 1 : 0) | (s?.pushing?.backward ? 2 : 0) | (s?.train ? 4 : 0));
      this.waySpeed[m].rateFwd.push(Math.round((s?.forwardRate ?? 1) * 100));
      this.waySpeed[m].rateBwd.push(Math.round((s?.backwardRate ?? 1) * 100));
    });

    const use = (this.useCount ??= new Uint8Array(nodes.size));
    let runStart = -1;
    for (let i = 0; i <= idx.length; i++) {
      const present = i < idx.length && idx[i] >= 0;
      if (present && runStart < 0) runStart = i;
      if (!present && runStart >= 0) {
        if (i - runStart >= 2) {
          this.pieceWay.push(w);
          this.pieceStart.push(this.pieceNodes.length);
          for (let k = runStart; k < i; k++) {
            const n = idx[k];
            this.pieceNodes.push(n);
            // Ends of a piece are vertices; so is any node two pieces share.
            const add = k === runStart || k === i - 1 ? 2 : 1;
            use[n] = Math.min(255, use[n] + add);
          }
        }
        runStart = -1;
      }
    }
  }

  async finish(ctx: StageContext): Promise<StageSummary> {
    const { network, jobs, vertices, applied } = this.prepare(ctx);
    // The contractions read none of the node index (prepare made the network of it), and what the
    // reading and the earlier stages left is garbage: both go before the building measures what the
    // process holds beside its graphs (the budget's base, mode-graphs.ts).
    ctx.releaseNodes();
    collectGarbage();
    return this.buildGraphs(ctx, network, jobs, vertices, applied);
  }

  /**
   * The network and each mode's job, from what the reading kept; the reading's tables go afterwards (and
   * this function's per-node arrays with its frame), so the contractions do not run beside them.
   */
  private prepare(ctx: StageContext): { network: Network; jobs: ModeGraphJob[]; vertices: number; applied: number } {
    const nodes = ctx.nodes;
    const use = this.useCount ?? new Uint8Array(0);
    const pieceCount = this.pieceWay.length;
    this.pieceStart.push(this.pieceNodes.length);

    // An obstacle node is a vertex: a route passing it pays it whole and one starting or ending beside
    // it only when it passes it, as OSRM charges a node's penalty on the turn through the node.
    for (const id of this.obstacles.keys()) {
      const i = nodes.indexOf(id);
      if (i >= 0 && i < use.length && use[i] > 0) use[i] = Math.max(use[i], 2);
    }
    // So is a barrier node: OSRM keeps barrier nodes out of its graph compression and lets a vehicle turn
    // back at one, so the road up to a barrier inside a way is reached from either side (a route may start
    // or end there) while nothing passes it (mode graph: only the u-turn at a blocked vertex; a walker's
    // node-based graph splits it into dead ends).
    for (const ids of this.barriers) {
      for (const id of ids) {
        const i = nodes.indexOf(id);
        if (i >= 0 && i < use.length && use[i] > 0) use[i] = Math.max(use[i], 2);
      }
    }
    // Vertices.
    const vertexOf = new Int32Array(use.length).fill(-1);
    const vertexNode: number[] = [];
    for (let i = 0; i < this.pieceNodes.length; i++) {
      const n = this.pieceNodes.get(i);
      if (use[n] >= 2 && vertexOf[n] < 0) {
        vertexOf[n] = vertexNode.length;
        vertexNode.push(n);
      }
    }
    // Bit m set: mode m cannot pass the node.
    const blocked = new Uint8Array(use.length);
    this.barriers.forEach((ids, m) => {
      for (const id of ids) {
        const i = nodes.indexOf(id);
        if (i >= 0 && i < blocked.length) blocked[i] |= 1 << m;
      }
    });
    // Obstacles by node index; traffic signals also flag the segments they are on (SEGMENT_SIGNALS).
    const obstacleAt = new Map<number, NodeObstacle>();
    const signalIndex = new Uint8Array(use.length);
    for (const [id, obstacle] of this.obstacles) {
      const i = nodes.indexOf(id);
      if (i < 0 || i >= use.length) continue;
      obstacleAt.set(i, obstacle);
      if (obstacle.signal) signalIndex[i] = 1;
    }

    // Segments.
    const pointLon = new TypedList(Int32Array);
    const pointLat = new TypedList(Int32Array);
    const segmentStart = new TypedList(Uint32Array);
    const segmentFrom = new TypedList(Uint32Array);
    const segmentTo = new TypedList(Uint32Array);
    const segmentLength = new TypedList(Float32Array);
    const segmentFlags = new TypedList(Uint8Array);
    const segmentWay = new TypedList(Uint32Array);
    const segmentSeconds = MODES.map(() => ({ fwd: new TypedList(Float32Array), bwd: new TypedList(Float32Array) }));
    const vertexPoint = new Uint32Array(vertexNode.length).fill(0xffffffff);
    const waySegments = new Map<number, number[]>();
    const inside: InsideObstacle[] = [];

    for (let p = 0; p < pieceCount; p++) {
      const w = this.pieceWay.get(p);
      const from = this.pieceStart.get(p);
      const to = this.pieceStart.get(p + 1);
      let segFirstNode = from;
      for (let k = from + 1; k < to; k++) {
        const n = this.pieceNodes.get(k);
        if (vertexOf[n] < 0) continue;
        // Segment from node segFirstNode … k.
        const s = segmentFrom.length;
        segmentStart.push(pointLon.length);
        let length = 0;
        let signal = false;
        inside.length = 0;
        for (let q = segFirstNode; q <= k; q++) {
          const node = this.pieceNodes.get(q);
          const lon = nodes.lonAt(node);
          const lat = nodes.latAt(node);
          if (q > segFirstNode) {
            const prev = this.pieceNodes.get(q - 1);
            length += metres(nodes.lonAt(prev), nodes.latAt(prev), lon, lat);
            if (signalIndex[node]) signal = true;
          }
          // Obstacles at the segment's ends are the vertices' (turns); those between are the segment's.
          if (q > segFirstNode && q < k) {
            const obstacle = obstacleAt.get(node);
            if (obstacle !== undefined) inside.push({ obstacle, along: length });
          }
          const v = vertexOf[node];
          if ((q === segFirstNode || q === k) && v >= 0 && vertexPoint[v] === 0xffffffff) vertexPoint[v] = pointLon.length;
          pointLon.push(Math.round(lon * 1e7));
          pointLat.push(Math.round(lat * 1e7));
        }
        segmentFrom.push(vertexOf[this.pieceNodes.get(segFirstNode)]);
        segmentTo.push(vertexOf[n]);
        segmentLength.push(length);
        segmentFlags.push(this.wayFlags.get(w) | (signal ? SEGMENT_SIGNALS : 0));
        segmentWay.push(w);
        const wayLength = this.wayLength.get(w);
        const obstacleForward = insideObstacleSeconds(inside, length, true);
        const obstacleBackward = insideObstacleSeconds(inside, length, false);
        MODES.forEach((mode, m) => {
          const sp = this.waySpeed[m];
          const ferrySeconds = sp.ferry.get(w);
          const obstacles = OBSTACLE_MODES.has(mode);
          const seconds = (kph: number, extra: number) => {
            if (kph <= 0) return -1;
            if (ferrySeconds > 0 && wayLength > 0) return (ferrySeconds * length) / wayLength;
            return length / (kph / 3.6) + (obstacles ? extra : 0);
          };
          segmentSeconds[m].fwd.push(seconds(sp.fwd.get(w), obstacleForward));
          segmentSeconds[m].bwd.push(seconds(sp.bwd.get(w), obstacleBackward));
        });
        const osmId = this.wayOsmId[w];
        if (this.restrictionWays.has(osmId)) {
          let list = waySegments.get(osmId);
          if (!list) waySegments.set(osmId, (list = []));
          list.push(s);
        }
        segFirstNode = k;
      }
      if (p % 4096 === 0) ctx.progress('cutting ways into road segments', p, pieceCount);
    }
    segmentStart.push(pointLon.length);

    const strings = [...this.strings.keys()];
    // In SharedArrayBuffers, so that the mode graphs' worker threads share these arrays rather than each
    // copying them (mode-graphs.ts); the flags, which the border marking below writes while the workers
    // read them, are each worker's own copy (a byte a segment).
    const network: Network = {
      pointLon: pointLon.toShared(), pointLat: pointLat.toShared(),
      segmentStart: segmentStart.toShared(), segmentFrom: segmentFrom.toShared(), segmentTo: segmentTo.toShared(),
      segmentLength: segmentLength.toShared(), segmentFlags: segmentFlags.toArray(), segmentWay: segmentWay.toShared(),
      wayName: this.wayName.toShared(), wayRef: this.wayRef.toShared(), wayClass: this.wayClass.toShared(), wayMaxspeed: this.wayMaxspeed.toShared(),
      wayOsmId: shared(Float64Array.from(this.wayOsmId)),
      strings, vertexPoint: shared(vertexPoint),
    };
    const vertexObstacles = obstaclesAtVertices(vertexNode, obstacleAt);
    let applied = 0;
    const places: RestrictionPlaces = {
      network,
      vertexOfNode: (id) => {
        const i = nodes.indexOf(id);
        return i >= 0 && i < vertexOf.length ? vertexOf[i] : -1;
      },
      wayEnds: (way) => this.restrictionWayEnds.get(way),
      waySegments: (way) => waySegments.get(way) ?? [],
    };
    // Each mode's preparation reports between its parts, so the phase is never silent for long.
    const preparing = (m: number, part: string): void => ctx.progress('preparing the road graph of each mode', m, MODES.length, `${MODES[m]}: ${part}`);
    preparing(0, 'finding parallel segments');
    const parallel = findParallelSegments(network);
    const jobs: ModeGraphJob[] = MODES.flatMap((mode, m) => {
      if (!this.modes.includes(mode)) return [];
      preparing(m, 'placing turn restrictions');
      const restrictions: SegmentRestriction[] = [];
      for (const r of this.restrictions) {
        if (!r.modes.includes(mode)) continue;
        const placed = placeRestriction(r, places);
        if (placed !== null) restrictions.push(placed);
      }
      preparing(m, 'access of each segment');
      const wayRestricted = this.waySpeed[m].restricted;
      const restricted = Uint8Array.from(network.segmentWay, (w) => wayRestricted.get(w));
      const wayNoStart = this.waySpeed[m].noStart;
      const noStart = Uint8Array.from(network.segmentWay, (w) => wayNoStart.get(w));
      const wayPushed = this.waySpeed[m].pushed;
      const pushed = Uint8Array.from(network.segmentWay, (w) => wayPushed.get(w));
      const ratePercent = codeRates(network.segmentWay, this.waySpeed[m].rateFwd, this.waySpeed[m].rateBwd);
      const blockedVertices: number[] = [];
      for (let v = 0; v < vertexNode.length; v++) if (blocked[vertexNode[v]] & (1 << m)) blockedVertices.push(v);
      if (mode === 'car') applied = restrictions.length;
      const segmentForward = segmentSeconds[m].fwd.toArray();
      const segmentBackward = segmentSeconds[m].bwd.toArray();
      preparing(m, 'closing parallel segments');
      closeDuplicateSegments(network, segmentForward, segmentBackward, parallel);
      return [{
        id: m, segmentForward, segmentBackward,
        restrictions, turnCosts: TURN_COSTS[mode], blockedVertices, restricted, noStart, pushed, ratePercent,
        obstacles: OBSTACLE_MODES.has(mode) ? vertexObstacles : null, contractionSpillDir: null,
        // Truck's roads and turns are car's, give or take access: car's order serves it (mode-graphs.ts).
        orderFrom: mode === 'truck' ? MODES.indexOf('car') : null,
      }];
    });
    this.release();
    return { network, jobs, vertices: vertexNode.length, applied };
  }

  /** Lets the reading's tables go once the network and the jobs are made of them. */
  private release(): void {
    this.pieceWay = new TypedList(Uint32Array, 0);
    this.pieceStart = new TypedList(Uint32Array, 0);
    this.pieceNodes = new TypedList(Int32Array, 0);
    this.useCount = null;
    this.waySpeed = [];
    this.obstacles.clear();
    for (const b of this.barriers) b.clear();
    this.wayOsmId.length = 0;
    this.restrictions.length = 0;
    this.restrictionWays.clear();
    this.restrictionWayEnds.clear();
    this.strings.clear();
    this.wayName = new TypedList(Uint32Array, 0);
    this.wayRef = new TypedList(Uint32Array, 0);
    this.wayClass = new TypedList(Uint8Array, 0);
    this.wayMaxspeed = new TypedList(Uint16Array, 0);
    this.wayFlags = new TypedList(Uint8Array, 0);
    this.wayLength = new TypedList(Float32Array, 0);
  }

  private async buildGraphs(ctx: StageContext, network: Network, jobs: ModeGraphJob[], vertices: number, applied: number): Promise<StageSummary> {
    // The workers start now and share the network's arrays; border flags (which no mode graph reads)
    // and the network file are done meanwhile. Each mode's file is written as soon as its graph is built.
    const budget = ctx.memoryBudgetBytes;
    const spillDir = budget === undefined ? null : fs.mkdtempSync(path.join(ctx.dir, '.spill-'));
    for (const job of jobs) job.contractionSpillDir = spillDir;
    const progress = new ModeGraphsProgress(jobs.map((j) => MODES[j.id]), network.segmentFrom.length * 2);
    const report = (): void => ctx.progress('building and contracting the road graph of each mode', progress.done, progress.total, progress.describe());
    // Each job's estimate, made before the building: a job's arrays go to its worker (mode-graphs.ts).
    const sizes = new Map(jobs.map((j) => [j.id, jobSize(network, j)]));
    const expected = new Map(jobs.map((j) => [j.id, jobBytes(sizes.get(j.id)!)]));
    const held = heldAtBuilding(network, jobs);
    ctx.progress('building and contracting the road graph of each mode', 0, progress.total, describeHeld(held));
    let bytes = 0;
    let plan: string | undefined;
    const figures = new Map<number, StageSummary>();
    const building = buildModeGraphs(network, jobs, (m, step, done, total, shortcuts) => {
      progress.update(MODES[m], step, done, total, shortcuts);
      report();
    }, (job, graph, seconds, peakBytes, peakAt) => {
      const mode = MODES[job.id];
      // Its tables derived and its file written on this thread, while the other workers' reports wait:
      // the progress goes on from here (19 s without a line at ×20×20 before).
      progress.update(mode, 'writing', 0, 1);
      bytes += writeModeGraph(ctx.dir, mode, graph, network, report);
      // A node-based graph (foot) has arcs along roads, not turns: its summary says so.
      let shortcuts = 0;
      for (const a of graph.hierarchy.childA) if (a >= 0) shortcuts++;
      figures.set(job.id, {
        [graph.kind === 'node' ? `${mode} road arcs (node-based)` : `${mode} turns`]: graph.kind === 'node' ? graph.arcWeight.filter((w) => w >= 0).length : graph.arcTail.length,
        [`${mode} shortcuts`]: shortcuts,
        [`${mode} seconds`]: Math.round(seconds * 10) / 10,
        // Its worker's own memory at the most (0 when built on the stage's thread), beside the estimate
        // the stage started it on (mode-graph-memory.ts).
        [`${mode} worker MiB`]: Math.round(peakBytes / 2 ** 20),
        [`${mode} expected MiB`]: Math.round(expected.get(job.id)! / 2 ** 20),
        ...(peakAt === undefined ? {} : { [`${mode} worker peak at`]: peakAt }),
      });
      progress.update(mode, 'done', 1, 1);
      report();
    }, {
      memory: budget === undefined ? undefined : { budgetBytes: budget, jobBytes: (job, threads) => jobBytes(sizes.get(job.id)!, threads) },
      signal: ctx.signal,
      cost: (job) => expectedCostOfSize(sizes.get(job.id)!, job.orderFrom != null),
      onPlan: (p) => {
        // Which modes run side by side is most of the stage's wall at ×20×20: say it before it starts.
        plan = `${describePlan(p, (id) => MODES[id])}; expected wall ${Math.round((p.wall / Math.max(p.serial, 1e-9)) * 100)} % of one after another`;
        ctx.progress('planning which modes are built side by side', 0, undefined, plan);
      },
    });
    let borders: number;
    try {
      // The first lookup loads the bundled country boundaries (seconds on a busy machine): say so first.
      ctx.progress('loading country boundaries, then marking roads that cross a border', 0);
      borders = markBorderCrossings(network, (done, total) => ctx.progress('marking roads that cross a border', done, total));
      ctx.progress('writing the network file', 0);
      bytes += writeNetwork(ctx.dir, network);
    } catch (err) {
      await building.catch(() => undefined);
      throw err;
    }
    const summary: StageSummary = {
      vertices, segments: network.segmentFrom.length, 'border segments': borders,
      // What the importing thread held when the graphs began (the budget's base), by part.
      'MiB held at building': mib(held.rss), 'heap MiB at building': mib(held.heapUsed), 'network MiB': mib(held.network),
      'mode inputs MiB': mib(held.jobs),
    };
    try {
      summary['graph threads'] = await building;
      if (plan !== undefined) summary['graph plan'] = plan;
    } finally {
      if (spillDir !== null) fs.rmSync(spillDir, { recursive: true, force: true });
    }
    for (const job of jobs) Object.assign(summary, figures.get(job.id));
    summary['turn restrictions'] = applied;
    if (this.unsupportedRestrictions > 0) summary['restrictions not understood'] = this.unsupportedRestrictions;
    summary.bytes = bytes;
    return summary;
  }
}

/**
 * The name steps call a way by: its `name`, else for an unnamed sidewalk or sidepath the street it runs
 * beside (`is_sidepath:of:name`, `street:name`), as OSRM's name handler does.
 */
function wayName(tags: OsmTags): string | undefined {
  if (tags.name !== undefined) return tags.name;
  const beside = tags['is_sidepath:of:name'] ?? tags['street:name'];
  if (beside === undefined || !['footway', 'cycleway', 'path'].includes(tags.highway ?? '')) return undefined;
  return tags.footway === 'sidewalk' || tags.cycleway === 'sidepath' || tags.is_sidepath === 'yes' ? beside : undefined;
}

/** Per segment direction (code), the way's routability rate in percent; null when every one is 100 (no penalty). */
function codeRates(segmentWay: Uint32Array, rateFwd: TypedList<Uint8Array>, rateBwd: TypedList<Uint8Array>): Uint8Array | null {
  const rates = new Uint8Array(segmentWay.length * 2);
  let any = false;
  segmentWay.forEach((w, s) => {
    rates[2 * s] = rateFwd.get(w);
    rates[2 * s + 1] = rateBwd.get(w);
    any ||= rates[2 * s] !== 100 || rates[2 * s + 1] !== 100;
  });
  return any ? rates : null;
}

/** A gate's seconds (profiles/barriers.ts) joined to the node's other obstacle, for car and truck alike. */
function withGate(obstacle: NodeObstacle | null, gateSeconds: number): NodeObstacle | null {
  if (gateSeconds <= 0) return obstacle;
  if (obstacle === null) return { seconds: gateSeconds, kind: 0, signal: false };
  return { ...obstacle, seconds: obstacle.seconds + gateSeconds };
}

interface InsideObstacle {
  obstacle: NodeObstacle;
  /** Metres from the segment's first point. */
  along: number;
}

/**
 * Seconds the obstacles between a segment's ends cost travel along it (`forward`) or against it. Two
 * roads meet there, the one behind and the one ahead: a stop sign without a direction binds only travel
 * towards the intersection it stands near, and `stop=minor` never binds (both sides are the same road).
 */
function insideObstacleSeconds(inside: readonly InsideObstacle[], length: number, forward: boolean): number {
  let seconds = 0;
  for (const { obstacle, along } of inside) {
    const behind = forward ? along : length - along;
    if (!obstacleFacesTravel(obstacle.kind, forward)) continue;
    if ((obstacle.kind & OBSTACLE_MINOR) !== 0) continue;
    if (stopBelongsElsewhere(obstacle.kind, 2, behind, length - behind)) continue;
    seconds += obstacle.seconds;
  }
  return seconds;
}

/** A copy of `a` in a SharedArrayBuffer (see the network's arrays). */
function shared<T extends Uint32Array | Float64Array>(a: T): T {
  const out = new (a.constructor as { new (buffer: SharedArrayBuffer): T })(new SharedArrayBuffer(a.byteLength));
  out.set(a as never);
  return out;
}

/** The obstacles standing on vertices, for the mode graphs' turns. */
function obstaclesAtVertices(vertexNode: readonly number[], obstacleAt: ReadonlyMap<number, NodeObstacle>): VertexObstacles {
  const vertex: number[] = [];
  const seconds: number[] = [];
  const kind: number[] = [];
  vertexNode.forEach((node, v) => {
    const obstacle = obstacleAt.get(node);
    if (obstacle === undefined) return;
    vertex.push(v);
    seconds.push(obstacle.seconds);
    kind.push(obstacle.kind);
  });
  return { vertex: Uint32Array.from(vertex), seconds: Float32Array.from(seconds), kind: Uint8Array.from(kind) };
}

/** The state of each mode's graph in words, and the contraction's overall count, for the progress line. */
class ModeGraphsProgress {
  private readonly state = new Map<string, ModeState>();

  constructor(private readonly modes: readonly string[], private readonly perMode: number) {
    for (const m of modes) this.state.set(m, { step: 'waiting', done: 0, total: perMode, shortcuts: 0, rate: new RecentRate() });
  }

  update(mode: string, step: string, done: number, total?: number, shortcuts?: number): void {
    const s = this.state.get(mode)!;
    if (step !== s.step) s.rate = new RecentRate();
    s.step = step;
    s.done = done;
    s.total = total ?? this.perMode;
    if (shortcuts !== undefined) s.shortcuts = shortcuts;
    s.rate.sample(done);
  }

  /** Vertices contracted over all modes (a finished mode counts whole). */
  get done(): number {
    let done = 0;
    for (const s of this.state.values()) done += s.step === 'done' || s.step === 'assembling' || s.step === 'writing' ? this.perMode : s.step === 'contraction' ? s.done : 0;
    return done;
  }

  get total(): number {
    return this.perMode * this.modes.length;
  }

  describe(): string {
    const words: Record<string, string> = {
      waiting: 'waiting', turns: 'building its turns', components: 'finding its connected roads', ordering: 'ordering its vertices', done: 'done',
      writing: 'deriving its tables and writing its file',
    };
    const share = (s: ModeState) => `${Math.floor((s.done / Math.max(1, s.total)) * 100)}%`;
    return this.modes.map((m) => {
      const s = this.state.get(m)!;
      const perSecond = s.rate.perSecond();
      if (s.step === 'contraction') {
        // The last vertices of a contraction take longest: the time left is from the recent rate, a lower bound.
        const rate = perSecond > 0 ? `, ${formatRate(perSecond)}, about ${formatDuration((s.total - s.done) / perSecond)} left at that rate` : '';
        return `${m} ${share(s)} contracted (${formatCount(s.done)} of ${formatCount(s.total)} vertices, ${formatCount(s.shortcuts)} shortcuts${rate})`;
      }
      if (s.step === 'ordering') return `${m} ordering its vertices ${share(s)}${perSecond > 0 ? ` (${formatRate(perSecond)})` : ''}`;
      if (s.step === 'assembling') return `${m} assembling its hierarchy ${share(s)} (${formatCount(s.shortcuts)} shortcuts)`;
      if (s.step === 'turns') return `${m} building its turns ${share(s)}`;
      return `${m} ${words[s.step] ?? s.step}`;
    }).join(', ');
  }
}

interface ModeState {
  step: string;
  done: number;
  total: number;
  shortcuts: number;
  rate: RecentRate;
}

/** Items a second over the last half minute or more (a contraction slows as it goes: its rate since the start says too little). */
class RecentRate {
  private readonly started = Date.now();
  private older = { at: this.started, done: 0 };
  private newer = { at: this.started, done: 0 };
  private last = { at: this.started, done: 0 };

  sample(done: number): void {
    const at = Date.now();
    this.last = { at, done };
    if (at - this.newer.at >= RATE_WINDOW_MS) {
      this.older = this.newer;
      this.newer = { at, done };
    }
  }

  perSecond(): number {
    const seconds = (this.last.at - this.older.at) / 1000;
    return seconds > 0 ? (this.last.done - this.older.done) / seconds : 0;
  }
}

const RATE_WINDOW_MS = 30_000;

/** Flags segments whose two ends lie in different countries (bundled boundaries); returns how many. */
function markBorderCrossings(n: Network, onProgress: (done: number, total: number) => void): number {
  const country = new Array<string | undefined>(n.vertexPoint.length);
  const countryOf = (v: number): string | undefined => {
    if (country[v] === undefined) {
      const p = n.vertexPoint[v];
      country[v] = bundledCountryAt([n.pointLon[p] / 1e7, n.pointLat[p] / 1e7])?.code ?? '';
    }
    return country[v];
  };
  let count = 0;
  for (let s = 0; s < n.segmentFrom.length; s++) {
    const a = countryOf(n.segmentFrom[s]);
    const b = countryOf(n.segmentTo[s]);
    if (a && b && a !== b) {
      n.segmentFlags[s] |= SEGMENT_BORDER;
      count++;
    }
    if ((s & 16383) === 0) onProgress(s, n.segmentFrom.length);
  }
  return count;
}

/** What the importing thread holds when the mode graphs start, by part (bytes). */
interface HeldAtBuilding {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  arrayBuffers: number;
  /** The network's arrays (shared with the workers, counted once: here). */
  network: number;
  /** The jobs' own arrays (speeds, access, rates), each handed to its worker when it starts. */
  jobs: number;
}

function heldAtBuilding(network: Network, jobs: readonly ModeGraphJob[]): HeldAtBuilding {
  const m = process.memoryUsage();
  let networkBytes = 0;
  for (const value of Object.values(network)) if (ArrayBuffer.isView(value)) networkBytes += value.byteLength;
  let jobBytesHeld = 0;
  for (const job of jobs) {
    for (const value of Object.values(job)) if (ArrayBuffer.isView(value)) jobBytesHeld += value.byteLength;
  }
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, arrayBuffers: m.arrayBuffers, network: networkBytes, jobs: jobBytesHeld };
}

function describeHeld(h: HeldAtBuilding): string {
  return `starting; the importing thread holds ${formatBytes(h.rss)} (JS heap ${formatBytes(h.heapUsed)} of ${formatBytes(h.heapTotal)}, `
    + `array buffers ${formatBytes(h.arrayBuffers)}: the network ${formatBytes(h.network)}, the modes' inputs ${formatBytes(h.jobs)})`;
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
