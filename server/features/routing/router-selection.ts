// Which Router answers a request: the external engine configured for the mode (OSRM or Valhalla), else the
// embedded router where an imported network covers the points, else the geodesic estimate, flagged as one.
// It is itself a Router, so trips and search users get the same choice as the routing endpoints. Which
// engines exist is the composition root's choice (server/app/adapters.ts, createRouter).
import { OutsideNetwork, type Eta, type IsochroneRequest, type LngLat, type MatchRequest, type MatchResult, type RouteRequest, type RouteResult, type Router, type RouterMode, type RouterSource, type TableRequest, type TableResult } from '../../../ports/router';
import { degenerateRing } from '../../../core/isochrone/degenerate-ring';

export interface PickedRouter {
  router: Router & Required<Pick<Router, 'route' | 'table'>>;
  source: RouterSource;
}

interface Closable {
  close(): Promise<void>;
}

export type FullRouter = PickedRouter['router'];

function full(router: Router): FullRouter | undefined {
  return router.route && router.table ? (router as FullRouter) : undefined;
}

export class RouterSelection implements Router {
  readonly name = 'selection';

  /**
   * `external`: the engine configured per mode; `fallback`: the estimate where nothing else answers
   * (geodesic); `embedded`: the router over imported extracts, when the gateway has one.
   */
  constructor(
    private readonly external: Partial<Record<RouterMode, { router: FullRouter; source: RouterSource }>>,
    private readonly fallback: FullRouter,
    private readonly embedded?: Router,
    private readonly closables: Closable[] = [],
  ) {}

  /** Callers go through pickReady: before prepare, a mode not yet read looks as if it covered every point near its network. */
  private pick(locations: readonly LngLat[], mode: RouterMode): PickedRouter {
    const external = this.external[mode];
    if (external) return external;
    const embedded = this.embedded && full(this.embedded);
    if (embedded && (embedded.sourceFor?.([...locations], mode) ?? 'embedded') === 'embedded') return { router: embedded, source: 'embedded' };
    return { router: this.fallback, source: 'geodesic-estimate' };
  }

  /**
   * `pick` once the embedded router has read what these points need: a mode whose graph is read on first
   * use would otherwise be taken as covering points its roads do not reach (a 400, not an estimate).
   */
  async pickReady(locations: readonly LngLat[], mode: RouterMode): Promise<PickedRouter> {
    if (!this.external[mode]) await this.embedded?.prepare?.([...locations], mode);
    return this.pick(locations, mode);
  }

  sourceFor(locations: LngLat[], mode: RouterMode): RouterSource {
    return this.pick(locations, mode).source;
  }

  /** What the embedded router is still reading (external engines load on their own). */
  loading(): string[] {
    return this.embedded?.loading?.() ?? [];
  }

  async eta(from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
    const { router, source } = await this.pickReady([from, to], mode);
    if (source === 'geodesic-estimate') return this.fallback.eta(from, to, mode);
    const { routes } = await router.route({ locations: [from, to], mode });
    return { duration: routes[0].duration / 60, distance: routes[0].distance };
  }

  /** Straight-line bound of a search by travel time: the picked engine's where one serves the mode everywhere. */
  reach(minutes: number, mode: RouterMode): number {
    const router = this.external[mode]?.router ?? this.embedded ?? this.fallback;
    return Math.max(router.reach(minutes, mode), this.fallback.reach(minutes, mode));
  }

  async route(req: RouteRequest): Promise<RouteResult> {
    return (await this.pickReady(req.locations, req.mode)).router.route(req);
  }

  async table(req: TableRequest): Promise<TableResult> {
    return (await this.pickReady([...req.sources, ...req.destinations], req.mode)).router.table(req);
  }

  /**
   * Matching and isochrones need a road network: the configured engine's, else the embedded one's; the
   * straight-line estimate cannot answer them, so a path or centre no network covers is refused.
   */
  private async networkRouter(locations: readonly LngLat[], mode: RouterMode): Promise<Router> {
    const external = this.external[mode]?.router;
    if (external) return external;
    const embedded = this.embedded;
    await embedded?.prepare?.([...locations], mode);
    if (embedded && (embedded.sourceFor?.([...locations], mode) ?? 'embedded') === 'embedded') return embedded;
    throw new OutsideNetwork(0, locations[0], `no imported road network for ${mode} covers (${locations[0][1]},${locations[0][0]})`);
  }

  /** A trace rarely has every point near a road, so the embedded router decides coverage itself. */
  match(req: MatchRequest): Promise<MatchResult> {
    const first = req.points[0].location;
    const router = this.external[req.mode]?.router ?? this.embedded;
    if (!router) throw new OutsideNetwork(0, first, `no imported road network for ${req.mode} covers (${first[1]},${first[0]})`);
    if (!router.match) throw new OutsideNetwork(0, first, `the ${router.name} router does not match paths`);
    return router.match(req);
  }

  /** Every engine's outline is checked: a degenerate one is refused with the reason, never stored. */
  async isochrone(req: IsochroneRequest): Promise<LngLat[][]> {
    const router = await this.networkRouter([req.center], req.mode);
    if (!router.isochrone) throw new OutsideNetwork(0, req.center, `the ${router.name} router does not compute isochrones`);
    const rings = await router.isochrone(req);
    const why = rings.length === 0 ? 'it has no outline' : degenerateRing(rings[0]);
    if (why !== undefined) {
      throw new OutsideNetwork(0, req.center, `the ${req.minutes}-minute ${req.mode} isochrone from (${req.center[1]},${req.center[0]}) is degenerate: ${why}`);
    }
    return rings;
  }

  async close(): Promise<void> {
    await Promise.all(this.closables.map((c) => c.close()));
  }
}
