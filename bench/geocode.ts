// Geocoding benchmark: import time and index size per shared extract; forward, reverse and autocomplete
// latency (p50/p99) in process and over HTTP beside the bare authenticated route GET /v1/config of the
// same run; hit rates on each extract's own addresses (top answer within 100 m of the address point;
// autocomplete: within the first five).
//
// - import: the real pipeline (runImport) with the geocoding stage only;
// - in process: the embedded geocoder the gateway builds (query parsing, FTS5 lookups, scoring, labels),
//   without HTTP and without the timeZone lookup the service adds;
// - HTTP: autocannon against the compiled gateway in a child process (rate limits off), a different
//   sampled address per request.
//
// Run: npm run bench:build && node dist/bench/geocode.js
// Options (env): SAMPLES (300 per extract), SECONDS (5), CONNECTIONS (16)
//
// Last run (2 shared cores, load average 6.5–9): in process, all extracts: forward p50 2.0 ms / p99 15 ms,
// reverse 0.30 / 11 ms, autocomplete 0.67 / 13 ms; top-1 within 100 m 99.3–100 % per extract. HTTP:
// GET /v1/config 3,389 req/s, forward 203, reverse 1,101, autocomplete 423. Details: docs/geocoding.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runImport } from '../importers/osm/import-pipeline';
import { stageDir } from '../core/formats/extract-layout';
import { GeocodingStage } from '../importers/osm/stages/geocoding/geocoding-stage';
import { INDEX_FILE } from '../core/formats/geocoding-index';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import { DEFAULT_LAYERS } from '../server/http/params/geocoding';
import { haversineMeters } from '../core/geo/sphere';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng } from './support/prng';

const SAMPLES = Number(process.env.SAMPLES ?? 300);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const OSM = [path.resolve(__dirname, '../../../shared/fixtures/osm'), path.resolve(process.cwd(), '../shared/fixtures/osm')].find((p) => fs.existsSync(p));
const EXTRACTS = [
  { name: 'queens', file: 'us-ny-queens-village-pelias.osm.pbf', eu: false },
  { name: 'baltimore', file: 'us-md-baltimore-valhalla.osm.pbf', eu: false },
  { name: 'manhattan', file: 'us-ny-nyc-lower-manhattan-valhalla.osm.pbf', eu: false },
  { name: 'liechtenstein', file: 'liechtenstein-2013-08-03-osm2pgsql.osm.pbf', eu: true },
];

interface Sample {
  number: string;
  street: string;
  city: string | null;
  postal: string | null;
  lon: number;
  lat: number;
  forward: string;
  typed: string;
}

function samplesOf(dataDir: string, name: string, eu: boolean): Sample[] {
  const db = new Database(path.join(stageDir(dataDir, name, 'geocoding'), INDEX_FILE), { readonly: true });
  const rows = db.prepare<[], Omit<Sample, 'forward' | 'typed'>>('SELECT a.number, s.name AS street, a.city, a.postal_code AS postal, a.lon, a.lat FROM addresses a JOIN streets s ON s.id = a.street ORDER BY a.id').all();
  db.close();
  const rand = prng(42);
  return Array.from({ length: SAMPLES }, () => {
    const r = rows[Math.floor(rand() * rows.length)];
    const town = [r.postal, r.city].filter(Boolean).join(' ');
    const forward = eu ? `${r.street} ${r.number}${town ? `, ${town}` : ''}` : `${r.number} ${r.street}${town ? `, ${[r.city, r.postal].filter(Boolean).join(' ')}` : ''}`;
    const full = `${r.number} ${r.street}`;
    return { ...r, forward, typed: full.slice(0, Math.max(full.indexOf(' ') + 3, full.length - 3)) };
  });
}

function percentiles(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `p50 ${at(0.5).toFixed(3).padStart(7)} ms   p99 ${at(0.99).toFixed(3).padStart(7)} ms`;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const out = await fn();
  return [out, Number(process.hrtime.bigint() - t) / 1e6];
}

