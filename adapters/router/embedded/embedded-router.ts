// The embedded Router: answers from the road networks of every imported extract (the routing stage's
// files), reloaded when the extract catalog changes. Of the extracts that have every point within
// SNAP_RADIUS_M of a road open to the mode, the one whose roads lie nearest the points answers
// (extract-choice.ts); when none does, the first point no extract reaches is named in an OutsideNetwork
// error. Matching takes the extract nearest most of the trace's points.
//
// Networks are read in the background (network-loader.ts openNetwork: large reads that do not block the
// thread), so the gateway listens at once on a region of gigabytes. A request near an extract still being
// read, or needing a mode whose graph is being read, waits for it up to loadWaitMs, then fails with
// RouterLoading (a 503 with Retry-After); readiness says what is being read (loading()).
import {
  OutsideNetwork, RouterLoading, type AvoidOption, type IsochroneRequest, type MatchRequest, type MatchResult, type Eta, type LngLat, type RouteRequest, type RouteResult, type Router, type RouterMode,
  type RouterSource, type TableRequest, type TableResult,
} from '../../../ports/router';
import { reachPolygon } from '../../../core/isochrone/reach-polygon';
import type { ModeRouter } from '../../../core/routing/mode-router';
import { defaultMatcherParams, matchOnNetwork } from '../../../core/routing/trace-match';
import { SEGMENT_BORDER, SEGMENT_FERRY, SEGMENT_HIGHWAY, SEGMENT_TOLL } from '../../../core/routing/network';
import type { Snap } from '../../../core/routing/segment-index';
import type { ExtractCatalog, LoadedExtract } from '../../extracts/extract-catalog';
import { bestFit, fitOf } from './extract-choice';
import { collectGarbage } from './collect-garbage';
import { openNetwork, type LoadedNetwork } from './network-loader';

/**
 * Every point is near a road, but the network joins none of the ways between them: the error names the
 * pair, not a point, and says that no route connects them (not that a point is off the network).
 */
export class NoRouteBetween extends OutsideNetwork {}

/** How far a point may lie from the nearest road open to the mode, metres (every mode). */
export const SNAP_RADIUS_M = 1000;

/** Points farther than this from an extract's roads do not count for it when choosing where to match (the matcher's own widest search). */
const MATCH_FIT_RADIUS_M = 200;

/** Margin around an extract's bounding box inside which its roads are looked for, degrees. */
const BOX_MARGIN_DEG = 0.02;

function nearBox(n: LoadedNetwork, p: LngLat): boolean {
  return inBox(n.bbox, p);
}

function inBox([w, s, e, no]: [number, number, number, number], [x, y]: LngLat): boolean {
  return x >= w - BOX_MARGIN_DEG && x <= e + BOX_MARGIN_DEG && y >= s - BOX_MARGIN_DEG && y <= no + BOX_MARGIN_DEG;
}

/** Top speeds (km/h) of the profiles: what `reach` multiplies, an upper bound on straight-line progress. */
const TOP_KPH: Record<RouterMode, number> = { car: 140, truck: 80, bike: 25, foot: 5 };

const AVOID_BITS: Record<AvoidOption, number> = { tolls: SEGMENT_TOLL, highways: SEGMENT_HIGHWAY, ferries: SEGMENT_FERRY, borderCrossings: SEGMENT_BORDER };

