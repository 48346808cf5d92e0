// The contraction hierarchy on a generated road network (bench/support/generated-roads.ts: grid with
// road classes, oneways, motorways with ramps, restrictions, barriers) through the routing import stage:
// for every mode, tables on the hierarchy equal plain Dijkstra on the base turn graph. No shared
// fixture needed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated, type GeneratedImport } from '../../bench/support/generated-import';
import type { RouterMode } from '../../ports/router';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { SEGMENT_FERRY } from '../../core/routing/network';
import { segmentMidpoints } from './support';

let dir: string;
let imported: GeneratedImport;
let loaded: LoadedNetwork;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-generated-ch-'));
  // 48 × 48 intersections: a motorway each way with interchanges, primary crossings with restrictions.
  imported = await importGenerated(48, 3, dir);
  loaded = imported.load();
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the generated network has what makes contraction realistic', () => {
  const s = imported.summary;
  expect(imported.counts.relations).toBeGreaterThan(0);
  expect(s['turn restrictions']).toBeGreaterThan(0);
  const n = loaded.routers.car.network;
  const classes = new Set(Array.from(n.wayClass));
  expect(classes.size).toBeGreaterThanOrEqual(6); // motorway, link, primary, secondary, tertiary, residential
  // Oneways: some car segments are open in one direction only.
  const car = loaded.routers.car.mode;
  let oneway = 0;
  for (let i = 0; i < car.segmentForward.length; i++) if ((car.segmentForward[i] < 0) !== (car.segmentBackward[i] < 0)) oneway++;
  expect(oneway).toBeGreaterThan(50);
});

test.each(['car', 'truck', 'bike', 'foot'] as RouterMode[])('%s: the hierarchy\'s 30 × 30 table equals Dijkstra on the base graph', (mode) => {
  const r = loaded.routers[mode];
  const snaps = segmentMidpoints(r, 30, mode.length * 17).map((p) => r.snap(p, 1000)!);
  const ch = r.table(snaps, snaps);
  // No ferry in the generated network: avoiding ferries runs the plain search over the same graph.
  const plain = r.table(snaps, snaps, SEGMENT_FERRY);
  // Shortcuts keep their weight as a 32-bit sum of their children's: equal within rounding, not bit for bit
  // (rounding both to 0.1 s once split 2906.45 s into 2906.4 and 2906.5).
  const differing = Array.from(ch.cost, (c, k) => (c === plain.cost[k] || Math.abs(c - plain.cost[k]) <= 0.05 ? null : [k, c, plain.cost[k]])).filter((d) => d !== null);
  expect(differing).toEqual([]);
  const finite = Array.from(ch.cost).filter((c) => Number.isFinite(c)).length;
  expect(finite).toBeGreaterThan(700);
});
