// The embedded Router: answers from the road networks of every imported extract (the routing stage's
// files), reloaded when the extract catalog changes. Of the extracts that have every point within
// SNAP_RADIUS_M of a road open to the mode, the one whose roads lie nearest the points answers
// (extract-choice.ts); when none does, the first point no extract reaches is named in an OutsideNetwork
// error. Matching takes the extract nearest most of the trace's points.
import {
  OutsideNetwork, type AvoidOption, type IsochroneRequest, type MatchRequest, type MatchResult, type Eta, type LngLat, type RouteRequest, type RouteResult, type Router, type RouterMode,
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
import { loadNetwork, type LoadedNetwork } from './network-loader';

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

function nearBox(n: LoadedNetwork, [x, y]: LngLat): boolean {
  const [w, s, e, no] = n.bbox;
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

export class EmbeddedRouter implements Router {
  readonly name = 'embedded';
  private networks: LoadedNetwork[] = [];
  /** Extracts whose routing files failed to load, with why; for operators. */
  problems: Record<string, string> = {};

  constructor(private readonly catalog: ExtractCatalog) {
    catalog.subscribe((extracts) => this.load(extracts));
    this.load(catalog.current());
  }

  private load(extracts: readonly LoadedExtract[]): void {
    // A re-imported or removed extract's network is let go before any new one is read, and its memory
    // collected, so a region is never held twice (its files can be most of the memory); load() runs to
    // its end before any request, so none sees the gap: a request waits for the new network.
    const kept = this.networks.filter((n) => extracts.some((e) => e.name === n.extract && this.loadedFrom.get(n) === e.manifest.importedAt));
    const dropped = this.networks.filter((n) => !kept.includes(n));
    for (const n of dropped) n.release();
    this.networks = kept;
    if (dropped.length > 0) collectGarbage();
    const networks: LoadedNetwork[] = [];
    const problems: Record<string, string> = {};
    for (const e of extracts) {
      // An extract already loaded from the same manifest is kept as is.
      const same = this.networks.find((n) => n.extract === e.name && this.loadedFrom.get(n) === e.manifest.importedAt);
      if (same) {
        networks.push(same);
        continue;
      }
      try {
        const n = loadNetwork(e.name, e.dir, e.manifest.bbox);
        if (n) {
          this.loadedFrom.set(n, e.manifest.importedAt);
          networks.push(n);
        }
      } catch (err) {
        problems[e.name] = err instanceof Error ? err.message : String(err);
      }
    }
    this.networks = networks;
    this.problems = problems;
  }

  private readonly loadedFrom = new WeakMap<LoadedNetwork, string>();

  /** The loaded networks, by extract name (operators' tools and tests look inside). */
  get networksLoaded(): readonly LoadedNetwork[] {
    this.catalog.current();
    return this.networks;
  }

  /** Whether any extract is loaded: the gateway's router selection asks. */
  get loaded(): boolean {
    this.catalog.current();
    return this.networks.length > 0;
  }

  /** The extract reaching every point whose roads lie nearest them, with the snaps (and each point's candidates); else the first unreached point. */
  private locate(points: LngLat[], mode: RouterMode, mask = 0): { router: ModeRouter; snaps: Snap[]; candidates: Snap[][] } {
    this.catalog.current();
    let worst = 0;
    const reaching: Array<{ router: ModeRouter; snaps: Snap[]; candidates: Snap[][] }> = [];
    for (const n of this.networks) {
      // The points near the box first: an extract the first point is not near need not load the mode's graph.
      let near = 0;
      while (near < points.length && nearBox(n, points[near])) near++;
      if (near === 0) continue;
      const router = n.routers[mode];
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

  sourceFor(locations: LngLat[], mode: RouterMode): RouterSource {
    try {
      this.locate(locations, mode);
      return 'embedded';
    } catch {
      return 'geodesic-estimate';
    }
  }

  async eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
    const { router, snaps } = this.locate([from, to], mode);
    const t = router.table([snaps[0]], [snaps[1]]);
    if (!Number.isFinite(t.cost[0])) throw new NoRouteBetween(1, to, `no ${mode} route connects location 0 and location 1`);
    return { duration: round1(t.seconds[0] / 60), distance: Math.round(t.metres[0]) };
  }

  reach(minutes: number, mode: RouterMode): number {
    return (minutes / 60) * TOP_KPH[mode] * 1000;
  }

  async route(req: RouteRequest): Promise<RouteResult> {
    const mask = avoidMask(req.avoid);
    const located = this.locate(req.locations, req.mode, mask);
    const { router } = located;
    let snaps = located.snaps;
    // Motor vehicles go on through intermediate points as OSRM's car profile does (continue_straight).
    const continueStraight = req.mode === 'car' || req.mode === 'truck';
    const options = { avoidMask: mask, alternatives: req.alternatives, heading: req.heading, continueStraight };
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
    if (!req.steps) for (const r of routes) for (const leg of r.legs) leg.steps = [];
    return { routes, waypoints: snaps.map((s) => [Math.round(s.lon * 1e6) / 1e6, Math.round(s.lat * 1e6) / 1e6] as LngLat) };
  }

  async table(req: TableRequest): Promise<TableResult> {
    const mask = avoidMask(req.avoid);
    const { router, snaps } = this.locate([...req.sources, ...req.destinations], req.mode, mask);
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
    const inBox = this.networks.map((n) => req.points.filter(({ location }) => nearBox(n, location)).length);
    // With one candidate extract the choice below always lands on it: skip snapping every point.
    const alone = inBox.filter((count) => count > 0).length === 1;
    const fits = this.networks.map((n, i) => {
      if (inBox[i] === 0 || alone) return undefined;
      const router = n.routers[req.mode];
      return fitOf(req.points.map(({ location }) => (nearBox(n, location) ? router.snap(location, MATCH_FIT_RADIUS_M)?.distance ?? null : null)));
    });
    let chosen = bestFit(fits);
    if (chosen < 0) chosen = bestFit(inBox.map((count) => ({ reached: count, metres: 0 })));
    const best = chosen >= 0 ? this.networks[chosen] : undefined;
    const first = req.points[0].location;
    if (!best) throw new OutsideNetwork(0, first);
    const result = matchOnNetwork(best.routers[req.mode], req.points, defaultMatcherParams(TOP_KPH[req.mode]));
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
    const { router, snaps } = this.locate([req.center], req.mode);
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

export function createEmbeddedRouter(catalog: ExtractCatalog): EmbeddedRouter {
  return new EmbeddedRouter(catalog);
}
