// The embedded router on Monaco against OSRM v6.0.0's recorded answers (car profile, same extract):
// every route leg and every pair of the 4×4 table within 3 % of OSRM's distance and 10 % of its
// duration, a table equal to its pairwise routes, and a point far from every road refused with
// OutsideNetwork. A case that still differs would be listed in KNOWN with what it is held to instead,
// explained in docs/routing-engine.md; none does now.
import fs from 'node:fs';
import path from 'node:path';
import { OutsideNetwork, type LngLat } from '../../ports/router';
import { OSM, OSRM, fixturesPresent, importForRouting, type ImportedRouter } from './support';

const present = fixturesPresent('OSRM comparison', path.join(OSM, 'monaco-osrm.osm.pbf'), path.join(OSRM, 'INDEX.json'));
const withFixtures = present ? describe : describe.skip;

interface Recorded { request: string; file: string }

function recorded(file: string): any {
  const d = JSON.parse(fs.readFileSync(path.join(OSRM, file), 'utf8'));
  return d.body ?? d;
}

function coordinates(request: string): LngLat[] {
  const m = /\/(?:route|table)\/v1\/driving\/([^?]+)/.exec(request)!;
  return m[1].split(';').map((p) => p.split(',').map(Number) as LngLat);
}

const DISTANCE = 0.03;
const DURATION = 0.1;

/**
 * Differences not explained yet (docs/routing-engine.md), by case name, with the bounds they are held
 * to instead of the strict ones. Empty: the last three (palace → Fontvieille, Larvotto → casino and the
 * first leg of the three-point route) were turns between two carriageways that OSRM makes u-turns
 * (merged-carriageways.ts); never loosen an entry, remove it once it passes.
 */
const KNOWN: Record<string, { distance: number; duration: number }> = {};

function expectClose(name: string, ours: { distance: number; duration: number }, osrm: { distance: number; duration: number }): void {
  const bound = KNOWN[name] ?? { distance: DISTANCE, duration: DURATION };
  expect([name, 'distance', Math.abs(ours.distance / osrm.distance - 1) <= bound.distance, ours.distance, osrm.distance])
    .toEqual([name, 'distance', true, ours.distance, osrm.distance]);
  expect([name, 'duration', Math.abs(ours.duration / osrm.duration - 1) <= bound.duration, ours.duration, osrm.duration])
    .toEqual([name, 'duration', true, ours.duration, osrm.duration]);
}

let imported: ImportedRouter;
beforeAll(async () => {
  if (present) imported = await importForRouting({ monaco: 'monaco-osrm.osm.pbf' });
}, 120_000);
afterAll(() => imported?.close());

withFixtures('Monaco, car, against OSRM v6.0.0', () => {
  const index = present ? (JSON.parse(fs.readFileSync(path.join(OSRM, 'INDEX.json'), 'utf8')).requests as Recorded[]) : [];
  // Far points are not comparable (OSRM snaps them anyway, we refuse them: tested below); the
  // `waypoints=0;2` route has its own test.
  const routes = index.filter((r) => r.file.startsWith('route_') && !/far_coordinates|continue_straight/.test(r.file));

  test.each(routes.map((r) => [r.file, r] as const))('%s, leg by leg', async (file, r) => {
    const osrm = recorded(r.file).routes[0];
    const ours = (await imported.router.route!({ locations: coordinates(r.request), mode: 'car', steps: true })).routes[0];
    expect(ours.legs).toHaveLength(osrm.legs.length);
    osrm.legs.forEach((leg: { distance: number; duration: number }, i: number) => expectClose(`${file} leg ${i}`, ours.legs[i], leg));
  });

  test('going on through an intermediate point (car): as OSRM\'s continue_straight route with waypoints=0;2', async () => {
    const r = index.find((x) => x.file === 'route_continue_straight_waypoints.json')!;
    const osrm = recorded(r.file).routes[0];
    const ours = (await imported.router.route!({ locations: coordinates(r.request), mode: 'car' })).routes[0];
    // OSRM merged the two legs (the middle point is not a leg break); ours has both, the whole compares.
    expectClose(r.file, ours, osrm);
  });

  test('table equals pairwise routes, and OSRM\'s table pair by pair', async () => {
    const file = 'table_4x4_duration_distance.json';
    const osrm = recorded(file);
    const points = coordinates(index.find((r) => r.file === file)!.request);
    const names = ['casino', 'palace', 'fontvieille', 'larvotto'];
    const table = await imported.router.table!({ sources: points, destinations: points, mode: 'car' });
    for (let i = 0; i < points.length; i++) {
      for (let j = 0; j < points.length; j++) {
        if (i === j) continue;
        const route = (await imported.router.route!({ locations: [points[i], points[j]], mode: 'car' })).routes[0];
        expect(table.durations[i][j]).toBeCloseTo(route.duration, 0);
        expect(table.distances[i][j]).toBeCloseTo(route.distance, -1);
        expectClose(`${names[i]} → ${names[j]}`, { distance: table.distances[i][j]!, duration: table.durations[i][j]! },
          { distance: osrm.distances[i][j], duration: osrm.durations[i][j] });
      }
    }
  });

  test('turning back through loops of one-way roads costs what OSRM charges (its u-turns between carriageways), within 1 %', async () => {
    // Palace → Fontvieille turns back through the hairpin of Tunnel Rocher Antoine 1er, Larvotto → casino
    // twice around Rond-Point Sainte-Dévote; the first leg of the three-point route avoids that ring as
    // OSRM does, for its longer way by the port.
    const table = recorded('table_4x4_duration_distance.json');
    const points = coordinates(index.find((r) => r.file === 'table_4x4_duration_distance.json')!.request);
    for (const [i, j] of [[1, 2], [3, 0]]) {
      const ours = (await imported.router.route!({ locations: [points[i], points[j]], mode: 'car' })).routes[0];
      expect(Math.abs(ours.duration / table.durations[i][j] - 1)).toBeLessThan(0.01);
      expect(Math.abs(ours.distance / table.distances[i][j] - 1)).toBeLessThan(0.01);
    }
    const r = index.find((x) => x.file === 'route_3wp_overview_false.json')!;
    const leg = recorded(r.file).routes[0].legs[0];
    const ours = (await imported.router.route!({ locations: coordinates(r.request), mode: 'car' })).routes[0].legs[0];
    expect(Math.abs(ours.duration / leg.duration - 1)).toBeLessThan(0.01);
    expect(Math.abs(ours.distance / leg.distance - 1)).toBeLessThan(0.01);
  });

  test('a point far from every road is refused, naming it', async () => {
    await expect(imported.router.route!({ locations: [[7.4277, 43.7392], [0, 0]], mode: 'car' })).rejects.toBeInstanceOf(OutsideNetwork);
    await expect(imported.router.route!({ locations: [[7.4277, 43.7392], [0, 0]], mode: 'car' })).rejects.toMatchObject({ index: 1, location: [0, 0] });
    expect(imported.router.sourceFor!([[7.4277, 43.7392], [7.4197, 43.7311]], 'car')).toBe('embedded');
    expect(imported.router.sourceFor!([[2.35, 48.85], [7.4197, 43.7311]], 'car')).toBe('geodesic-estimate');
  });
});
