// The four modes of a network share one search workspace (core/routing/ch-query.ts SearchWorkspace): its
// labels are kept for the vertices a search reaches, so what it holds is about the largest mode's vertex
// count in 4-byte slots per direction, not 88 bytes a vertex of every mode, however many routes run. Sharing
// it must not change an answer: routes and tables asked of the modes in turn equal those of routers with a
// workspace each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { SearchWorkspace } from '../../core/routing/ch-query';
import { ModeRouter } from '../../core/routing/mode-router';
import { haversineMeters } from '../../core/geo/sphere';
import { modeTablesNow } from '../../core/routing/mode-tables';
import { prng } from '../../bench/support/prng';

const MODES = ['car', 'truck', 'bike', 'foot'] as const;
const TRAVEL = { car: 'driving', truck: 'driving', bike: 'cycling', foot: 'walking' } as const;
let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-search-workspace-'));
  loaded = (await importGenerated(40, 5, dir)).load();
}, 120_000);

afterAll(() => {
  loaded.release();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the modes share one workspace, which holds slots for the largest mode and the searches, not every vertex of every mode', () => {
  const routers = MODES.map((m) => loaded.routers[m]);
  for (const r of routers) expect(r.workspace).toBe(routers[0].workspace);
  const [w, s, e, n] = loaded.bbox;
  const rnd = prng(3);
  const at = (): [number, number] => [w + rnd() * (e - w), s + rnd() * (n - s)];
  let routed = 0;
  for (let i = 0; i < 100; i++) {
    for (const r of routers) {
      const a = r.snap(at(), 1000), b = r.snap(at(), 1000);
      if (a && b && r.route([a, b], { steps: false }) !== null) routed++;
    }
  }
  expect(routed).toBeGreaterThan(300);
  const vertices = routers.map((r) => r.mode.vertexCount);
  const largest = Math.max(...vertices);
  // Two directions of 4-byte slots for the largest graph, and the labels of the largest search (a few
  // thousand slots here): far below the 88 bytes a vertex of every mode that a workspace each held.
  expect(routers[0].workspace.bytes).toBeLessThan(2 * 4 * largest + 2 * 64 * 8192 + 80_000);
  expect(routers[0].workspace.bytes).toBeLessThan((88 * vertices.reduce((a, b) => a + b, 0)) / 4);
});

test('routes and tables asked of the modes in turn, through the shared workspace, equal those of a fresh workspace each', () => {
  const shared = MODES.map((m) => loaded.routers[m]);
  // A router whose every query starts on a new workspace: nothing of an earlier search can be read.
  const own = MODES.map((m) => {
    const r = loaded.routers[m];
    const tables = modeTablesNow(loaded.network, r.mode);
    const fresh = () => new ModeRouter(loaded.network, r.mode, r.index, TRAVEL[m], tables, new SearchWorkspace());
    return {
      snap: (p: [number, number], radius: number) => r.snap(p, radius),
      route: (snaps: Parameters<ModeRouter['route']>[0]) => fresh().route(snaps),
      table: (a: Parameters<ModeRouter['table']>[0], b: Parameters<ModeRouter['table']>[1]) => fresh().table(a, b),
    };
  });
  const [w, s, e, n] = loaded.bbox;
  const rnd = prng(9);
  const at = (): [number, number] => [w + rnd() * (e - w), s + rnd() * (n - s)];
  type Asked = Pick<ModeRouter, 'snap' | 'route' | 'table'>;
  /** Routes no shorter than the straight line between their ends (a search reading another's labels made 36 m of 2 km). */
  let checked = 0;
  const answers = (routers: Asked[], points: Array<[number, number]>) => {
    const out: unknown[] = [];
    for (let i = 0; i + 1 < points.length; i += 2) {
      for (const r of routers) {
        const a = r.snap(points[i], 1000), b = r.snap(points[i + 1], 1000);
        const routes = a && b ? r.route([a, b]) : null;
        if (a && b && routes) {
          expect(routes[0].distance).toBeGreaterThanOrEqual(0.99 * haversineMeters([a.lon, a.lat], [b.lon, b.lat]) - 1);
          checked++;
        }
        out.push(routes);
      }
    }
    for (const r of routers) {
      const snaps = points.slice(0, 12).map((p) => r.snap(p, 1000)).filter((x) => x !== null);
      out.push(r.table(snaps.slice(0, 6), snaps.slice(6)));
    }
    return out;
  };
  const points = Array.from({ length: 120 }, at);
  const expected = answers(own, points);
  // Most pairs are joined by a road in every mode: the comparison is of routes, not of nulls.
  expect(checked).toBeGreaterThan(200);
  expect(JSON.stringify(answers(shared, points))).toBe(JSON.stringify(expected));
  // Interleaved the other way round too (foot first): no mode's labels leak into another's search.
  expect(JSON.stringify(answers([...shared].reverse(), points))).toBe(JSON.stringify(answers([...own].reverse(), points)));
});
