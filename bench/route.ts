// Routing benchmark: import time and peak memory per shared extract (each in its own process, so the
// peak is that import's); the routing stage on generated road networks of 30 k to 1 M OSM nodes
// (bench/support/generated-roads.ts: perturbed grid with road classes, oneways, motorways with ramps,
// restrictions), each in its own process: time and CPU per phase, contraction, shortcuts, peak RSS,
// file size, then car route p50/p99 and tables 10×10, 25×25, 100×100 on it; engine query times on
// east Baltimore; the node index on 2 M generated nodes.
//
// Run: npm run bench:build && node --expose-gc dist/bench/route.js
// Options: ROUTES=1000 (pairs), GENERATED=30000,100000,300000,1000000 (sizes, OSM nodes),
// CAR_ONLY_FROM=300000 (from this size the stage stops after the car graph), NODES=2000000 (node index).
// `node dist/bench/route.js --generated 1000000` runs one size; `--queries-from DIR` runs the car
// queries on a routing folder already written.
//
// Results, with the machine's load and the OSRM reference figures: docs/routing-engine.md § Benchmarks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { NodeCoordinatesBuilder } from '../importers/osm/node-coordinates';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import { createEmbeddedRouter } from '../adapters/router/embedded/embedded-router';
import { readModeGraph, readNetwork } from '../adapters/router/embedded/network-loader';
import { ModeRouter } from '../core/routing/mode-router';
import { SegmentIndex } from '../core/routing/segment-index';
import { ExtractCatalog } from '../adapters/extracts/extract-catalog';
import type { LngLat } from '../ports/router';
import { importGenerated } from './support/generated-import';
import { sideForNodes } from './support/generated-roads';
import { prng } from './support/prng';

const OSM = path.resolve(process.cwd(), '../shared/fixtures/osm');
const EXTRACTS = ['monaco-osrm.osm.pbf', 'us-md-baltimore-valhalla.osm.pbf', 'andorra-graphhopper.osm.pbf'];
const ROUTES = Number(process.env.ROUTES ?? 1000);
const GENERATED = (process.env.GENERATED ?? '30000,100000,300000,1000000').split(',').map(Number);
/** From this many generated nodes on, the stage stops after the car graph (all four modes at 1 M would take hours). */
const CAR_ONLY_FROM = Number(process.env.CAR_ONLY_FROM ?? 300_000);
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

interface QueryFigures {
  bare: number[];
  full: number[];
  tables: Record<string, number[]>;
}

/** Seeded points on random segments of the mode's large connected part: their first or middle point. */
function pointsOn(mr: ModeRouter, seed: number, middle: boolean): () => LngLat {
  const n = mr.network;
  const random = prng(seed);
  return () => {
    for (;;) {
      const s = Math.floor(random() * n.segmentFrom.length);
      if (mr.mode.segmentMain[s] !== 1) continue;
      const p = middle ? Math.floor((n.segmentStart[s] + n.segmentStart[s + 1] - 1) / 2) : n.segmentStart[s];
      return [n.pointLon[p] / 1e7, n.pointLat[p] / 1e7];
    }
  };
}

/** Seeded car queries on one mode router: bare hierarchy routes, full routes (geometry, steps), tables with snapping. */
function carQueries(mr: ModeRouter): QueryFigures {
  const point = pointsOn(mr, 42, true);
  const snaps = Array.from({ length: ROUTES + 50 }, () => [mr.snap(point(), 1000)!, mr.snap(point(), 1000)!]);
  for (const [a, b] of snaps.slice(0, 50)) mr.legPieces(a, b); // warm-up
  const bare: number[] = [], full: number[] = [];
  for (const [a, b] of snaps.slice(50)) {
    const t = now();
    mr.legPieces(a, b);
    bare.push(now() - t);
  }
  for (const [a, b] of snaps.slice(50, 50 + ROUTES / 4)) {
    const t = now();
    mr.route([a, b]);
    full.push(now() - t);
  }
  const tables: Record<string, number[]> = {};
  for (const size of [10, 25, 100]) {
    const runs: number[] = [];
    for (let run = 0; run < 15; run++) {
      const pts = Array.from({ length: size }, point);
      const t = now();
      const sn = pts.map((p) => mr.snap(p, 1000)!);
      mr.table(sn, sn);
      runs.push(now() - t);
    }
    tables[size] = runs.slice(3);
  }
  return { bare, full, tables };
}

function printQueries(q: QueryFigures): void {
  console.log(`car route, hierarchy query + path        ${ms(q.bare)}`);
  console.log(`car route, with geometry and steps       ${ms(q.full)}`);
  for (const size of [10, 25, 100]) console.log(`car table ${String(size).padStart(3)}×${size} (with snapping)  ${ms(q.tables[size])}`);
}

