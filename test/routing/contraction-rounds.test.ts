// Contraction in rounds (core/routing/contraction-rounds.ts), on one thread and with helper threads:
// on the car graph of a generated network its tables equal those of the vertex-by-vertex hierarchy
// (which generated-hierarchy.test.ts checks against Dijkstra), and the hierarchy is byte for byte the
// same on 1, 2 and 3 threads (real worker threads running the TypeScript sources through swc); judging
// independence again only where it can have changed gives the same rounds as judging every vertex.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGenerated } from '../../bench/support/generated-import';
import type { LoadedNetwork } from '../../adapters/router/embedded/network-loader';
import { contract, type BaseArcs, type Hierarchy, type RoundStats } from '../../core/routing/contraction';
import { ModeRouter } from '../../core/routing/mode-router';
import { segmentMidpoints } from './support';
import { SegmentIndex } from '../../core/routing/segment-index';
import type { ModeGraph } from '../../core/routing/network';
import { startContractionHelpers } from '../../importers/osm/stages/routing/contraction-helpers';

const HOOK = path.resolve(__dirname, '../support/swc-require-hook.js');
const HELPER = path.resolve(__dirname, '../../importers/osm/stages/routing/contraction-helper-worker.ts');
const SCRIPT = `require(${JSON.stringify(HOOK)}); require(${JSON.stringify(HELPER)});`;

let dir: string;
let loaded: LoadedNetwork;
let car: ModeRouter;
let arcs: BaseArcs;
let oneThread: Hierarchy;
let oneThreadStats: RoundStats;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-rounds-'));
  loaded = (await importGenerated(40, 11, dir)).load();
  car = loaded.routers.car;
  const m = car.mode;
  arcs = { vertexCount: m.vertexCount, tail: m.arcTail, head: m.arcHead, weight: m.arcWeight, distance: m.arcDistance };
  oneThread = contract(arcs, undefined, { roundsFrom: 0, threads: 1, onRounds: (s) => { oneThreadStats = s; } });
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function table(router: ModeRouter, seed: number): Float64Array {
  const snaps = segmentMidpoints(router, 30, seed).map((p) => router.snap(p, 1000)!);
  return router.table(snaps, snaps).cost;
}

const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function sameHierarchy(a: Hierarchy, b: Hierarchy): string[] {
  const parts: Array<[string, (h: Hierarchy) => ArrayBufferView]> = [
    ['rank', (h) => h.rank], ['childA', (h) => h.childA], ['childB', (h) => h.childB],
    ['forward.first', (h) => h.forward.first], ['forward.other', (h) => h.forward.other], ['forward.weight', (h) => h.forward.weight],
    ['forward.distance', (h) => h.forward.distance], ['forward.edge', (h) => h.forward.edge],
    ['backward.first', (h) => h.backward.first], ['backward.other', (h) => h.backward.other], ['backward.weight', (h) => h.backward.weight],
    ['backward.distance', (h) => h.backward.distance], ['backward.edge', (h) => h.backward.edge],
  ];
  return parts.filter(([, f]) => !bytes(f(a)).equals(bytes(f(b)))).map(([name]) => name);
}

test('in rounds, the tables equal the vertex-by-vertex hierarchy\'s, with about as many shortcuts', () => {
  expect(oneThread.rank).not.toEqual(car.mode.hierarchy.rank);
  const rounds = new ModeRouter(car.network, { ...car.mode, hierarchy: oneThread } as ModeGraph, new SegmentIndex(car.network), 'driving');
  const expected = table(car, 21);
  const got = table(rounds, 21);
  const differing = Array.from(got, (c, k) => (c === expected[k] || Math.abs(c - expected[k]) <= 0.05 ? null : [k, c, expected[k]])).filter((d) => d !== null);
  expect(differing).toEqual([]);
  expect(Array.from(got).filter(Number.isFinite).length).toBeGreaterThan(700);
  const shortcuts = (h: Hierarchy) => h.childA.filter((a) => a >= 0).length;
  expect(shortcuts(oneThread)).toBeLessThan(shortcuts(car.mode.hierarchy) * 1.1);
});

test.each([2, 3])('on %i threads, the same hierarchy byte for byte as on one', (threads) => {
  let started = 0;
  const h = contract(arcs, undefined, {
    roundsFrom: 0, threads,
    startHelpers: (count, control, n, first, seen) => {
      started = count;
      return startContractionHelpers(count, control, n, first, seen, SCRIPT);
    },
  });
  expect(started).toBe(threads - 1);
  expect(sameHierarchy(h, oneThread)).toEqual([]);
}, 120_000);

test('independence judged again only near a change gives the rounds of judging every vertex every round', () => {
  let full: RoundStats | undefined;
  const h = contract(arcs, undefined, { roundsFrom: 0, independence: 'full', onRounds: (s) => { full = s; } });
  expect(sameHierarchy(h, oneThread)).toEqual([]);
  expect(oneThreadStats.rounds).toBe(full!.rounds);
  expect(oneThreadStats.simulations).toBe(full!.simulations);
  // The point of it: far fewer vertices judged.
  expect(oneThreadStats.checks * 3).toBeLessThan(full!.checks);
});

test('threads lent and taken back while it runs (helpers started late, some sitting phases out): the same hierarchy', () => {
  const rounds = oneThreadStats.rounds;
  expect(rounds).toBeGreaterThan(20);
  let asked = 0;
  const groups: Array<[number, number]> = [];
  const h = contract(arcs, undefined, {
    roundsFrom: 0,
    // Asked once before the first priorities, then before every round.
    threads: () => {
      const at = asked++ / rounds;
      return at < 0.2 ? 1 : at < 0.4 ? 2 : at < 0.6 ? 3 : at < 0.8 ? 1 : 2;
    },
    startHelpers: (count, control, n, first, seen) => {
      groups.push([first, count]);
      return startContractionHelpers(count, control, n, first, seen, SCRIPT);
    },
  });
  expect(groups).toEqual([[0, 1], [1, 1]]);
  expect(asked).toBe(rounds + 1);
  expect(sameHierarchy(h, oneThread)).toEqual([]);
}, 120_000);

test('the progress of a contraction in rounds names its steps and ends at every vertex with the hierarchy\'s shortcuts', () => {
  const calls: Array<[string, number, number, number]> = [];
  const h = contract(arcs, (step, done, total, shortcuts) => calls.push([step, done, total, shortcuts]), { roundsFrom: 0 });
  const last = calls.filter(([step]) => step === 'contraction').pop()!;
  expect(last.slice(1, 3)).toEqual([arcs.vertexCount, arcs.vertexCount]);
  expect(last[3]).toBe(h.childA.filter((a) => a >= 0).length);
});
