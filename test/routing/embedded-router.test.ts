// The embedded router over imported shared extracts: the hierarchy agrees with plain Dijkstra, turn
// restrictions hold, every avoid option changes a route that used what it avoids, alternatives and
// heading, steps shaped as OSRM's, and a catalog change reloads the router.
import path from 'node:path';
import { prng } from '../../bench/support/prng';
import { OutsideNetwork, type AvoidOption, type LngLat, type RouterMode } from '../../ports/router';
import { avoidMask } from '../../adapters/router/embedded/embedded-router';
import type { ModeRouter } from '../../core/routing/mode-router';
import { SEGMENT_BORDER, SEGMENT_FERRY, SEGMENT_HIGHWAY, SEGMENT_TOLL } from '../../core/routing/network';
import type { Piece } from '../../core/routing/route-steps';
import { OSM, fixturesPresent, importForRouting, segmentMidpoints, type ImportedRouter } from './support';

const present = fixturesPresent('embedded router', ...['monaco-osrm.osm.pbf', 'andorra-graphhopper.osm.pbf', 'us-md-baltimore-valhalla.osm.pbf'].map((f) => path.join(OSM, f)));
const withFixtures = present ? describe : describe.skip;

let imported: ImportedRouter;
beforeAll(async () => {
  if (present) imported = await importForRouting({ andorra: 'andorra-graphhopper.osm.pbf', baltimore: 'us-md-baltimore-valhalla.osm.pbf', monaco: 'monaco-osrm.osm.pbf' });
}, 300_000);
afterAll(() => imported?.close());

function modeRouter(extract: string, mode: RouterMode): ModeRouter {
  return imported.router.networksLoaded.find((n) => n.extract === extract)!.routers[mode];
}


