// Contraction orders for an edge-based mode derived from another mode's hierarchy (bench/support/derived-orders.ts),
// on the graphs of an import kept by bench/import-region.ts (KEEP=1): the mode's base arcs are contracted
// again here in each order and compared with its own priority order: CPU seconds (the process's), shortcuts,
// the mean vertices an upward search settles (bench/support/hierarchy-quality.ts) and the distances of 300
// seeded pairs against the first run's (any order answers exactly: a pair differing is a bug).
//
// Orders (WHICH, comma-separated):
//   own         the mode's own priority order (what the import does for car and bike)
//   car         car's rank as it is (car's closed directions: isolated vertices in car's graph, ranked first by car's queue)
//   car-foot    car's order, car's closed directions first in the order of foot's ranks
//   foot        foot's node-based rank turned into a direction rank (lower end, then higher end)
//   stored      the order of the hierarchy in the mode's file (the import's: a check that the bench rebuilds it)
//
// Run: npm run bench:build && node --expose-gc dist/bench/contraction-orders.js DATA_DIR/extracts/NAME/routing [MODE=bike] [WHICH=own,car,car-foot,foot]
// Last run (2026-11-27, Baltimore ×4×4 kept by import-region.ts at main 71abab4, bike: 329,816 vertices,
// 308,792 open directions of which 82,308 closed to car; load average 19-22 on 2 cores): own order 29.3 and
// 29.4 CPU-s, 1,859,651 shortcuts, 650 settled; car's rank as it is 84.2 CPU-s, 3,308,684, 2,083; car's
// order with car-closed directions first in foot's 0.2 + 76.3 CPU-s, 2,895,328, 2,045; foot's node ranks
// stopped unfinished after about 320 CPU-s (11 times the own order). Every order 0 / 300 pairs differing.
import os from 'node:os';
import { cpuSeconds, shortcutCount } from './support/hierarchy-figures';
import { differingCosts, hierarchyQuality } from './support/hierarchy-quality';
import { contract, type BaseArcs, type ContractionOptions } from '../core/routing/contraction';
import { orderOfDirections, rankFollowing, rankFromNodeRanks } from './support/derived-orders';
import { readModeGraph } from '../adapters/router/embedded/network-loader';
import type { ModeGraph } from '../core/routing/network';

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node dist/bench/contraction-orders.js ROUTING_DIR [MODE] [WHICH]');
  const modeName = (process.argv[3] ?? 'bike') as 'car' | 'truck' | 'bike';
  const which = (process.argv[4] ?? 'own,car,car-foot,foot').split(',');
  const mode = readModeGraph(dir, modeName);
  const codes = mode.segmentForward.length * 2;
  const duplicateOf = mode.duplicateOf ?? new Uint32Array(0);
  const arcs: BaseArcs = { vertexCount: mode.vertexCount, tail: mode.arcTail, head: mode.arcHead, weight: mode.arcWeight, distance: mode.arcDistance };
  const lazy: { car?: ModeGraph; foot?: ModeGraph } = {};
  const car = (): ModeGraph => (lazy.car ??= readModeGraph(dir, 'car'));
  const foot = (): ModeGraph => (lazy.foot ??= readModeGraph(dir, 'foot'));
  const carOpen = (c: number): boolean => ((c & 1) === 0 ? car().segmentForward[c >> 1] : car().segmentBackward[c >> 1]) >= 0;
  const open = (c: number): boolean => ((c & 1) === 0 ? mode.segmentForward[c >> 1] : mode.segmentBackward[c >> 1]) >= 0;
  let openCodes = 0, carClosed = 0;
  for (let c = 0; c < codes; c++) {
    if (!open(c)) continue;
    openCodes++;
    if (which.some((w) => w.startsWith('car')) && !carOpen(c)) carClosed++;
  }
  console.log(`${dir} ${modeName}: ${mode.vertexCount.toLocaleString('en-US')} vertices (${openCodes.toLocaleString('en-US')} open directions, ${carClosed.toLocaleString('en-US')} of them closed to car), ${arcs.tail.length.toLocaleString('en-US')} arcs, stored hierarchy ${shortcutCount(mode.hierarchy).toLocaleString('en-US')} shortcuts; load average ${os.loadavg()[0].toFixed(1)}`);
  console.log('| order | derive CPU s | contract CPU s | shortcuts | upward settled (mean) | pairs differing | load |');
  console.log('|---|---|---|---|---|---|---|');
  let reference: Float64Array | undefined;
  const run = (label: string, options: () => ContractionOptions): void => {
    (globalThis as { gc?: () => void }).gc?.();
    const d0 = cpuSeconds();
    const o = options();
    const c0 = cpuSeconds();
    const h = contract(arcs, undefined, o);
    const cpu = cpuSeconds() - c0;
    const q = hierarchyQuality(h, arcs.vertexCount, arcs.tail, 300, 5);
    reference ??= q.costs;
    console.log(`| ${label} | ${(c0 - d0).toFixed(1)} | ${cpu.toFixed(1)} | ${shortcutCount(h).toLocaleString('en-US')} | ${q.meanSettled.toFixed(0)} | ${differingCosts(reference, q.costs)} / 300 | ${os.loadavg()[0].toFixed(1)} |`);
  };
  const carClosedFirst = (first?: Uint32Array): ContractionOptions => ({
    order: orderOfDirections(rankFollowing(codes, car().hierarchy.rank, carOpen, first), arcs.vertexCount, duplicateOf),
  });
  for (const w of which) {
    if (w === 'own') run('own priority order', () => ({}));
    else if (w === 'stored') run('stored hierarchy\'s order', () => ({ order: orderOfDirections(mode.hierarchy.rank.subarray(0, codes), arcs.vertexCount, duplicateOf) }));
    else if (w === 'car') run('car\'s rank as it is', () => ({ order: orderOfDirections(car().hierarchy.rank.subarray(0, codes), arcs.vertexCount, duplicateOf) }));
    else if (w === 'car-foot') {
      run('car\'s order, car-closed first in foot\'s', () => carClosedFirst(rankFromNodeRanks(codes, foot().hierarchy.rank, foot().arcTail, foot().arcHead)));
    } else if (w === 'foot') run('foot\'s node ranks', () => ({ order: orderOfDirections(rankFromNodeRanks(codes, foot().hierarchy.rank, foot().arcTail, foot().arcHead), arcs.vertexCount, duplicateOf) }));
    else throw new Error(`unknown order ${w}`);
  }
  console.log(`load average ${os.loadavg()[0].toFixed(1)} at the end`);
}

main();
