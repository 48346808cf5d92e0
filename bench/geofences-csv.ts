// Geofence CSV import: parse + validate 100,000 generated circle rows (seeded), rows per second.
//
// Run: npm run bench:build && node --expose-gc dist/bench/geofences-csv.js
// Options: ROWS=100000 RUNS=5 environment variables.
import { parseGeofenceCsv } from '../importers/geofences-csv';
import { summarize as stats } from './support/stats';
import { generateStoreCsv } from './support/store-csv';

const generateCsv = (rows: number, seed: number): string => generateStoreCsv(rows, seed, { enabledAndIp: true });

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 5);


function main(): void {
  const csv = generateCsv(ROWS, 42);
  console.log(`geofences-csv: ${ROWS} circle rows, ${(Buffer.byteLength(csv) / 1e6).toFixed(1)} MB, ${RUNS} runs, node ${process.version}`);

  // Sink: results feed a checksum printed at the end, so no work can be optimised away.
  let sink = 0;
  // Warm-up on a slice, so the timed runs measure compiled code.
  for (let i = 0; i < 3; i++) sink += parseGeofenceCsv(generateCsv(5000, 7)).rows.length;

  const rate = (t: number): string => `${Math.round(ROWS / t).toLocaleString('en-US')} rows/s`;
  const modes: Array<{ name: string; run: () => number }> = [
    {
      name: 'collect rows',
      run: () => {
        const result = parseGeofenceCsv(csv);
        if (result.errors.length > 0) throw new Error(`unexpected errors: ${JSON.stringify(result.errors.slice(0, 3))}`);
        return result.rows.length + result.rows[result.rows.length - 1].input.geometryRadius;
      },
    },
    {
      name: 'onRow (rows not kept)',
      run: () => {
        let n = 0;
        const result = parseGeofenceCsv(csv, { onRow: (r) => (n += r.input.geometryRadius) });
        if (result.errors.length > 0) throw new Error('unexpected errors');
        return n;
      },
    },
  ];
  for (const mode of modes) {
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      global.gc?.();
      const t0 = process.hrtime.bigint();
      sink += mode.run();
      seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    const s = stats(seconds);
    console.log(`${mode.name}`);
    console.log(`  time  min ${s.min.toFixed(3)} s  median ${s.median.toFixed(3)} s  mean ${s.mean.toFixed(3)} s`);
    console.log(`  rate  best ${rate(s.min)}  median ${rate(s.median)}  mean ${rate(s.mean)}`);
  }

  if (global.gc) {
    // Memory held by one collected result, measured between full collections.
    global.gc();
    const before = process.memoryUsage().heapUsed;
    const kept = parseGeofenceCsv(csv);
    global.gc();
    const held = process.memoryUsage().heapUsed - before;
    sink += kept.rows.length;
    console.log(`heap  ${(held / 1e6).toFixed(0)} MB held by one collected result, ${Math.round(held / ROWS)} bytes a row (mostly the 33-point circle ring)`);
  } else {
    console.log('heap  run node with --expose-gc to measure the memory a collected result holds');
  }
  console.log(`sink ${sink}`);
}

main();