export function avoidMask(avoid: readonly AvoidOption[] | undefined): number {
  let mask = 0;
  for (const a of avoid ?? []) mask |= AVOID_BITS[a] ?? 0;
  return mask;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

export interface EmbeddedRouterOptions {
  /**
   * How long a request waits for the network or mode it needs while that is being read, ms; past it the
   * request fails with RouterLoading (a 503 with Retry-After). Default LOAD_WAIT_MS.
   */
  loadWaitMs?: number;
}

/** A request's wait for a network being read, by default: most loads end within it, so few callers ever see a 503. */
export const LOAD_WAIT_MS = 5000;

/** Retry-After of a request that waited in vain for a network being read, seconds. */
const LOADING_RETRY_S = 2;

/** An extract listed by the catalog with no network of its serving yet: requests near its box wait for it. */
interface Opening {
  bbox: [number, number, number, number];
  done: Promise<void>;
  finish(): void;
}

interface Located {
  router: ModeRouter;
  snaps: Snap[];
  candidates: Snap[][];
}

export class EmbeddedRouter implements Router {
  readonly name = 'embedded';
  /** The networks that answer, in the catalog's order. */
  private networks: LoadedNetwork[] = [];
  /** Extracts whose first network is being read, by name. */
  private readonly opening = new Map<string, Opening>();
  /** What is being read now, one phrase each (readiness, operators). */
  private readonly reading = new Set<string>();
  /** The extracts the catalog listed last: what the loading job works towards. */
  private wanted: readonly LoadedExtract[] = [];
  /** The loading job: one at a time, each working towards `wanted` as it is when it starts. */
  private job: Promise<void> = Promise.resolve();
  private jobQueued = false;
  private readonly loadWaitMs: number;
  /** Extracts whose routing files failed to load, with why; for operators. */
  problems: Record<string, string> = {};

  constructor(private readonly catalog: ExtractCatalog, options: EmbeddedRouterOptions = {}) {
    this.loadWaitMs = options.loadWaitMs ?? LOAD_WAIT_MS;
    catalog.subscribe((extracts) => this.load(extracts));
    this.load(catalog.current());
  }

  /**
   * Starts reading what the catalog lists, in the background: nothing here blocks on a file. An extract
   * with no network serving yet is marked as opening at once, so a request near it waits for it rather
   * than getting the straight-line estimate.
   */
  private load(extracts: readonly LoadedExtract[]): void {
    this.wanted = extracts;
    for (const e of extracts) {
      if (this.networks.some((n) => n.extract === e.name) || this.opening.has(e.name)) continue;
      let finish = (): void => undefined;
      const done = new Promise<void>((resolve) => (finish = resolve));
      this.opening.set(e.name, { bbox: e.manifest.bbox, done, finish });
    }
    if (this.jobQueued) return;
    this.jobQueued = true;
    this.job = this.job.then(() => {
      this.jobQueued = false;
      return this.reconcile(this.wanted);
    });
  }

  /**
   * Brings the served networks to the listed extracts, one extract at a time. A re-imported extract's
   * new network (geometry and index) is read beside the old one, which answers meanwhile; then the old
   * one is let go with all its modes and its memory collected, and the modes it had read are read anew
   * one by one (car first), requests for a mode waiting for its read. So only the network is ever held
   * twice, never a mode's graph (most of a region's memory).
   */
  private async reconcile(wanted: readonly LoadedExtract[]): Promise<void> {
    // Local names of let-go networks are cleared before the awaits below: an async function's variables
    // live as long as it runs, and a network kept reachable so would stay in memory beside its successor.
    let dropped: LoadedNetwork[] = this.networks.filter((n) => !wanted.some((e) => e.name === n.extract));
    for (const n of dropped) n.release();
    this.networks = this.networks.filter((n) => !dropped.includes(n));
    if (dropped.length > 0) {
      dropped = [];
      this.lastPick = undefined;
      collectGarbage();
    }
    for (const name of Object.keys(this.problems)) if (!wanted.some((e) => e.name === name)) delete this.problems[name];
    for (const e of wanted) {
      let current = this.networks.find((n) => n.extract === e.name);
      if (current && this.loadedFrom.get(current) === e.manifest.importedAt) continue;
      const phrase = `the road network of ${e.name}`;
      this.reading.add(phrase);
      let next: LoadedNetwork | null;
      try {
        next = await openNetwork(e.name, e.dir, e.manifest.bbox);
      } catch (err) {
        // The network answering before (if any) goes on answering.
        this.problems[e.name] = err instanceof Error ? err.message : String(err);
        this.opened(e.name);
        continue;
      } finally {
        this.reading.delete(phrase);
      }
      const modes: RouterMode[] = current ? current.modesRead() : [];
      if (!modes.includes('car')) modes.unshift('car');
      const replaced = current !== undefined;
      if (current) {
        current.release();
        current = undefined;
        // The last pick holds the old network's graph: forgotten, or the collection below frees nothing of it.
        this.lastPick = undefined;
        this.networks = this.networks.filter((n) => n.extract !== e.name);
      }
      if (next) {
        this.loadedFrom.set(next, e.manifest.importedAt);
        this.networks = wanted.flatMap((w) => (w.name === e.name ? [next!] : this.networks.filter((n) => n.extract === w.name)));
      }
      if (replaced) collectGarbage();
      delete this.problems[e.name];
      this.opened(e.name);
      if (!next) continue;
      for (const mode of modes) {
        const phrase = `the ${mode} graph of ${e.name}`;
        this.reading.add(phrase);
        try {
          await next.mode(mode);
        } catch (err) {
          // A car graph that cannot be read takes its network out of service (the default mode fails).
          this.problems[e.name] = err instanceof Error ? err.message : String(err);
          if (mode === 'car') {
            next.release();
            this.networks = this.networks.filter((n) => n !== next);
            break;
          }
        } finally {
          this.reading.delete(phrase);
        }
      }
    }
  }

  private opened(name: string): void {
    this.opening.get(name)?.finish();
    this.opening.delete(name);
  }

  private readonly loadedFrom = new WeakMap<LoadedNetwork, string>();

  /** The networks serving now, in the catalog's order (operators' tools and tests look inside). */
  get networksLoaded(): readonly LoadedNetwork[] {
    this.catalog.current();
    return this.networks;
  }

  /** The networks serving, once extracts read for the first time are (a re-import's old network serves meanwhile). */
  async servedNetworks(): Promise<readonly LoadedNetwork[]> {
    this.catalog.current();
    await Promise.all([...this.opening.values()].map((o) => o.done));
    return this.networks;
  }

  /** The networks once everything the catalog lists now has been read (tests and tools wait for it). */
  async settled(): Promise<readonly LoadedNetwork[]> {
    this.catalog.current();
    let job: Promise<void>;
    do {
      job = this.job;
      await job;
    } while (job !== this.job);
    return this.networks;
  }

  /** Whether any extract is loaded: the gateway's router selection asks. */
  get loaded(): boolean {
    this.catalog.current();
    return this.networks.length > 0;
  }

  loading(): string[] {
    this.catalog.current();
    return [...this.reading];
  }

  /** The promise, or RouterLoading once the request has waited loadWaitMs for it. */
  private async waitFor<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RouterLoading(`the road network is still loading (${what}): retry in a few seconds`, LOADING_RETRY_S)), this.loadWaitMs);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for the extracts being opened near the first point, then for the mode's graph of each served network near it. */
  private async routers(first: LngLat, mode: RouterMode): Promise<Map<LoadedNetwork, ModeRouter>> {
    this.catalog.current();
    for (const [name, o] of this.opening) if (inBox(o.bbox, first)) await this.waitFor(o.done, `the road network of ${name}`);
    const out = new Map<LoadedNetwork, ModeRouter>();
    for (const n of this.networks) {
      if (!nearBox(n, first)) continue;
      out.set(n, n.ready(mode) ?? (await this.waitFor(n.mode(mode), `the ${mode} graph of ${n.extract}`)));
    }
    return out;
  }

  /** The extract reaching every point whose roads lie nearest them, with the snaps (and each point's candidates); else the first unreached point. */
  private async locate(points: LngLat[], mode: RouterMode, mask = 0): Promise<Located> {
    return this.pick(points, mode, mask, await this.routers(points[0], mode));
  }

  /**
   * The last `pick` that found an extract: the routing endpoints ask `sourceFor` (which router answers)
   * and then the query, which snaps the same points again; a 25 × 25 matrix snapped its 50 points twice.
   */
  private lastPick: { points: LngLat[]; mode: RouterMode; mask: number; routers: Map<LoadedNetwork, ModeRouter>; located: Located } | undefined;

  /** `locate` over the routers given (networks near the first point). */
  private pick(points: LngLat[], mode: RouterMode, mask: number, routers: Map<LoadedNetwork, ModeRouter>): Located {
    const last = this.lastPick;
    if (last !== undefined && last.mode === mode && last.mask === mask && samePoints(last.points, points) && sameRouters(last.routers, routers)) return last.located;
    const located = this.pickAnew(points, mode, mask, routers);
    this.lastPick = { points: points.map(([lng, lat]) => [lng, lat]), mode, mask, routers, located };
    return located;
  }

  private pickAnew(points: LngLat[], mode: RouterMode, mask: number, routers: Map<LoadedNetwork, ModeRouter>): Located {
    let worst = 0;
    const reaching: Located[] = [];
    for (const [n, router] of routers) {
      // The points near the box first: an extract the first point is not near need not be searched.
      let near = 0;
      while (near < points.length && nearBox(n, points[near])) near++;
      const candidates: Snap[][] = [];
      for (const p of points.slice(0, near)) {
        const found = router.snapCandidates(p, SNAP_RADIUS_M, mask);
        if (found.length === 0) break;
        candidates.push(found);
      }
      const snaps = candidates.map((c) => c[0]);
      if (snaps.length === points.length) reaching.push({ router, snaps, candidates });
      worst = Math.max(worst, snaps.length);
    }
    if (reaching.length === 1) return reaching[0];
    const best = bestFit(reaching.map(({ snaps }) => fitOf(snaps.map((snap) => snap.distance))));
    if (best >= 0) return reaching[best];
    // The first point no single extract could take with the ones before it.
    const index = this.networks.length === 0 ? 0 : worst;
    throw new OutsideNetwork(index, points[index]);
  }

  /** Waits for the networks near the first point and their graphs of the mode (RouterLoading past loadWaitMs). */
  async prepare(locations: LngLat[], mode: RouterMode): Promise<void> {
    await this.routers(locations[0], mode);
  }

  /**
   * Embedded where a served network reaches every point, and where a network the points lie in is still
   * being read (its request waits for it, and fails with a 503 rather than answering a straight line);
   * callers that can wait call prepare() first, so a mode not yet read is judged on its graph.
   */
  sourceFor(locations: LngLat[], mode: RouterMode): RouterSource {
    this.catalog.current();
    const first = locations[0];
    for (const o of this.opening.values()) if (inBox(o.bbox, first)) return 'embedded';
    const routers = new Map<LoadedNetwork, ModeRouter>();
    for (const n of this.networks) {
      if (!nearBox(n, first)) continue;
      const router = n.ready(mode);
      if (!router) return 'embedded';
      routers.set(n, router);
    }
    try {
      this.pick(locations, mode, 0, routers);
      return 'embedded';
    } catch {
      return 'geodesic-estimate';
    }
  }

  async eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
    const { router, snaps } = await this.locate([from, to], mode);
    const t = router.table([snaps[0]], [snaps[1]]);
    if (!Number.isFinite(t.cost[0])) throw new NoRouteBetween(1, to, `no ${mode} route connects location 0 and location 1`);
    return { duration: round1(t.seconds[0] / 60), distance: Math.round(t.metres[0]) };
  }

  reach(minutes: number, mode: RouterMode): number {
    return (minutes / 60) * TOP_KPH[mode] * 1000;
  }

  async route(req: RouteRequest): Promise<RouteResult> {
    const mask = avoidMask(req.avoid);
    const located = await this.locate(req.locations, req.mode, mask);
    const { router } = located;
    let snaps = located.snaps;
    // Motor vehicles go on through intermediate points as OSRM's car profile does (continue_straight).
    const continueStraight = req.mode === 'car' || req.mode === 'truck';
    const options = { avoidMask: mask, alternatives: req.alternatives, heading: req.heading, continueStraight, steps: req.steps === true };
    let routes = router.route(snaps, options);
    // A point nearer a small part of the network than the large one: the other candidate may connect.
    for (const tried of otherChoices(located.candidates)) {
      if (routes !== null) break;
      routes = router.route(tried, options);
      if (routes !== null) snaps = tried;
    }
    if (routes === null) {
      const last = req.locations.length - 1;
      const pair = req.locations.length === 2 ? 'location 0 and location 1' : 'the locations';
      throw new NoRouteBetween(last, req.locations[last], `no ${req.mode} route connects ${pair}${mask ? ' with these avoid options' : ''}`);
    }
    return { routes, waypoints: snaps.map((s) => [Math.round(s.lon * 1e6) / 1e6, Math.round(s.lat * 1e6) / 1e6] as LngLat) };
  }

  async table(req: TableRequest): Promise<TableResult> {
    const mask = avoidMask(req.avoid);
    const { router, snaps } = await this.locate([...req.sources, ...req.destinations], req.mode, mask);
    const S = req.sources.length;
    const t = router.table(snaps.slice(0, S), snaps.slice(S), mask);
    const D = req.destinations.length;
    const durations: Array<Array<number | null>> = [];
    const distances: Array<Array<number | null>> = [];
    for (let i = 0; i < S; i++) {
      durations.push([]);
      distances.push([]);
      for (let j = 0; j < D; j++) {
        const c = t.cost[i * D + j];
        durations[i].push(Number.isFinite(c) ? round1(t.seconds[i * D + j]) : null);
        distances[i].push(Number.isFinite(c) ? round1(t.metres[i * D + j]) : null);
      }
    }
    return { durations, distances };
  }

  /**
   * Map matching on the extract whose roads lie nearest most of the path's points (a trace rarely has
   * all of them on a road, so `locate`'s every-point rule does not fit); without a road near any point,
   * the extract whose box holds most of them. Points no road is near stay unmatched.
   */
  async match(req: MatchRequest): Promise<MatchResult> {
    this.catalog.current();
    for (const [name, o] of this.opening) {
      if (req.points.some(({ location }) => inBox(o.bbox, location))) await this.waitFor(o.done, `the road network of ${name}`);
    }
    const networks = this.networks;
    const inBoxes = networks.map((n) => req.points.filter(({ location }) => nearBox(n, location)).length);
    const routers = new Map<LoadedNetwork, ModeRouter>();
    for (const [i, n] of networks.entries()) {
      if (inBoxes[i] > 0) routers.set(n, n.ready(req.mode) ?? (await this.waitFor(n.mode(req.mode), `the ${req.mode} graph of ${n.extract}`)));
    }
    // With one candidate extract the choice below always lands on it: skip snapping every point.
    const alone = inBoxes.filter((count) => count > 0).length === 1;
    const fits = networks.map((n, i) => {
      if (inBoxes[i] === 0 || alone) return undefined;
      const router = routers.get(n)!;
      return fitOf(req.points.map(({ location }) => (nearBox(n, location) ? router.snap(location, MATCH_FIT_RADIUS_M)?.distance ?? null : null)));
    });
    let chosen = bestFit(fits);
    if (chosen < 0) chosen = bestFit(inBoxes.map((count) => ({ reached: count, metres: 0 })));
    const best = chosen >= 0 ? networks[chosen] : undefined;
    const first = req.points[0].location;
    if (!best) throw new OutsideNetwork(0, first);
    const result = matchOnNetwork(routers.get(best)!, req.points, defaultMatcherParams(TOP_KPH[req.mode]));
    if (result.matchedPoints.length === 0) throw new OutsideNetwork(0, first, `no point of the path is near a ${req.mode} road of the imported networks`);
    return result;
  }

  /**
   * The area reachable from the centre within the minutes, as one outline ring. The centre is snapped
   * to its road as routes are, and the way onto the road is drawn (uncharged, as route/distance does
   * not charge it either): without it a centre 100 m from its road left the reached roads apart from
   * the centre, and the outline shrank to the centre alone.
   */
  async isochrone(req: IsochroneRequest): Promise<LngLat[][]> {
    const { router, snaps } = await this.locate([req.center], req.mode);
    const snap = snaps[0];
    const lines = router.reach(snap, req.minutes * 60);
    if (lines.count === 0) {
      throw new OutsideNetwork(0, req.center, `the ${req.mode} road nearest (${req.center[1]},${req.center[0]}) leads nowhere within ${req.minutes} minutes`);
    }
    lines.startLine();
    lines.push(req.center[0], req.center[1]);
    lines.push(snap.lon, snap.lat);
    return [reachPolygon(req.center, lines)];
  }
}

function samePoints(a: readonly LngLat[], b: readonly LngLat[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  return true;
}

/** The same networks near the points, with the same mode graphs (a reload makes new ones). */
function sameRouters(a: ReadonlyMap<LoadedNetwork, ModeRouter>, b: ReadonlyMap<LoadedNetwork, ModeRouter>): boolean {
  if (a.size !== b.size) return false;
  for (const [n, router] of a) if (b.get(n) !== router) return false;
  return true;
}

/** The other combinations of each point's snap candidates (first choices already tried), at most a few. */
function otherChoices(candidates: Snap[][]): Snap[][] {
  const out: Snap[][] = [];
  const walk = (i: number, chosen: Snap[], changed: boolean) => {
    if (out.length >= 8) return;
    if (i === candidates.length) {
      if (changed) out.push([...chosen]);
      return;
    }
    candidates[i].forEach((c, k) => walk(i + 1, [...chosen, c], changed || k > 0));
  };
  walk(0, [], false);
  return out;
}

export function createEmbeddedRouter(catalog: ExtractCatalog, options?: EmbeddedRouterOptions): EmbeddedRouter {
  return new EmbeddedRouter(catalog, options);
}
