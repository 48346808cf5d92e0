// Contraction engine benchmark on a real mode graph (core/routing/contraction.ts): the base arcs of an
// imported `<mode>.bin` (a data directory kept by bench/import-region.ts with KEEP=1) are contracted again
// here, vertex by vertex (the lazy priority queue) and in rounds (contraction-rounds.ts) on 1 and on
// THREADS threads; for each: CPU seconds (every thread of the process), wall seconds, the shortcuts, the
// rounds with the vertices judged for independence and the priorities simulated, and the hierarchy's query quality (bench/support/hierarchy-quality.ts: mean vertices an upward
// search settles; distances of 300 seeded pairs against the first hierarchy's). The rounds' hierarchies
// must be byte for byte the same whatever the threads: it says so.
//
// Run: npm run bench:build && node --expose-gc dist/bench/contraction-file.js DATA_DIR/routing/car.bin [THREADS=2] [WHICH=serial,rounds]
// (WHICH may also name `full`: in rounds on one thread, judging every vertex's independence every round.)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { cpuSeconds, shortcutCount } from './support/hierarchy-figures';
import { differingCosts, hierarchyQuality } from './support/hierarchy-quality';
import { contract, type BaseArcs, type Hierarchy, type RoundStats } from '../core/routing/contraction';
import { decodeArrays } from '../core/formats/routing/typed-container';
import { startContractionHelpers } from '../importers/osm/stages/routing/contraction-helpers';

function digest(h: Hierarchy): string {
  const hash = crypto.createHash('sha256');
  for (const a of [h.rank, h.childA, h.childB, h.forward.first, h.forward.other, h.forward.weight, h.forward.distance, h.forward.edge,
    h.backward.first, h.backward.other, h.backward.weight, h.backward.distance, h.backward.edge]) hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return hash.digest('hex').slice(0, 16);
}

function main(): void {
  const file = process.argv[2];
  if (!file || !fs.existsSync(file)) throw new Error('usage: node dist/bench/contraction-file.js MODE.bin [THREADS] [serial,rounds]');
  const threads = Number(process.argv[3] ?? 2);
  const which = (process.argv[4] ?? 'serial,rounds').split(',');
  const { meta, arrays } = decodeArrays(fs.readFileSync(file));
  const vertexCount = (meta as { vertexCount: number }).vertexCount;
  const arcs: BaseArcs = {
    vertexCount, tail: arrays.arcTail as Uint32Array, head: arrays.arcHead as Uint32Array,
    weight: arrays.arcWeight as Float32Array, distance: arrays.arcDistance as Float32Array,
  };
  const open = arcs.weight.filter((w) => w >= 0).length;
  console.log(`${file}: ${vertexCount.toLocaleString('en-US')} vertices, ${arcs.tail.length.toLocaleString('en-US')} arcs (${open.toLocaleString('en-US')} open); load average ${os.loadavg()[0].toFixed(1)}`);
  console.log('| contraction | CPU s | wall s | shortcuts | per open arc | upward settled (mean) | pairs differing | digest | rounds / checks / simulations | load |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let reference: Float64Array | undefined;
  const run = (label: string, options: Parameters<typeof contract>[2]): void => {
    (globalThis as { gc?: () => void }).gc?.();
    let phaseLog = '';
    let stats: RoundStats | undefined;
    const cpu0 = cpuSeconds();
    const wall0 = performance.now();
    const h = contract(arcs, (step, done) => {
      if (step === 'contraction' && done === vertexCount) phaseLog = ` (ordering+contraction ${((performance.now() - wall0) / 1000).toFixed(1)} s wall)`;
    }, { ...options, onRounds: (s) => { stats = s; } });
    const cpu = cpuSeconds() - cpu0;
    const wall = (performance.now() - wall0) / 1000;
    const made = shortcutCount(h);
    const q = hierarchyQuality(h, vertexCount, arcs.tail, 300, 5);
    reference ??= q.costs;
    console.log(`| ${label}${phaseLog} | ${cpu.toFixed(1)} | ${wall.toFixed(1)} | ${made.toLocaleString('en-US')} | ${(made / open).toFixed(2)} | ${q.meanSettled.toFixed(0)} | ${differingCosts(reference, q.costs)} / 300 | ${digest(h)} | ${stats ? `${stats.rounds.toLocaleString('en-US')} / ${stats.checks.toLocaleString('en-US')} / ${stats.simulations.toLocaleString('en-US')}` : '-'} | ${os.loadavg()[0].toFixed(1)} |`);
  };
  if (which.includes('serial')) run('vertex by vertex', { roundsFrom: Infinity });
  if (which.includes('full')) run('in rounds, 1 thread, every vertex judged', { roundsFrom: 0, threads: 1, independence: 'full' });
  if (which.includes('rounds')) {
    run('in rounds, 1 thread', { roundsFrom: 0, threads: 1 });
    if (threads > 1) run(`in rounds, ${threads} threads`, { roundsFrom: 0, threads, startHelpers: (count, control, n, first, seen) => startContractionHelpers(count, control, n, first, seen) });
  }
}

main();