/** Child mode: the routing stage on one generated network, then car queries on it; JSON on stdout. */
async function generatedOne(nodes: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-route-gen-'));
  try {
    // Progress on stderr: the step, and each tenth of a contraction, with the time spent in it so far.
    let tenth = -1;
    const carOnly = nodes >= CAR_ONLY_FROM;
    const g = await importGenerated(sideForNodes(nodes), 1, dir, {
      carOnly,
      onProgress: (step, done, total, seconds) => {
        const t = total ? Math.floor((10 * done) / total) : 0;
        if (done === 0) tenth = -1;
        if (t === tenth) return;
        tenth = t;
        process.stderr.write(`  ${step} ${total ? `${t * 10} %` : ''} ${seconds.toFixed(1)} s (load ${os.loadavg()[0].toFixed(1)})\n`);
      },
    });
    const peak = process.resourceUsage().maxRSS * 1024;
    const q = carQueries(g.car());
    process.stdout.write(JSON.stringify({ carOnly, counts: g.counts, summary: g.summary, phases: g.phases, seconds: g.seconds, cpuSeconds: g.cpuSeconds, peak, ...q, load: os.loadavg()[0] }) + '\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `--queries-from DIR`: car queries on an imported extract's routing folder (e.g. one a running stage has written). */
function queriesFrom(dir: string): void {
  const network = readNetwork(dir);
  const mr = new ModeRouter(network, readModeGraph(dir, 'car'), new SegmentIndex(network), 'driving');
  console.log(`# car queries on ${dir} (${network.segmentFrom.length} segments, load ${os.loadavg()[0].toFixed(2)})`);
  printQueries(carQueries(mr));
}

function benchGenerated(): void {
  console.log(`\n## Generated road networks: the routing stage on seeded OSM entities (bench/support/generated-roads.ts), each in its own process; all four modes below ${CAR_ONLY_FROM.toLocaleString('en-US')} nodes, car only from there`);
  const k = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)} M` : `${(v / 1e3).toFixed(0)} k`);
  type P = { step: string; seconds: number; cpuSeconds: number };
  for (const size of GENERATED) {
    const loadBefore = os.loadavg()[0];
    const out = execFileSync(process.execPath, [__filename, '--generated', String(size)], { encoding: 'utf8', env: process.env, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
    const r = JSON.parse(out.trim().split('\n').pop()!);
    const s = r.summary;
    const contraction: P[] = r.phases.filter((p: P) => p.step.endsWith(' contraction'));
    const sum = (list: P[], key: 'seconds' | 'cpuSeconds') => list.reduce((t, p) => t + p[key], 0);
    console.log(`\n### ${k(r.counts.nodes)} OSM nodes (${k(r.counts.intersections)} grid intersections, ${k(r.counts.ways)} ways, ${r.counts.relations} restrictions)${r.carOnly ? ', car only' : ''}; load ${loadBefore.toFixed(2)} → ${r.load.toFixed(2)}`);
    console.log(`${k(s.segments)} segments; car ${k(s['car turns'])} turn arcs + ${k(s['car shortcuts'])} shortcuts (${(s['car shortcuts'] / s['car turns']).toFixed(2)}× arcs)`);
    console.log(`stage ${r.seconds.toFixed(1)} s (CPU ${r.cpuSeconds.toFixed(1)} s), of it contraction ${sum(contraction, 'seconds').toFixed(1)} s (CPU ${sum(contraction, 'cpuSeconds').toFixed(1)} s: ${contraction.map((p) => `${p.step.split(' ')[0]} ${p.cpuSeconds.toFixed(1)}`).join(', ')}); peak RSS ${(r.peak / 1048576).toFixed(0)} MB; files ${(s.bytes / 1048576).toFixed(1)} MB`);
    console.log(`phases, CPU s: ${r.phases.map((p: P) => `${p.step} ${p.cpuSeconds.toFixed(2)}`).join(' | ')}`);
    if (!r.carOnly) console.log(`shortcuts: ${['truck', 'bike', 'foot'].map((m) => `${m} ${k(s[`${m} shortcuts`])} (${(s[`${m} shortcuts`] / s[`${m} turns`]).toFixed(2)}× arcs)`).join(', ')}; ${s['turn restrictions']} restrictions applied`);
    printQueries(r);
  }
}

async function benchQueries(): Promise<void> {
  const file = path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf');
  if (!fs.existsSync(file)) return void console.warn('skipped queries: Baltimore extract missing');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-route-q-'));
  try {
    await runImport({ file, name: 'baltimore', dataDir, stages: [new RoutingStage()] });
    const router = createEmbeddedRouter(new ExtractCatalog({ dataDir, checkMs: 60_000 }));
    const mr = (await router.settled())[0].routers.car;
    const point = pointsOn(mr, 42, false);
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
  const g = process.argv.indexOf('--generated');
  if (g >= 0) return generatedOne(Number(process.argv[g + 1]));
  const q = process.argv.indexOf('--queries-from');
  if (q >= 0) return queriesFrom(process.argv[q + 1]);
  console.log(`# bench/route  (node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  await benchQueries();
  benchNodeIndex();
  benchGenerated();
  benchImports();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
