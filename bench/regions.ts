// Regions benchmark: load time and memory of the bundled region data (Natural Earth 1:10m
// countries, US states, ZCTA/FSA postal points), then µs per lookup (country + state + postal
// code) over seeded random points in the contiguous US and worldwide (land and sea), and the
// same with an imported DMA layer when the Nielsen DMA fixture is present. Also geo-tz zone
// lookups, which run beside regions on the same points.
//
// Run: npm run bench:build && node --expose-gc dist/bench/regions.js
// Options: POINTS=200000 RUNS=5 TZ_TILES=<geo-tz tile cache size, default the adapter's> environment variables.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedRegions, type EmbeddedRegions } from '../adapters/regions/embedded/embedded-regions';
import { createGeoTzTimeZones } from '../adapters/time-zones/geo-tz/geo-tz-time-zones';
import { importBoundaries } from '../importers/boundaries/import-boundaries';
import { prng } from './support/metro';
import { mb, memory } from './support/memory';

const POINTS = Number(process.env.POINTS ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 5);
const DMA_TOPOJSON = path.resolve(__dirname, '../../..', 'shared/fixtures/regions/nielsen_dma.topojson.json');
const DMA_TOPOJSON_FROM_REPO = path.resolve(process.cwd(), '../shared/fixtures/regions/nielsen_dma.topojson.json');

type Point = [number, number];

function points(seed: number, box: [number, number, number, number]): Point[] {
  const rnd = prng(seed);
  const [w, s, e, n] = box;
  return Array.from({ length: POINTS }, () => [w + rnd() * (e - w), s + rnd() * (n - s)] as Point);
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `min ${sorted[0].toFixed(2)}  median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}  mean ${mean.toFixed(2)} µs/lookup`;
}

/** Returns µs per call for each run; the sink keeps the work from being optimised away. */
function timeRuns(label: string, pts: Point[], call: (p: Point) => number): void {
  let sink = 0;
  for (let i = 0; i < Math.min(pts.length, 20_000); i++) sink += call(pts[i]); // warm-up
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = process.hrtime.bigint();
    for (const p of pts) sink += call(p);
    runs.push(Number(process.hrtime.bigint() - started) / 1e3 / pts.length);
  }
  console.log(`${label.padEnd(44)} ${stats(runs)}   (sink ${sink})`);
}

function regionCount(regions: EmbeddedRegions): (p: Point) => number {
  return (p) => {
    const r = regions.lookup(p);
    return (r.country ? 1 : 0) + (r.state ? 1 : 0) + (r.postalCode ? 1 : 0) + (r.dma ? 1 : 0);
  };
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}; ${POINTS} points per set, ${RUNS} runs${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for exact memory)'}`);
  const us = points(1, [-124.7, 24.5, -66.9, 49.4]);
  const world = points(2, [-180, -60, 180, 75]);
  const usMetro = points(3, [-74.3, 40.5, -73.7, 40.95]);

  const before = memory();
  const regions = createEmbeddedRegions();
  const started = process.hrtime.bigint();
  const loaded = regions.load();
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = memory();
  console.log(`load: ${loadMs.toFixed(0)} ms; ${loaded.countries} countries, ${loaded.usStates} states, ${loaded.postalCodes} postal points, ${loaded.polygonVertices} vertices`);
  console.log(`memory of region data: heapUsed +${mb(after.heap - before.heap)}, arrayBuffers +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS +${mb(after.rss - before.rss)} (RSS now ${mb(after.rss)})`);

  const withRegions = regionCount(regions);
  timeRuns('regions, contiguous US (random)', us, withRegions);
  timeRuns('regions, New York metro (random)', usMetro, withRegions);
  timeRuns('regions, worldwide (random, ~70 % sea)', world, withRegions);

  const dmaFile = [DMA_TOPOJSON, DMA_TOPOJSON_FROM_REPO].find((f) => fs.existsSync(f));
  if (dmaFile !== undefined) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-bench-regions-'));
    try {
      await importBoundaries({ file: dmaFile, type: 'dma', codeProperty: 'dma', nameProperty: 'dma1', dataDir });
      const withDma = createEmbeddedRegions({ dataDir });
      withDma.load();
      timeRuns('regions + imported DMAs, contiguous US', us, regionCount(withDma));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  } else {
    console.log('(DMA fixture not found: skipping the imported-layer run)');
  }

  const zones = createGeoTzTimeZones(process.env.TZ_TILES ? { cachedTiles: Number(process.env.TZ_TILES) } : {});
  const tzBefore = memory();
  timeRuns('time zone (geo-tz), contiguous US', us, (p) => (zones.zoneAt(p) ?? '').length);
  timeRuns('time zone (geo-tz), worldwide', world, (p) => (zones.zoneAt(p) ?? '').length);
  const tzAfter = memory();
  console.log(`geo-tz tile cache: ${zones.tileCache.size} tiles, heapUsed +${mb(tzAfter.heap - tzBefore.heap)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
