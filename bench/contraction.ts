// Contraction engine benchmark (core/routing/contraction.ts) on a seeded generated road network
// (bench/support/generated-roads.ts): the car graph of the routing stage is built once, then contracted
// again here, priority-ordered vertex by vertex, in the order it produced (what truck does with car's
// order), and in rounds (contraction-rounds.ts) on one thread and on THREADS, each in CPU seconds (every
// thread of the process) and wall seconds, with its shortcuts and the mean vertices an upward search
// settles (bench/support/hierarchy-quality.ts), and whether its distances equal the first one's on 300
// seeded pairs. The figures are the engine's alone: no reading, no turns, no file.
//
// Run: npm run bench:build && node --expose-gc dist/bench/contraction.js [SIDE=160] [SEED=7] [THREADS=2]
// (SIDE × SIDE intersections; 160 is about 110 k edge-based vertices, 300 about 360 k.)
// Last run (2026-11-27, 160, seed 7, load average 17-20 on 2 cores): 110,654 vertices, 283,484 arcs;
// by priority 25.7 CPU-s, in the order found 14.1 CPU-s, 987,898 shortcuts both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, shortcutCount } from './support/hierarchy-figures';
import { contract, orderByRank, type BaseArcs, type Hierarchy } from '../core/routing/contraction';
import { importGenerated } from './support/generated-import';
import { differingCosts, hierarchyQuality } from './support/hierarchy-quality';
import { startContractionHelpers } from '../importers/osm/stages/routing/contraction-helpers';


async function main(): Promise<void> {
  const side = Number(process.argv[2] ?? 160);
  const seed = Number(process.argv[3] ?? 7);
  const threads = Number(process.argv[4] ?? 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-contraction-bench-'));
  try {
    const imported = await importGenerated(side, seed, dir, { carOnly: true });
    const mode = imported.car().mode;
    const arcs: BaseArcs = { vertexCount: mode.vertexCount, tail: mode.arcTail, head: mode.arcHead, weight: mode.arcWeight, distance: mode.arcDistance };
    console.log(`generated ${side} × ${side} (seed ${seed}): ${arcs.vertexCount.toLocaleString('en-US')} vertices, ${arcs.tail.length.toLocaleString('en-US')} arcs; load average ${os.loadavg()[0].toFixed(1)}`);
    console.log('| contraction | CPU s | wall s | shortcuts | µs per vertex | upward settled | pairs differing |');
    console.log('|---|---|---|---|---|---|---|');
    let reference: Float64Array | undefined;
    const run = (label: string, options: Parameters<typeof contract>[2]): Hierarchy => {
      (globalThis as { gc?: () => void }).gc?.();
      const started = cpuSeconds();
      const wall = performance.now();
      const h = contract(arcs, undefined, options);
      const cpu = cpuSeconds() - started;
      const q = hierarchyQuality(h, arcs.vertexCount, arcs.tail, 300, 5);
      reference ??= q.costs;
      console.log(`| ${label} | ${cpu.toFixed(2)} | ${((performance.now() - wall) / 1000).toFixed(2)} | ${shortcutCount(h).toLocaleString('en-US')} | ${((cpu / arcs.vertexCount) * 1e6).toFixed(1)} | ${q.meanSettled.toFixed(0)} | ${differingCosts(reference, q.costs)} / 300 |`);
      return h;
    };
    const ordered = run('by priority', { roundsFrom: Infinity });
    run('in the order found', { order: orderByRank(ordered.rank, arcs.vertexCount, arcs.vertexCount, (v) => v) });
    run('in rounds, 1 thread', { roundsFrom: 0, threads: 1 });
    if (threads > 1) run(`in rounds, ${threads} threads`, { roundsFrom: 0, threads, startHelpers: (count, control, n, first, seen) => startContractionHelpers(count, control, n, first, seen) });
    console.log(`load average ${os.loadavg()[0].toFixed(1)} at the end`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
