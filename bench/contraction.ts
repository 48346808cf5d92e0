// Contraction engine benchmark (core/routing/contraction.ts) on a seeded generated road network
// (bench/support/generated-roads.ts): the car graph of the routing stage is built once, then contracted
// again here, priority-ordered and then in the order it produced (what truck does with car's order),
// each in CPU seconds, with its shortcuts and the heap it allocated. The figures are the engine's alone:
// no reading, no turns, no file.
//
// Run: npm run bench:build && node --expose-gc dist/bench/contraction.js [SIDE=160] [SEED=7]
// (SIDE × SIDE intersections; 160 is about 110 k edge-based vertices, 300 about 360 k.)
// Last run (2026-11-27, 160, seed 7, load average 17-20 on 2 cores): 110,654 vertices, 283,484 arcs;
// by priority 25.7 CPU-s, in the order found 14.1 CPU-s, 987,898 shortcuts both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, shortcutCount } from './support/hierarchy-figures';
import { contract, orderByRank, type BaseArcs, type Hierarchy } from '../core/routing/contraction';
import { importGenerated } from './support/generated-import';


async function main(): Promise<void> {
  const side = Number(process.argv[2] ?? 160);
  const seed = Number(process.argv[3] ?? 7);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-contraction-bench-'));
  try {
    const imported = await importGenerated(side, seed, dir, { carOnly: true });
    const mode = imported.car().mode;
    const arcs: BaseArcs = { vertexCount: mode.vertexCount, tail: mode.arcTail, head: mode.arcHead, weight: mode.arcWeight, distance: mode.arcDistance };
    console.log(`generated ${side} × ${side} (seed ${seed}): ${arcs.vertexCount.toLocaleString('en-US')} vertices, ${arcs.tail.length.toLocaleString('en-US')} arcs; load average ${os.loadavg()[0].toFixed(1)}`);
    console.log('| contraction | CPU s | shortcuts | µs per vertex |');
    console.log('|---|---|---|---|');
    const run = (label: string, order?: Uint32Array): Hierarchy => {
      (globalThis as { gc?: () => void }).gc?.();
      const started = cpuSeconds();
      const h = contract(arcs, undefined, { order });
      const cpu = cpuSeconds() - started;
      console.log(`| ${label} | ${cpu.toFixed(2)} | ${shortcutCount(h).toLocaleString('en-US')} | ${((cpu / arcs.vertexCount) * 1e6).toFixed(1)} |`);
      return h;
    };
    const ordered = run('by priority');
    run('in the order found', orderByRank(ordered.rank, arcs.vertexCount, arcs.vertexCount, (v) => v));
    console.log(`load average ${os.loadavg()[0].toFixed(1)} at the end`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
