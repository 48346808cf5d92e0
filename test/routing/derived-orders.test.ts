// The contraction orders bench/contraction-orders.ts measures (bench/support/derived-orders.ts): bike in
// car's order and in an order from foot's node-based ranks, on a generated network. Any order must answer
// as bike's own hierarchy does, and the contraction must really follow the order derived (its rank is the
// order's positions), so the bench's figures are of the orders it names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import { orderOfDirections, rankFollowing, rankFromNodeRanks } from '../../bench/support/derived-orders';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { contract } from '../../core/routing/contraction';
import { ModeRouter } from '../../core/routing/mode-router';
import { SegmentIndex } from '../../core/routing/segment-index';
import type { ModeGraph } from '../../core/routing/network';
import { segmentMidpoints } from './support';

let dir: string;
let loaded: LoadedNetwork;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-derived-orders-'));
  loaded = (await importGenerated(30, 5, dir)).load();
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function table(router: ModeRouter): Float64Array {
  const snaps = segmentMidpoints(router, 20, 9).map((p) => router.snap(p, 1000)!);
  return router.table(snaps, snaps).cost;
}

function contractedIn(order: Uint32Array): ModeRouter {
  const bike = loaded.routers.bike;
  const m = bike.mode;
  const hierarchy = contract({ vertexCount: m.vertexCount, tail: m.arcTail, head: m.arcHead, weight: m.arcWeight, distance: m.arcDistance }, undefined, { order });
  // The contraction followed the order: the k-th vertex named got rank k.
  order.forEach((v, k) => {
    if (hierarchy.rank[v] !== k) throw new Error(`vertex ${v} named ${k}th got rank ${hierarchy.rank[v]}`);
  });
  const graph: ModeGraph = { ...m, hierarchy };
  return new ModeRouter(bike.network, graph, new SegmentIndex(bike.network), 'cycling');
}

const bikeOrders = (): Record<string, Uint32Array> => {
  const bike = loaded.routers.bike.mode, car = loaded.routers.car.mode, foot = loaded.routers.foot.mode;
  const codes = bike.segmentForward.length * 2;
  const dup = bike.duplicateOf ?? new Uint32Array(0);
  const carOpen = (c: number) => ((c & 1) === 0 ? car.segmentForward[c >> 1] : car.segmentBackward[c >> 1]) >= 0;
  const fromFoot = rankFromNodeRanks(codes, foot.hierarchy.rank, foot.arcTail, foot.arcHead);
  return {
    foot: orderOfDirections(fromFoot, bike.vertexCount, dup),
    car: orderOfDirections(rankFollowing(codes, car.hierarchy.rank, carOpen, fromFoot), bike.vertexCount, dup),
  };
};

test('bike contracted in an order derived from foot\'s or car\'s hierarchy answers as in its own', () => {
  expect(loaded.routers.foot.mode.kind).toBe('node');
  const own = table(loaded.routers.bike);
  expect(Array.from(own).filter(Number.isFinite).length).toBeGreaterThan(300);
  for (const [name, order] of Object.entries(bikeOrders())) {
    const got = table(contractedIn(order));
    const differing = Array.from(got, (c, k) => (Math.abs(c - own[k]) <= 0.05 || c === own[k] ? null : [name, k, c, own[k]])).filter((d) => d !== null);
    expect(differing).toEqual([]);
  }
});

test('the derived orders are orders of every vertex, and not bike\'s own', () => {
  const bike = loaded.routers.bike.mode;
  for (const order of Object.values(bikeOrders())) {
    expect(order.length).toBe(bike.vertexCount);
    expect(new Set(order).size).toBe(bike.vertexCount);
    const rank = new Uint32Array(order.length);
    order.forEach((v, k) => (rank[v] = k));
    expect(Buffer.from(rank.buffer).equals(Buffer.from(bike.hierarchy.rank.buffer))).toBe(false);
  }
});

test('a direction ranks by its lower end, then its higher end; followed directions after the others', () => {
  // Three directions over node ranks: c0 joins ranks 2 and 3, c1 ranks 0 and 3, c2 ranks 1 and 2.
  const nodeRank = Uint32Array.from([2, 0, 1, 3]);
  const rank = rankFromNodeRanks(3, nodeRank, Uint32Array.from([0, 1, 2]), Uint32Array.from([3, 3, 0]));
  expect(Array.from(rank)).toEqual([2, 0, 1]);
  // Direction 1 unknown to the followed mode goes first; 0 and 2 by the followed rank (2 before 0).
  expect(Array.from(rankFollowing(3, Uint32Array.from([5, 0, 1]), (c) => c !== 1))).toEqual([2, 0, 1]);
});
