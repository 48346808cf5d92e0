// Geofence CSV import: parse + validate 100,000 generated circle rows (seeded), rows per second.
//
// Run: npx tsc -p tsconfig.json --outDir /tmp/wm-bench && NODE_PATH=$PWD/node_modules node --expose-gc /tmp/wm-bench/bench/geofences-csv.js
// (NODE_PATH because the compiled file lives outside the repo and still needs csv-parse.)
// Options: ROWS=100000 RUNS=5 environment variables.
import { parseGeofenceCsv } from '../data/geofences-csv';

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 5);

/** mulberry32: small, fast, seedable; the same file every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A realistic store list: quoted coordinates, metadata columns, some operating hours and ranges. */
function generateCsv(rows: number, seed: number): string {
  const rnd = seeded(seed);
  const lines = ['description,type,tag,externalId,coordinates,radius,enabled,metadata.brand,metadata.region,operatingHours.Mon,ip'];
  const brands = ['acme', 'globex', 'initech', 'umbrella'];
  for (let i = 0; i < rows; i++) {
    const lng = (-125 + rnd() * 60).toFixed(6);
    const lat = (25 + rnd() * 24).toFixed(6);
    const radius = 10 + Math.floor(rnd() * 990);
    const hours = rnd() < 0.3 ? '"[[""8:00 am"",""8:30 pm""]]"' : '';
    const ip = rnd() < 0.1 ? `10.${i % 256}.0.0/16` : '';
    lines.push(
      `"Store ${i}, Main St",circle,store,s${i},"[${lng},${lat}]",${radius},${rnd() < 0.9 ? 'true' : 'false'},${brands[i % 4]},r${i % 50},${hours},${ip}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function stats(values: number[]): { min: number; median: number; mean: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, mean: values.reduce((s, v) => s + v, 0) / values.length };
}

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
