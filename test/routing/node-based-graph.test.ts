// A mode whose turns are all free (foot) is contracted node-based (core/routing/node-mode-graph.ts);
// the same mode built edge-based, as every mode was before, must answer the same: tables, routes (length,
// time, the roads taken) and isochrones, on a generated network with oneways and with barrier vertices
// that stop walkers. The node-based graph is also far smaller, which is why it exists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { prng } from '../../bench/support/prng';
import type { LngLat } from '../../ports/router';
import type { Polylines } from '../../core/isochrone/polylines';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { buildModeGraph } from '../../core/routing/mode-graph';
import { ModeRouter } from '../../core/routing/mode-router';
import type { ModeGraph } from '../../core/routing/network';
import { SegmentIndex } from '../../core/routing/segment-index';

let dir: string;
let loaded: LoadedNetwork;
let nodeBased: ModeRouter;
let edgeBased: ModeRouter;
let nodeGraph: ModeGraph;
let edgeGraph: ModeGraph;
let points: LngLat[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-node-based-'));
  loaded = (await importGenerated(32, 5, dir)).load();
  const foot = loaded.routers.foot;
  const network = foot.network;
  const random = prng(35);
  // Barriers on a few vertices the walkers use, so that splitting them is exercised.
  const blocked = new Set<number>();
  while (blocked.size < 40) blocked.add(Math.floor(random() * network.vertexPoint.length));
  const input = {
    network, segmentForward: foot.mode.segmentForward, segmentBackward: foot.mode.segmentBackward,
    restrictions: [], turnCosts: null, blockedVertices: blocked,
  };
  nodeGraph = buildModeGraph(input);
  edgeGraph = buildModeGraph({ ...input, edgeBased: true });
  const index = new SegmentIndex(network);
  nodeBased = new ModeRouter(network, nodeGraph, index, 'walking');
  edgeBased = new ModeRouter(network, edgeGraph, index, 'walking');
  points = [];
  while (points.length < 24) {
    const s = Math.floor(random() * network.segmentFrom.length);
    if (edgeGraph.segmentMain[s] !== 1) continue;
    const p = Math.floor((network.segmentStart[s] + network.segmentStart[s + 1] - 1) / 2);
    points.push([network.pointLon[p] / 1e7 + (random() - 0.5) * 1e-4, network.pointLat[p] / 1e7 + (random() - 0.5) * 1e-4]);
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('free turns give a node-based graph, about half the vertices and fewer shortcuts than edge-based', () => {
  expect(nodeGraph.kind).toBe('node');
  expect(edgeGraph.kind).toBe('edge');
  // The imported foot graph (the routing stage's own choice) is node-based too.
  expect(loaded.routers.foot.mode.kind).toBe('node');
  expect(loaded.routers.car.mode.kind).toBe('edge');
  expect(nodeGraph.vertexCount).toBeLessThan(edgeGraph.vertexCount * 0.6);
  const shortcuts = (g: ModeGraph) => g.hierarchy.childA.filter((a) => a >= 0).length;
  expect(shortcuts(nodeGraph)).toBeLessThan(shortcuts(edgeGraph));
  // The large connected part: the same, but for roads the edge-based graph could only leave by turning
  // back where it allows no u-turn (not at a dead end), which node-based walkers may.
  const differ = nodeGraph.segmentMain.filter((m, s) => m !== edgeGraph.segmentMain[s]).length;
  expect(nodeGraph.segmentMain.filter((m, s) => m === 0 && edgeGraph.segmentMain[s] === 1).length).toBe(0);
  expect(differ).toBeLessThan(nodeGraph.segmentMain.length * 0.01);
});

test('the same tables, on the hierarchy and with the plain search', () => {
  const snapsNode = points.map((p) => nodeBased.snap(p, 500)!);
  const snapsEdge = points.map((p) => edgeBased.snap(p, 500)!);
  expect(snapsNode.map((s) => s.segment)).toEqual(snapsEdge.map((s) => s.segment));
  for (const avoid of [0, 4 /* ferries: none here, so the plain search over the same roads */]) {
    const a = nodeBased.table(snapsNode, snapsNode, avoid);
    const b = edgeBased.table(snapsEdge, snapsEdge, avoid);
    const differing = Array.from(a.cost, (c, k) => (c === b.cost[k] || Math.abs(c - b.cost[k]) <= 0.05 ? null : [k, c, b.cost[k]])).filter((d) => d !== null);
    expect(differing).toEqual([]);
    expect(Array.from(a.metres, (m, k) => Math.abs(m - b.metres[k]) <= 0.5 || m === b.metres[k]).every(Boolean)).toBe(true);
    expect(Array.from(a.cost).filter(Number.isFinite).length).toBeGreaterThan(400);
  }
});

test('the same routes: length and time', () => {
  let compared = 0;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const from = [nodeBased.snap(points[i], 500)!, nodeBased.snap(points[i + 1], 500)!];
    const a = nodeBased.route(from);
    const b = edgeBased.route([edgeBased.snap(points[i], 500)!, edgeBased.snap(points[i + 1], 500)!]);
    expect(a === null).toBe(b === null);
    if (a === null || b === null) continue;
    expect(Math.abs(a[0].distance - b[0].distance)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(a[0].duration - b[0].duration)).toBeLessThanOrEqual(0.2);
    compared++;
  }
  expect(compared).toBeGreaterThan(8);
});

test('the same isochrone: what one reaches, the other reaches', () => {
  // From the first point the random barriers leave room to walk (one may be walled in by them).
  const origin = points.find((p) => nodeBased.reach(nodeBased.snap(p, 500)!, 300).count > 10);
  expect(origin).toBeDefined();
  const a = lineList(nodeBased.reach(nodeBased.snap(origin!, 500)!, 300));
  const b = lineList(edgeBased.reach(edgeBased.snap(origin!, 500)!, 300));
  expect(a.length).toBeGreaterThan(10);
  // Edge-based the search labels segment directions, node-based it walks out of each reached vertex, so
  // the same roads come split differently (node-based may also walk back along a road it arrived by): the
  // end of every line of one lies on a line of the other.
  const off = (ends: LngLat[][], lines: LngLat[][]) => ends.map((l) => l[l.length - 1]).filter((p) => !lines.some((line) => onLine(p, line)));
  expect(off(b, a)).toEqual([]);
  expect(off(a, b)).toEqual([]);
});

function lineList(p: Polylines): LngLat[][] {
  const out: LngLat[][] = [];
  for (let i = 0; i < p.count; i++) {
    const line: LngLat[] = [];
    for (let k = p.starts[i]; k < p.end(i); k++) line.push([p.coords[2 * k], p.coords[2 * k + 1]]);
    out.push(line);
  }
  return out;
}

/** Whether p lies within a metre of the polyline (equirectangular metres: the lines are short). */
function onLine(p: LngLat, line: LngLat[]): boolean {
  const k = Math.cos((p[1] * Math.PI) / 180) * 111_320;
  const xy = (q: LngLat) => [q[0] * k, q[1] * 111_320];
  const [px, py] = xy(p);
  for (let i = 0; i + 1 < line.length; i++) {
    const [ax, ay] = xy(line[i]);
    const [bx, by] = xy(line[i + 1]);
    const dx = bx - ax, dy = by - ay;
    const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
    if (Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) <= 1) return true;
  }
  return false;
}
