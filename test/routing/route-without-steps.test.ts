// route/distance, ETAs and the trip and geofence features ask the embedded router for routes without
// steps; the router then does not make them (buildLegWithoutSteps: half the CPU of a 100 km route on a
// region went to steps thrown away). Everything else of the route must be what the route with steps
// says: distance, duration, each leg's distance, duration and summary, and the line point for point.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { prng } from '../../bench/support/prng';

let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-no-steps-'));
  loaded = (await importGenerated(40, 5, dir)).load();
}, 120_000);

afterAll(() => {
  loaded.release();
  fs.rmSync(dir, { recursive: true, force: true });
});

test.each(['car', 'bike', 'foot'] as const)('a %s route without steps is the route with steps less its steps, over 1 to 3 legs', (mode) => {
  const router = loaded.routers[mode];
  const [w, s, e, n] = loaded.bbox;
  const random = prng(3);
  let compared = 0, multiLeg = 0;
  for (let i = 0; i < 60; i++) {
    const count = 2 + (i % 3 === 0 ? 1 : 0);
    const snaps = Array.from({ length: count }, () => router.snap([w + random() * (e - w), s + random() * (n - s)], 1000));
    if (snaps.some((x) => x === null)) continue;
    const options = { continueStraight: mode === 'car' };
    const withSteps = router.route(snaps.map((x) => x!), options);
    const without = router.route(snaps.map((x) => x!), { ...options, steps: false });
    if (withSteps === null) {
      expect(without).toBeNull();
      continue;
    }
    expect(without).not.toBeNull();
    expect(without!.length).toBe(withSteps.length);
    for (const [k, route] of withSteps.entries()) {
      expect(route.legs.some((leg) => leg.steps.length > 0)).toBe(true);
      const stepless = { ...route, legs: route.legs.map((leg) => ({ ...leg, steps: [] })) };
      expect(without![k]).toEqual(stepless);
    }
    compared++;
    if (count > 2) multiLeg++;
  }
  expect(compared).toBeGreaterThan(30);
  expect(multiLeg).toBeGreaterThan(5);
});
