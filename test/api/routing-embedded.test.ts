// The routing endpoints over HTTP on the embedded router, with Monaco imported through the real
// pipeline: OSRM v6's recorded casino → palace route within 3 % distance and 10 % duration, directions
// in every language, a matrix equal to its pairwise routes, and a point outside the network.
import fs from 'node:fs';
import path from 'node:path';
import { OSM, OSRM, fixturesPresent, serverWithExtracts } from '../routing/support';
import type { TestServer } from '../support/server';

const RECORDED = path.join(OSRM, 'route_casino_to_palace_steps_full.json');
const present = fixturesPresent('routing endpoints on the embedded router', path.join(OSM, 'monaco-osrm.osm.pbf'), RECORDED);
const CASINO = '43.7392,7.4277';
const PALACE = '43.7311,7.4197';
const LARVOTTO = '43.746,7.436';

(present ? describe : describe.skip)('routing endpoints on the embedded router', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithExtracts({ monaco: 'monaco-osrm.osm.pbf' });
  }, 300_000);
  afterAll(() => server?.close());

  const get = (p: string, query: Record<string, string>) => server.request('GET', p, { key: server.keys.testPk, query });

  test('distance by car matches OSRM\'s recorded route (3 % distance, 10 % duration), from the network, not the estimate', async () => {
    const osrm = JSON.parse(fs.readFileSync(RECORDED, 'utf8')).routes[0] as { distance: number; duration: number };
    const res = await get('/v1/route/distance', { origin: CASINO, destination: PALACE, modes: 'car,foot', units: 'metric' });
    expect(res.status).toBe(200);
    expect(res.body.meta.warning).toBeUndefined();
    const car = res.body.routes.car;
    expect(car.estimate).toBeUndefined();
    expect(Math.abs(car.distance.value - osrm.distance) / osrm.distance).toBeLessThan(0.03);
    expect(Math.abs(car.duration.value * 60 - osrm.duration) / osrm.duration).toBeLessThan(0.1);
    // On foot: slower than the car, over a similar distance.
    expect(res.body.routes.foot.duration.value).toBeGreaterThan(car.duration.value);
  });

  test.each(['de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru'])('directions in %s have an instruction for every step', async (lang) => {
    const res = await get('/v1/route/directions', { locations: `${CASINO}|${PALACE}`, lang });
    expect(res.status).toBe(200);
    const steps = res.body.routes[0].legs[0].steps as Array<{ instructions: string; manuever: string }>;
    expect(steps.length).toBeGreaterThan(3);
    for (const s of steps) expect(s.instructions.length).toBeGreaterThan(0);
    expect(steps[steps.length - 1].manuever).toMatch(/^destination/);
  });

  test('a matrix equals its pairwise routes', async () => {
    const points = [CASINO, PALACE, LARVOTTO];
    const res = await get('/v1/route/matrix', { origins: points.join('|'), destinations: points.join('|'), mode: 'car', units: 'metric' });
    expect(res.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        const pair = await get('/v1/route/distance', { origin: points[i], destination: points[j], modes: 'car', units: 'metric' });
        const cell = res.body.matrix[i][j];
        expect([i, j, Math.round(cell.distance.value)]).toEqual([i, j, Math.round(pair.body.routes.car.distance.value)]);
      }
    }
  });

  test('a point outside the imported network gets the straight-line estimate, flagged as such', async () => {
    const res = await get('/v1/route/distance', { origin: CASINO, destination: '48.8566,2.3522', modes: 'car', units: 'metric' });
    expect(res.status).toBe(200);
    expect(res.body.routes.car.estimate).toBe(true);
    expect(res.body.meta.warning).toMatch(/straight-line estimates/);
  });
});