async function main(): Promise<void> {
  if (OSM === undefined) {
    console.warn('skipping: shared/fixtures/osm is absent');
    return;
  }
  console.log(`geocode bench: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-geocode-'));
  console.log('\nimport (pipeline, geocoding stage only)');
  for (const e of EXTRACTS) {
    const t = Date.now();
    const result = await runImport({ file: path.join(OSM, e.file), name: e.name, dataDir, stages: [new GeocodingStage()] });
    const bytes = fs.statSync(path.join(stageDir(dataDir, e.name, 'geocoding'), INDEX_FILE)).size;
    const s = result.manifest.stages.geocoding;
    console.log(`${e.name.padEnd(14)} ${((Date.now() - t) / 1000).toFixed(2).padStart(6)} s   index ${(bytes / 1048576).toFixed(2).padStart(6)} MB   ${s.addresses} addresses, ${s.streets} streets, ${s.places} places, ${s.interpolations} interpolation lines, ${s.boundaries}/${Number(s.boundaries) + Number(s.openBoundaries)} boundaries closed`);
  }

  const services = await createGateway({ ...configFromEnv({}), dataDir, port: 0 }, silentLogger());
  const { geocoder } = services.adapters;
  const all = EXTRACTS.map((e) => ({ ...e, samples: samplesOf(dataDir, e.name, e.eu) }));
  // Warm-up: GeoNames, ZIP tables, region data and the indexes load on first use.
  const t0 = Date.now();
  await geocoder.forward({ query: 'Paris', layers: DEFAULT_LAYERS, limit: 10 });
  console.log(`\nfirst query (loads GeoNames cities, ZIP tables, regions, indexes): ${Date.now() - t0} ms`);
  for (const e of all) for (const s of e.samples.slice(0, 20)) await geocoder.forward({ query: s.forward, layers: DEFAULT_LAYERS, limit: 10 });

  console.log('\nin process (embedded geocoder, no HTTP, no timeZone)');
  const forwardAll: number[] = [];
  const reverseAll: number[] = [];
  const autoAll: number[] = [];
  for (const e of all) {
    const fwd: number[] = [];
    const rev: number[] = [];
    const auto: number[] = [];
    let fHits = 0;
    let aHits = 0;
    for (const s of e.samples) {
      const [f, fms] = await timed(() => geocoder.forward({ query: s.forward, layers: DEFAULT_LAYERS, limit: 10 }));
      fwd.push(fms);
      if (f[0] && haversineMeters([f[0].longitude, f[0].latitude], [s.lon, s.lat]) <= 100) fHits++;
      const [, rms] = await timed(() => geocoder.reverse({ point: [s.lon, s.lat + 0.000045], layers: DEFAULT_LAYERS, limit: 10 }));
      rev.push(rms);
      const [a, ams] = await timed(() => geocoder.autocomplete({ query: s.typed, layers: DEFAULT_LAYERS, limit: 5, near: [s.lon, s.lat] }));
      auto.push(ams);
      if (a.some((x) => haversineMeters([x.longitude, x.latitude], [s.lon, s.lat]) <= 100)) aHits++;
    }
    forwardAll.push(...fwd);
    reverseAll.push(...rev);
    autoAll.push(...auto);
    const n = e.samples.length;
    console.log(`${e.name.padEnd(14)} forward      ${percentiles(fwd)}   top-1 within 100 m ${((100 * fHits) / n).toFixed(1)} %`);
    console.log(`${''.padEnd(14)} reverse      ${percentiles(rev)}`);
    console.log(`${''.padEnd(14)} autocomplete ${percentiles(auto)}   within first 5 ${((100 * aHits) / n).toFixed(1)} %`);
  }
  console.log(`${'all'.padEnd(14)} forward      ${percentiles(forwardAll)}\n${''.padEnd(14)} reverse      ${percentiles(reverseAll)}\n${''.padEnd(14)} autocomplete ${percentiles(autoAll)}`);
  await services.adapters.store.close();

  console.log(`\nHTTP (gateway in a child process, ${CONNECTIONS} connections, ${SECONDS} s each; load average ${os.loadavg()[0].toFixed(2)})`);
  const gw = await startGatewayProcess(dataDir);
  try {
    const key = gw.keys['test publishable'];
    const headers = { authorization: key };
    const samples = all.flatMap((e) => e.samples);
    let i = 0;
    const next = () => samples[i++ % samples.length];
    // Warm-up: the gateway loads GeoNames, ZIP tables, regions and time zones on first use.
    for (let k = 0; k < 30; k++) {
      const s = next();
      for (const p of [`/v1/geocode/forward?query=${encodeURIComponent(s.forward)}`, `/v1/geocode/reverse?coordinates=${s.lat},${s.lon}`, `/v1/search/autocomplete?query=${encodeURIComponent(s.typed)}`]) {
        await fetch(`${gw.url}${p}`, { headers });
      }
    }
    await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: CONNECTIONS });
    await runLoad({
      title: 'GET /v1/geocode/forward', url: `${gw.url}/v1/geocode/forward`, headers, durationSeconds: SECONDS, connections: CONNECTIONS,
      setupRequest: (req) => ({ ...req, path: `/v1/geocode/forward?query=${encodeURIComponent(next().forward)}` }),
    });
    await runLoad({
      title: 'GET /v1/geocode/reverse', url: `${gw.url}/v1/geocode/reverse`, headers, durationSeconds: SECONDS, connections: CONNECTIONS,
      setupRequest: (req) => {
        const s = next();
        return { ...req, path: `/v1/geocode/reverse?coordinates=${s.lat + 0.000045},${s.lon}` };
      },
    });
    await runLoad({
      title: 'GET /v1/search/autocomplete', url: `${gw.url}/v1/search/autocomplete`, headers, durationSeconds: SECONDS, connections: CONNECTIONS,
      setupRequest: (req) => {
        const s = next();
        return { ...req, path: `/v1/search/autocomplete?query=${encodeURIComponent(s.typed)}&near=${s.lat},${s.lon}&limit=5` };
      },
    });
    console.log(`gateway peak RSS ${gw.peakRssMiB().toFixed(0)} MiB`);
  } finally {
    await gw.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
