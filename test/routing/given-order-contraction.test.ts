// A contraction in a given order (core/routing/contraction.ts `order`, what truck does with car's order)
// on the car graph of a generated network: in the order the priority queue found it rebuilds the very
// same hierarchy; in another order (here a perturbed one; truck follows car's) the tables are the same
// as the priority-ordered hierarchy's, which generated-hierarchy.test.ts checks against Dijkstra.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { prng } from '../../bench/support/prng';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { contract, orderByRank, type BaseArcs } from '../../core/routing/contraction';
import { ModeRouter } from '../../core/routing/mode-router';
import { segmentMidpoints } from './support';
import { SegmentIndex } from '../../core/routing/segment-index';
import type { ModeGraph } from '../../core/routing/network';

let dir: string;
let loaded: LoadedNetwork;
let car: ModeRouter;
let arcs: BaseArcs;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-given-order-'));
  loaded = (await importGenerated(40, 11, dir)).load();
  car = loaded.routers.car;
  const m = car.mode;
  arcs = { vertexCount: m.vertexCount, tail: m.arcTail, head: m.arcHead, weight: m.arcWeight, distance: m.arcDistance };
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function table(router: ModeRouter, seed: number): Float64Array {
  const snaps = segmentMidpoints(router, 25, seed).map((p) => router.snap(p, 1000)!);
  return router.table(snaps, snaps).cost;
}

function withHierarchy(order: Uint32Array): ModeRouter {
  const graph: ModeGraph = { ...car.mode, hierarchy: contract(arcs, undefined, { order }) };
  return new ModeRouter(car.network, graph, new SegmentIndex(car.network), 'driving');
}

test('contracted in the order the priorities found, the hierarchy is the same, edge for edge', () => {
  const h = contract(arcs);
  const again = contract(arcs, undefined, { order: orderByRank(h.rank, arcs.vertexCount, arcs.vertexCount, (v) => v) });
  expect(Array.from(again.rank)).toEqual(Array.from(h.rank));
  expect(again.childA.length).toBe(h.childA.length);
  expect(Buffer.from(again.childA.buffer).equals(Buffer.from(h.childA.buffer))).toBe(true);
  expect(Buffer.from(again.childB.buffer).equals(Buffer.from(h.childB.buffer))).toBe(true);
  expect(Buffer.from(again.forward.other.buffer).equals(Buffer.from(h.forward.other.buffer))).toBe(true);
  expect(Buffer.from(again.backward.weight.buffer).equals(Buffer.from(h.backward.weight.buffer))).toBe(true);
});

test('contracted in another order, the tables are the same', () => {
  // The order found with neighbours in it swapped at random: a different hierarchy, but not a blind
  // shuffle, whose shortcuts grow without bound (minutes for this small graph).
  const random = prng(3);
  const order = orderByRank(car.mode.hierarchy.rank, arcs.vertexCount, arcs.vertexCount, (v) => v);
  for (let i = 0; i + 1 < order.length; i += 2) if (random() < 0.5) [order[i], order[i + 1]] = [order[i + 1], order[i]];
  const other = withHierarchy(order);
  expect(Buffer.from(other.mode.hierarchy.rank.buffer).equals(Buffer.from(car.mode.hierarchy.rank.buffer))).toBe(false);
  const expected = table(car, 21);
  const got = table(other, 21);
  const differing = Array.from(got, (c, k) => (c === expected[k] || Math.abs(c - expected[k]) <= 0.05 ? null : [k, c, expected[k]])).filter((d) => d !== null);
  expect(differing).toEqual([]);
  expect(Array.from(got).filter(Number.isFinite).length).toBeGreaterThan(400);
});

test('truck, contracted in car\'s order, makes about as many shortcuts as car', () => {
  const shortcuts = (m: ModeGraph) => m.hierarchy.childA.filter((a) => a >= 0).length;
  const truck = loaded.routers.truck.mode;
  expect(truck.kind).toBe('edge');
  expect(shortcuts(truck)).toBeLessThan(shortcuts(car.mode) * 1.3);
});

test('a copied vertex comes right after its original; an order naming a vertex twice is refused', () => {
  const rank = Uint32Array.from([2, 0, 1]);
  // Vertices 3 and 4 are copies of 0 and 1.
  const stand = [0, 1];
  expect(Array.from(orderByRank(rank, 5, 3, (v) => stand[v - 3]))).toEqual([1, 4, 2, 0, 3]);
  // Two copies of one vertex follow it in vertex order.
  expect(Array.from(orderByRank(rank, 6, 3, (v) => [1, 0, 1][v - 3]))).toEqual([1, 3, 5, 2, 0, 4]);
  const tiny: BaseArcs = {
    vertexCount: 3, tail: Uint32Array.from([0, 1]), head: Uint32Array.from([1, 2]), weight: Float32Array.from([1, 1]), distance: Float32Array.from([1, 1]),
  };
  expect(() => contract(tiny, undefined, { order: Uint32Array.from([0, 1, 1]) })).toThrow(/twice/);
  expect(() => contract(tiny, undefined, { order: Uint32Array.from([0, 1]) })).toThrow(/order/);
});

test('progress names the shortcuts made so far: at the end, those of the hierarchy', () => {
  const calls: Array<[string, number, number, number]> = [];
  const h = contract(arcs, (step, done, total, shortcuts) => calls.push([step, done, total, shortcuts]));
  const last = calls.filter(([step]) => step === 'contraction').pop()!;
  expect(last.slice(1, 3)).toEqual([arcs.vertexCount, arcs.vertexCount]);
  expect(last[3]).toBe(h.childA.filter((a) => a >= 0).length);
  expect(last[3]).toBeGreaterThan(0);
});
