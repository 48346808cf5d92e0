// Geocoding and places at region scale (issue 35): the geocoding and places import stages on a tiled
// region (Baltimore ×N×N from ../shared/tools/tile-osm.py), and the serving figures on it beside one
// tile of the same tool: forward geocode, reverse, autocomplete and search places over HTTP, on one
// connection after warm-up, next to the bare authenticated route GET /v1/config of the same run; hit
// rates of each on the region and on the tile; the gateway's RSS beside the size of the index files.
//
// - import: each stage alone (`runImport` with that stage only) in a child process of its own, so the
//   peak RSS printed is that stage's (plus reading the file and the node index, printed as "read only");
// - serving: the compiled gateway in a child process over the imported data; the load generator in
//   another child process (bench/http/sequential-child.ts), one request at a time on one keep-alive
//   connection; queries sampled from the imported indexes with a fixed seed; the gateway's CPU per request
//   (from /proc, warm-up requests included) beside the latencies.
//
// Hits: forward, the top answer within 100 m of the sampled address point (compared on the queries that
// name one place: the tiling tool leaves addresses on buildings with the source's town and postal code,
// so in a region each is the same query for N×N places; their share is printed); autocomplete ("<number>
// <street>" with its last 3 characters cut, near the point), one of the first five within 100 m;
// reverse (30 m north of an address), the top answer within 100 m; search places (the place's most
// specific category, or its chain, near a point 30 m away, radius 1 km), the place among the answers.
//
// Run: npm run bench:build && node dist/bench/region-search.js
// Env: REGION (a tiled .osm.pbf), TILE (one tile of the same tool, tile-osm.py SOURCE 1 OUT), WORK (a
// folder for the imported data; nothing is written in the repository), SAMPLES (1000), SKIP_IMPORT=1
// (serve what WORK already holds), ONLY=region|tile.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runImport } from '../importers/osm/import-pipeline';
import { stageDir } from '../core/formats/extract-layout';
import type { ImportStage } from '../importers/osm/stage';
import { GeocodingStage } from '../importers/osm/stages/geocoding/geocoding-stage';
import { INDEX_FILE } from '../core/formats/geocoding-index';
import { PlacesStage } from '../importers/osm/stages/places/places-stage';
import { eachPlaceRecord } from '../core/formats/places/places-file';
import { startGatewayProcess } from './http/gateway-process';
import type { SequentialJob, SequentialResult } from './http/sequential-child';
import { prng } from './support/prng';

const SAMPLES = Number(process.env.SAMPLES ?? 1000);
const WORK = process.env.WORK ?? path.join(os.tmpdir(), 'waymark-bench-region');

interface ImportFigures {
  stage: string;
  seconds: number;
  peakRssMiB: number;
  steps: Array<{ label: string; seconds: number; detail: string }>;
  bytes: number;
}

/** Child mode: one import with one stage, figures on stdout as JSON. */
async function importChild(file: string, name: string, stage: string, dataDir: string): Promise<void> {
  const stages: ImportStage[] = stage === 'geocoding' ? [new GeocodingStage()] : stage === 'places' ? [new PlacesStage()] : [{ name: 'none', finish: async () => ({}) }];
  const lastLine = new Map<string, number>();
  const result = await runImport({
    file, name, dataDir, stages,
    onProgress: (e) => {
      // A line every 10 s per step at most, so a long stage shows it is alive.
      const now = Date.now();
      if (!e.finished && now - (lastLine.get(e.label) ?? 0) < 10_000) return;
      lastLine.set(e.label, now);
      process.stderr.write(`  [${stage}] ${e.label}: ${e.detail}\n`);
    },
  });
  const folder = stageDir(dataDir, name, stage);
  const bytes = fs.existsSync(folder) ? fs.readdirSync(folder).reduce((s, f) => s + fs.statSync(path.join(folder, f)).size, 0) : 0;
  const figures: ImportFigures = { stage, seconds: result.seconds, peakRssMiB: result.peakMemoryBytes / 1048576, steps: result.steps, bytes };
  process.stdout.write(JSON.stringify(figures) + '\n');
}

function importInChild(file: string, name: string, stage: string, dataDir: string): Promise<ImportFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['import', file, name, stage, dataDir], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as ImportFigures);
      else reject(new Error(`import of ${stage} exited with ${code}`));
    });
  });
}

function sequentialInChild(job: SequentialJob): Promise<SequentialResult> {
  const jobFile = path.join(WORK, `job-${process.pid}.json`);
  fs.writeFileSync(jobFile, JSON.stringify(job));
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'http', 'sequential-child.js'), [jobFile], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: SequentialResult | undefined;
    child.once('message', (m) => (result = m as SequentialResult));
    child.once('exit', (code) => {
      fs.rmSync(jobFile, { force: true });
      if (result) resolve(result);
      else reject(new Error(`load generator exited with ${code}`));
    });
  });
}

