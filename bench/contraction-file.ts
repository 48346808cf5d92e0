// Contraction engine benchmark on a real mode graph (core/routing/contraction.ts): the base arcs of an
// imported `<mode>.bin` (a data directory kept by bench/import-region.ts with KEEP=1) are contracted again
// here, by priority, in CPU seconds, with the shortcuts made, the shortcuts per base arc and the heap and
// array buffers at the end. The figures are the engine's alone: no reading of OSM, no turns, no file.
//
// Run: npm run bench:build && node --expose-gc dist/bench/contraction-file.js DATA_DIR/routing/car.bin
import fs from 'node:fs';
import os from 'node:os';
import { cpuSeconds, shortcutCount } from './support/hierarchy-figures';
import { contract, type BaseArcs, type Hierarchy } from '../core/routing/contraction';
import { decodeArrays } from '../core/formats/routing/typed-container';


function main(): void {
  const file = process.argv[2];
  if (!file || !fs.existsSync(file)) throw new Error('usage: node dist/bench/contraction-file.js MODE.bin');
  const { meta, arrays } = decodeArrays(fs.readFileSync(file));
  const vertexCount = (meta as { vertexCount: number }).vertexCount;
  const arcs: BaseArcs = {
    vertexCount, tail: arrays.arcTail as Uint32Array, head: arrays.arcHead as Uint32Array,
    weight: arrays.arcWeight as Float32Array, distance: arrays.arcDistance as Float32Array,
  };
  const open = arcs.weight.filter((w) => w >= 0).length;
  console.log(`${file}: ${vertexCount.toLocaleString('en-US')} vertices, ${arcs.tail.length.toLocaleString('en-US')} arcs (${open.toLocaleString('en-US')} open); load average ${os.loadavg()[0].toFixed(1)}`);
  (globalThis as { gc?: () => void }).gc?.();
  const started = cpuSeconds();
  const h = contract(arcs);
  const cpu = cpuSeconds() - started;
  const m = process.memoryUsage();
  const made = shortcutCount(h);
  console.log(`by priority: ${cpu.toFixed(2)} CPU-s, ${made.toLocaleString('en-US')} shortcuts (${(made / open).toFixed(2)} per open arc), heap + array buffers ${((m.heapUsed + m.arrayBuffers) / 2 ** 20).toFixed(0)} MiB; load average ${os.loadavg()[0].toFixed(1)}`);
}

main();
