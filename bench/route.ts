// Routing benchmark: import time and peak memory per shared extract (each in its own process, so the
// peak is that import's), the node index and the contraction on generated graphs for scaling, and
// engine query times on east Baltimore: route p50/p99 (seeded random pairs, full OSRM-shaped route
// with steps, and the bare hierarchy query), tables 10×10, 25×25, 100×100.
//
// Run: npm run bench:build && node --expose-gc dist/bench/route.js
// Options: ROUTES=1000 (pairs), GRID_MAX=40000 (largest generated contraction), NODES=2000000 (node index).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../data/osm/import-pipeline';
import { NodeCoordinatesBuilder } from '../data/osm/node-coordinates';
import { RoutingStage } from '../data/osm/routing/routing-stage';
import { createEmbeddedRouter } from '../gateway/api/routing/embedded-router';
import { contract } from '../gateway/engine/routing/contraction';
import { ExtractCatalog } from '../gateway/jobs/extract-catalog';
import type { LngLat } from '../adapters/router/port';
import { prng } from './support/prng';

const OSM = path.resolve(process.cwd(), '../shared/fixtures/osm');
const EXTRACTS = ['monaco-osrm.osm.pbf', 'us-md-baltimore-valhalla.osm.pbf', 'andorra-graphhopper.osm.pbf'];
const ROUTES = Number(process.env.ROUTES ?? 1000);
const GRID_MAX = Number(process.env.GRID_MAX ?? 40_000);
const NODES = Number(process.env.NODES ?? 2_000_000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function ms(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(s, 0.5).toFixed(3)} ms  p99 ${percentile(s, 0.99).toFixed(3)} ms  (n=${s.length})`;
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Child mode: one import, figures as JSON on stdout. */
async function importOne(file: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-route-'));
  try {
    const r = await runImport({ file, name: 'bench', dataDir, stages: [new RoutingStage()] });
    process.stdout.write(JSON.stringify({ seconds: r.seconds, peak: r.peakMemoryBytes, routing: r.manifest.stages.routing }) + '\n');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function benchImports(): void {
  console.log(`\n## Import (full pipeline, routing stage; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)})`);
  for (const name of EXTRACTS) {
    const file = path.join(OSM, name);
    if (!fs.existsSync(file)) {
      console.warn(`skipped ${name}: missing`);
      continue;
    }
    const out = execFileSync(process.execPath, [__filename, '--import-one', file], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
    const r = JSON.parse(out.trim().split('\n').pop()!);
    console.log(`${name.padEnd(36)} ${r.seconds.toFixed(2)} s  peak RSS ${(r.peak / 1048576).toFixed(0)} MB  ${r.routing.segments} segments, car ${r.routing['car turns']} turns + ${r.routing['car shortcuts']} shortcuts`);
  }
}

function benchNodeIndex(): void {
  console.log(`\n## Node index, generated (${NODES.toLocaleString('en-US')} nodes, sorted ids with gaps)`);
  const random = prng(1);
  const before = process.memoryUsage().rss;
  const t0 = now();
  const b = new NodeCoordinatesBuilder();
  let id = 1;
  for (let i = 0; i < NODES; i++) {
    id += 1 + Math.floor(random() * 3);
    b.add(id, -77 + random(), 39 + random());
  }
  const index = b.freeze();
  const built = now() - t0;
  const t1 = now();
  let sink = 0;
  for (let i = 0; i < 1_000_000; i++) sink += index.indexOf(1 + Math.floor(random() * id));
  const lookups = now() - t1;
  console.log(`build ${built.toFixed(0)} ms, ${(index.bytes / 1048576).toFixed(1)} MB held (RSS +${((process.memoryUsage().rss - before) / 1048576).toFixed(0)} MB); 1M lookups ${lookups.toFixed(0)} ms (${(lookups * 1000 / 1e6).toFixed(3)} µs each) [${sink > 0 ? 'ok' : ''}]`);
}

function benchContraction(): void {
  console.log('\n## Contraction on generated grids (node-based, both directions, seeded weights)');
  for (let side = 50; side * side <= GRID_MAX; side *= 2) {
    const n = side * side;
    const random = prng(side);
    const tail: number[] = [], head: number[] = [], weight: number[] = [], distance: number[] = [];
    const add = (a: number, b: number) => {
      const w = 5 + random() * 20;
      tail.push(a, b); head.push(b, a); weight.push(w, w); distance.push(w * 10, w * 10);
    };
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) {
      if (x + 1 < side) add(y * side + x, y * side + x + 1);
      if (y + 1 < side) add(y * side + x, (y + 1) * side + x);
    }
    const t0 = now();
    const h = contract({ vertexCount: n, tail: Uint32Array.from(tail), head: Uint32Array.from(head), weight: Float32Array.from(weight), distance: Float32Array.from(distance) });
    console.log(`${n.toLocaleString('en-US').padStart(9)} vertices, ${tail.length.toLocaleString('en-US')} arcs: ${((now() - t0) / 1000).toFixed(2)} s, ${h.childA.length - tail.length} shortcuts`);
  }
}

async function benchQueries(): Promise<void> {
  const file = path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf');
  if (!fs.existsSync(file)) return void console.warn('skipped queries: Baltimore extract missing');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-route-q-'));
  try {
    await runImport({ file, name: 'baltimore', dataDir, stages: [new RoutingStage()] });
    const router = createEmbeddedRouter(new ExtractCatalog({ dataDir, checkMs: 60_000 }));
    const mr = router.networksLoaded[0].routers.car;
    const n = mr.network;
    const random = prng(42);
    const point = (): LngLat => {
      for (;;) {
        const s = Math.floor(random() * n.segmentFrom.length);
        if (mr.mode.segmentMain[s] !== 1) continue;
        const p = n.segmentStart[s];
        return [n.pointLon[p] / 1e7, n.pointLat[p] / 1e7];
      }
    };
    const pairs = Array.from({ length: ROUTES }, () => [point(), point()] as [LngLat, LngLat]);
    console.log(`\n## Queries, east Baltimore, car (load ${os.loadavg()[0].toFixed(2)})`);
    for (const [a, b] of pairs.slice(0, 50)) await router.route!({ locations: [a, b], mode: 'car', steps: true }); // warm-up
    const full: number[] = [];
    for (const [a, b] of pairs) {
      const t = now();
      await router.route!({ locations: [a, b], mode: 'car', steps: true });
      full.push(now() - t);
    }
    console.log(`route with snapping, geometry and steps  ${ms(full)}`);
    const snaps = pairs.map(([a, b]) => [mr.snap(a, 1000)!, mr.snap(b, 1000)!]);
    const bare: number[] = [];
    for (const [a, b] of snaps) {
      const t = now();
      mr.legPieces(a, b);
      bare.push(now() - t);
    }
    console.log(`route, hierarchy query + path only        ${ms(bare)}`);
    for (const size of [10, 25, 100]) {
      const runs: number[] = [];
      for (let run = 0; run < 15; run++) {
        const pts = Array.from({ length: size }, point);
        const t = now();
        await router.table!({ sources: pts, destinations: pts, mode: 'car' });
        runs.push(now() - t);
      }
      console.log(`table ${String(size).padStart(3)}×${size}  ${ms(runs.slice(3))}`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--import-one');
  if (i >= 0) return importOne(process.argv[i + 1]);
  console.log(`# bench/route  (node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  await benchQueries();
  benchNodeIndex();
  benchContraction();
  benchImports();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