interface Workload {
  forward: SequentialJob['requests'];
  reverse: SequentialJob['requests'];
  autocomplete: SequentialJob['requests'];
  places: SequentialJob['requests'];
}

function workloadOf(dataDir: string): Workload {
  const rand = prng(35);
  const db = new Database(path.join(stageDir(dataDir, 'geo', 'geocoding'), INDEX_FILE), { readonly: true });
  const count = (db.prepare('SELECT max(id) AS n FROM addresses').get() as { n: number }).n;
  const row = db.prepare<[number], { number: string; street: string; norm: string; city: string | null; postal: string | null; lon: number; lat: number }>(
    'SELECT a.number, s.name AS street, s.norm, a.city, a.postal_code AS postal, a.lon, a.lat FROM addresses a JOIN streets s ON s.id = a.street WHERE a.id >= ? ORDER BY a.id LIMIT 1',
  );
  // The tiling tool gives each tile's address NODES a town and postal code of their own, but addresses on
  // buildings (ways) keep the source's: those are the same address, town and postal code in every tile.
  const copies = db.prepare<[{ norm: string; number: string; city: string; postal: string; lon: number; lat: number }], { n: number }>(
    `SELECT count(*) AS n FROM addresses a JOIN streets s ON s.id = a.street
     WHERE s.name_id = (SELECT id FROM street_names WHERE norm = @norm) AND a.number = @number
       AND coalesce(a.city, '') = @city AND coalesce(a.postal_code, '') = @postal AND (abs(a.lon - @lon) > 0.01 OR abs(a.lat - @lat) > 0.01)`,
  );
  const w: Workload = { forward: [], reverse: [], autocomplete: [], places: [] };
  for (let i = 0; i < SAMPLES; i++) {
    const r = row.get(1 + Math.floor(rand() * count));
    if (r === undefined) continue;
    const town = [r.city, r.postal].filter(Boolean).join(' ');
    const forward = `${r.number} ${r.street}${town ? `, ${town}` : ''}`;
    const full = `${r.number} ${r.street}`;
    const typed = full.slice(0, Math.max(full.indexOf(' ') + 3, full.length - 3));
    const near = { kind: 'near' as const, lon: r.lon, lat: r.lat, meters: 100 };
    const ambiguous = copies.get({ norm: r.norm, number: r.number, city: r.city ?? '', postal: r.postal ?? '', lon: r.lon, lat: r.lat })!.n > 0;
    w.forward.push({ path: `/v1/geocode/forward?query=${encodeURIComponent(forward)}`, expect: { ...near, within: 1, ambiguous } });
    w.autocomplete.push({ path: `/v1/search/autocomplete?query=${encodeURIComponent(typed)}&near=${r.lat},${r.lon}&limit=5`, expect: { ...near, within: 5 } });
    w.reverse.push({ path: `/v1/geocode/reverse?coordinates=${(r.lat + 0.00027).toFixed(7)},${r.lon}`, expect: { ...near, within: 1 } });
  }
  db.close();
  const places: Array<{ _id: string; lng: number; lat: number; category: string; chain?: string }> = [];
  eachPlaceRecord(stageDir(dataDir, 'places', 'places'), (p) => {
    if (p.categories.length > 0) places.push({ _id: p._id, lng: p.lng, lat: p.lat, category: p.categories[p.categories.length - 1], chain: p.chain?.slug });
  });
  for (let i = 0; i < SAMPLES && places.length > 0; i++) {
    const p = places[Math.floor(rand() * places.length)];
    const by = p.chain !== undefined && rand() < 0.5 ? `chains=${encodeURIComponent(p.chain)}` : `categories=${encodeURIComponent(p.category)}`;
    w.places.push({ path: `/v1/search/places?near=${(p.lat + 0.00027).toFixed(7)},${p.lng}&${by}&radius=1000&limit=10`, expect: { kind: 'place', id: p._id } });
  }
  return w;
}

function folderBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? folderBytes(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size;
  return total;
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

async function serve(label: string, dataDir: string): Promise<Record<string, SequentialResult>> {
  const work = workloadOf(dataDir);
  const gw = await startGatewayProcess(dataDir);
  const out: Record<string, SequentialResult> = {};
  try {
    const key = gw.keys['test publishable'];
    if (key === undefined) throw new Error(`${dataDir} was served before: its keys are printed only on the first start (import again, or use a fresh WORK)`);
    const started = Date.now();
    const first = await fetch(`${gw.url}${work.forward[0].path}`, { headers: { authorization: key } });
    await first.text();
    console.log(`${label}: gateway RSS ${gw.rssMiB().toFixed(0)} MiB after start and a first geocode (${Date.now() - started} ms); index files ${mib(folderBytes(path.join(dataDir, 'extracts')))}`);
    const jobs: Array<[string, SequentialJob['requests']]> = [
      ['GET /v1/config (bare)', work.forward.map(() => ({ path: '/v1/config' }))],
      ['forward geocode', work.forward],
      ['reverse geocode', work.reverse],
      ['autocomplete', work.autocomplete],
      ['search places', work.places],
    ];
    for (const [title, requests] of jobs) {
      // The gateway's CPU per request beside the wall clock: on a shared machine the latency is mostly the wait for a core.
      const warmup = Math.min(200, requests.length);
      const cpu0 = gw.cpuMs();
      const r = await sequentialInChild({ title, url: gw.url, key, warmup, requests });
      const cpuMs = (gw.cpuMs() - cpu0) / (warmup + r.count);
      out[title] = r;
      const clear = r.clearChecked < r.checked ? ` (${((100 * r.clearHits) / Math.max(1, r.clearChecked)).toFixed(1)} % of the ${r.clearChecked} not ambiguous)` : '';
      const hit = r.checked > 0 ? `   hits ${((100 * r.hits) / r.checked).toFixed(1)} % of ${r.checked}${clear}` : '';
      console.log(`${label.padEnd(8)} ${title.padEnd(22)} p50 ${r.p50Ms.toFixed(2).padStart(6)} ms   p90 ${r.p90Ms.toFixed(2).padStart(6)} ms   p99 ${r.p99Ms.toFixed(2).padStart(6)} ms   CPU ${cpuMs.toFixed(2).padStart(5)} ms a request${hit}${r.non2xx ? `   non-2xx ${r.non2xx}` : ''}`);
    }
    console.log(`${label}: gateway RSS ${gw.rssMiB().toFixed(0)} MiB after the queries (peak ${gw.peakRssMiB().toFixed(0)} MiB); load average ${os.loadavg()[0].toFixed(2)}`);
  } finally {
    await gw.stop();
  }
  return out;
}

async function main(): Promise<void> {
  const region = process.env.REGION;
  const tile = process.env.TILE;
  if (!region || !tile || !fs.existsSync(region) || !fs.existsSync(tile)) {
    console.warn('skipping: set REGION and TILE to .osm.pbf files made by ../shared/tools/tile-osm.py (see the header of this file)');
    return;
  }
  console.log(`region-search bench: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  const sets = [
    { label: 'tile', file: tile, dataDir: path.join(WORK, 'tile') },
    { label: 'region', file: region, dataDir: path.join(WORK, 'region') },
  ].filter((s) => process.env.ONLY === undefined || process.env.ONLY === s.label);
  if (process.env.SKIP_IMPORT !== '1') {
    for (const s of sets) {
      fs.rmSync(s.dataDir, { recursive: true, force: true });
      const scratch = path.join(WORK, `${s.label}-readonly`);
      for (const [stage, name, dir] of [['none', 'read', scratch], ['geocoding', 'geo', s.dataDir], ['places', 'places', s.dataDir]] as const) {
        const f = await importInChild(s.file, name, stage, dir);
        const steps = f.steps.map((x) => `${x.label} ${x.seconds.toFixed(1)} s`).join(', ');
        console.log(`${s.label.padEnd(8)} import ${stage === 'none' ? 'read only' : stage}: ${f.seconds.toFixed(1)} s, peak RSS ${f.peakRssMiB.toFixed(0)} MiB${f.bytes ? `, files ${mib(f.bytes)}` : ''} (${steps})`);
      }
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  const results: Record<string, Record<string, SequentialResult>> = {};
  for (const s of sets) results[s.label] = await serve(s.label, s.dataDir);
  if (results.tile && results.region) {
    console.log('\nhit rates, region vs one tile:');
    for (const title of Object.keys(results.region)) {
      const [r, t] = [results.region[title], results.tile[title]];
      if (r.checked === 0) continue;
      const pct = (x: SequentialResult) => `${((100 * x.clearHits) / Math.max(1, x.clearChecked)).toFixed(1)} % of ${x.clearChecked}`;
      console.log(`  ${title.padEnd(22)} region ${pct(r)}   tile ${pct(t)}   (all samples, ambiguous ones included: region ${((100 * r.hits) / r.checked).toFixed(1)} %, tile ${((100 * t.hits) / t.checked).toFixed(1)} %)`);
    }
  }
}

if (process.argv[2] === 'import') {
  importChild(process.argv[3], process.argv[4], process.argv[5], process.argv[6]).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