withFixtures('embedded router', () => {
  test('the hierarchy\'s table equals Dijkstra on the base graph (Andorra, car and foot, 12 × 12)', () => {
    for (const mode of ['car', 'foot'] as const) {
      const r = modeRouter('andorra', mode);
      const pts = segmentMidpoints(r, 12, 7);
      const snaps = pts.map((p) => r.snap(p, 1000)!);
      const ch = r.table(snaps, snaps);
      // No ferry in Andorra: avoiding ferries runs the plain search over the same graph.
      const plain = r.table(snaps, snaps, SEGMENT_FERRY);
      // Equal within the rounding of shortcuts' 32-bit weights (generated-hierarchy.test.ts says why).
      const differing = Array.from(ch.cost, (c, k) => (c === plain.cost[k] || Math.abs(c - plain.cost[k]) <= 0.05 ? null : [mode, k, c, plain.cost[k]])).filter((d) => d !== null);
      expect(differing).toEqual([]);
    }
  });

  test('a matrix equals its pairwise routes (Baltimore, car)', async () => {
    const pts = segmentMidpoints(modeRouter('baltimore', 'car'), 5, 11);
    const table = await imported.router.table!({ sources: pts, destinations: pts, mode: 'car' });
    for (let i = 0; i < pts.length; i++) {
      for (let j = 0; j < pts.length; j++) {
        if (i === j) continue;
        const route = (await imported.router.route!({ locations: [pts[i], pts[j]], mode: 'car' })).routes[0];
        expect(table.durations[i][j]).toBeCloseTo(route.duration, 0);
        expect(Math.abs(table.distances[i][j]! - route.distance)).toBeLessThan(1);
      }
    }
  });

  test('turn restrictions hold (Monaco: no_left_turn 4261963 and the only_* relations)', () => {
    const r = modeRouter('monaco', 'car');
    const n = r.network;
    const wayOf = (p: Piece) => n.wayOsmId[n.segmentWay[p.segment]];
    const segmentsOf = (way: number) => [...n.segmentWay.keys()].filter((s) => n.wayOsmId[n.segmentWay[s]] === way);
    const mid = (s: number): LngLat => {
      const p = Math.floor((n.segmentStart[s] + n.segmentStart[s + 1] - 1) / 2);
      return [n.pointLon[p] / 1e7, n.pointLat[p] / 1e7];
    };
    const from = segmentsOf(176527122);
    const to = segmentsOf(166399477);
    expect(from.length).toBeGreaterThan(0);
    expect(to.length).toBeGreaterThan(0);
    let checked = 0;
    for (const a of from) for (const b of to) {
      const pieces = r.legPieces(r.snap(mid(a), 50)!, r.snap(mid(b), 50)!);
      if (pieces === null) continue;
      checked++;
      for (let i = 1; i < pieces.length; i++) expect([wayOf(pieces[i - 1]), wayOf(pieces[i])]).not.toEqual([176527122, 166399477]);
    }
    expect(checked).toBeGreaterThan(0);
  });

  async function findUsing(extract: string, mode: RouterMode, flag: number, seed: number): Promise<[LngLat, LngLat] | null> {
    const r = modeRouter(extract, mode);
    const n = r.network;
    // Candidates: random points, then the land next to both ends of each flagged segment (a ferry
    // crossing is rarely on the way between two random points).
    const pts = segmentMidpoints(r, 80, seed);
    const mid = (s: number): LngLat => {
      const p = Math.floor((n.segmentStart[s] + n.segmentStart[s + 1] - 1) / 2);
      return [n.pointLon[p] / 1e7, n.pointLat[p] / 1e7];
    };
    // The point three quarters of the way along segment t from its end at vertex v: far enough from the
    // flagged segment that it snaps to t (a segment's middle point can lie on the flagged one).
    const awayFrom = (t: number, v: number): LngLat => {
      const first = n.segmentStart[t], last = n.segmentStart[t + 1] - 1;
      const [near, far] = n.segmentFrom[t] === v ? [first, last] : [last, first];
      return [(n.pointLon[near] + 0.75 * (n.pointLon[far] - n.pointLon[near])) / 1e7, (n.pointLat[near] + 0.75 * (n.pointLat[far] - n.pointLat[near])) / 1e7];
    };
    for (let s = 0; s < n.segmentFrom.length && pts.length < 200; s++) {
      if ((n.segmentFlags[s] & flag) === 0) continue;
      const near = (v: number) => [...n.segmentFrom.keys()].find((t) => (n.segmentFlags[t] & flag) === 0 && r.mode.segmentMain[t] === 1 && (n.segmentFrom[t] === v || n.segmentTo[t] === v));
      const a = near(n.segmentFrom[s]), b = near(n.segmentTo[s]);
      if (a !== undefined && b !== undefined) pts.push(mid(a), mid(b), awayFrom(a, n.segmentFrom[s]), awayFrom(b, n.segmentTo[s]));
    }
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const a = r.snap(pts[i], 1000), b = r.snap(pts[i + 1], 1000);
      if (!a || !b) continue;
      const pieces = r.legPieces(a, b);
      if (pieces?.slice(1, -1).some((p) => (r.network.segmentFlags[p.segment] & flag) !== 0)) return [pts[i], pts[i + 1]];
    }
    return null;
  }

  test.each([
    ['tolls', 'baltimore', 'car', SEGMENT_TOLL],
    ['highways', 'baltimore', 'car', SEGMENT_HIGHWAY],
    ['borderCrossings', 'andorra', 'car', SEGMENT_BORDER],
  ] as const)('avoid=%s changes a route that used them (%s, %s)', async (avoid, extract, mode, flag) => {
    const pair = await findUsing(extract, mode, flag, 3);
    expect(pair).not.toBeNull();
    const r = modeRouter(extract, mode);
    const plain = (await imported.router.route!({ locations: pair!, mode })).routes[0];
    let avoided;
    try {
      avoided = (await imported.router.route!({ locations: pair!, mode, avoid: [avoid as AvoidOption] })).routes[0];
    } catch (err) {
      // No way around (an island, a valley across a border): refused, not answered through it.
      expect(err).toBeInstanceOf(OutsideNetwork);
      return;
    }
    expect(avoided.duration).not.toBe(plain.duration);
    const mask = avoidMask([avoid as AvoidOption]);
    const a = r.snap(pair![0], 1000, mask)!, b = r.snap(pair![1], 1000, mask)!;
    expect(r.legPieces(a, b, mask)!.every((p) => (r.network.segmentFlags[p.segment] & flag) === 0)).toBe(true);
  });

  test('avoid=ferries: routes next to Baltimore\'s water-taxi piers never take the ferry', async () => {
    // The water-taxi lines end at piers off the street network here, so no shortest route used them:
    // what can be checked is that the flag is set and that nothing avoided is ever on a route.
    const r = modeRouter('baltimore', 'foot');
    const n = r.network;
    const ferries = [...n.segmentFlags.keys()].filter((s) => (n.segmentFlags[s] & SEGMENT_FERRY) !== 0);
    expect(ferries.length).toBeGreaterThan(0);
    const mask = avoidMask(['ferries']);
    const pts = segmentMidpoints(r, 20, 9);
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const pieces = r.legPieces(r.snap(pts[i], 1000, mask)!, r.snap(pts[i + 1], 1000, mask)!, mask);
      expect((pieces ?? []).every((p) => (n.segmentFlags[p.segment] & SEGMENT_FERRY) === 0)).toBe(true);
    }
  });

  test('alternatives: up to two, different from the best, each a full route', async () => {
    const pts = segmentMidpoints(modeRouter('baltimore', 'car'), 40, 5);
    let withAlternatives = 0;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const result = await imported.router.route!({ locations: [pts[i], pts[i + 1]], mode: 'car', alternatives: true });
      expect(result.routes.length).toBeLessThanOrEqual(3);
      if (result.routes.length > 1) withAlternatives++;
      for (const alt of result.routes.slice(1)) {
        expect(alt.duration).toBeGreaterThanOrEqual(result.routes[0].duration - 0.5);
        expect(alt.geometry).not.toEqual(result.routes[0].geometry);
      }
    }
    expect(withAlternatives).toBeGreaterThan(0);
  });

  test('steps: depart first, arrive last, distances adding up, roundabouts with an exit number', async () => {
    const result = await imported.router.route!({ locations: [[7.4277, 43.7392], [7.4197, 43.7311]], mode: 'car', steps: true });
    const leg = result.routes[0].legs[0];
    expect(leg.steps[0].maneuver.type).toBe('depart');
    expect(leg.steps[leg.steps.length - 1].maneuver.type).toBe('arrive');
    expect(leg.steps.reduce((t, s) => t + s.distance, 0)).toBeCloseTo(leg.distance, -1);
    const roundabouts = leg.steps.filter((s) => s.maneuver.type === 'roundabout');
    expect(roundabouts.length).toBeGreaterThan(0);
    for (const s of roundabouts) expect(s.maneuver.exit).toBeGreaterThanOrEqual(1);
    for (const s of leg.steps) {
      expect(s.maneuver.bearing_after).toBeGreaterThanOrEqual(0);
      expect(s.maneuver.bearing_after).toBeLessThan(360);
      expect(s.geometry.length).toBeGreaterThanOrEqual(2);
    }
    expect(leg.steps.map((s) => s.name)).toContain('Avenue de la Costa');
    const noSteps = await imported.router.route!({ locations: [[7.4277, 43.7392], [7.4197, 43.7311]], mode: 'car' });
    expect(noSteps.routes[0].legs[0].steps).toEqual([]);
  });

  test('heading picks the start direction; eta and reach; modes differ', async () => {
    const r = modeRouter('baltimore', 'car');
    // Two seeded points a walker can also go between: east Baltimore's footways form two large strongly
    // connected parts (about 16,800 and 2,000 segment directions), and a pair may fall one in each.
    const walker = modeRouter('baltimore', 'foot');
    let [a, b] = segmentMidpoints(r, 2, 21);
    for (let seed = 22; !Number.isFinite(walker.table([walker.snap(a, 1000)!], [walker.snap(b, 1000)!]).cost[0]); seed++) [a, b] = segmentMidpoints(r, 2, seed);
    const one = await imported.router.route!({ locations: [a, b], mode: 'car', heading: 0 });
    const other = await imported.router.route!({ locations: [a, b], mode: 'car', heading: 180 });
    expect(one.routes[0].duration > 0 && other.routes[0].duration > 0).toBe(true);
    const eta = await imported.router.eta(a, b, 'car');
    const walk = await imported.router.eta(a, b, 'foot');
    expect(walk.duration).toBeGreaterThan(eta.duration);
    expect(imported.router.reach(60, 'foot')).toBe(5000);
  });
});
