// Places benchmark:
// - import: time and peak memory of `waymark data import` with the places stage alone, over the shared
//   OSM extracts (LES, Monaco, Baltimore, Queens Village) when present;
// - search: GET /v1/search/places p50/p99 in process (the service, settings read included) over a
//   seeded synthetic extract of PLACES places spread over the NY metro, by category and by chain;
// - HTTP: the same searches through a gateway child process, beside the bare authenticated route
//   GET /v1/config of the same run;
// - track: the extra cost of place detection per track update (the same updates with the project's
//   `places` switch off and on), in process.
//
// Run: npm run bench:build && node --expose-gc dist/bench/places.js
// Options (env): PLACES (200000), QUERIES (20000), UPDATES (5000), SECONDS (10), CONNECTIONS (32)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { PlacesStage } from '../importers/osm/stages/places/places-stage';
import { PLACES_FORMAT, PLACES_VERSION, placeIdOf, writePlacesFile, type PlaceRecord } from '../core/formats/places/places-file';
import { MANIFEST_FILE, MANIFEST_FORMAT, MANIFEST_VERSION, extractDir } from '../core/formats/extract-layout';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import { readSearchPlaces } from '../server/features/places/search-places-input';
import { DEFAULT_PROJECT_SETTINGS } from '../core/types';
import { detectPlace } from '../core/places/place-detection';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng, randomPoint, type LngLat } from './support/metro';
import { mb, memory } from './support/memory';

const PLACES = Number(process.env.PLACES ?? 200_000);
const QUERIES = Number(process.env.QUERIES ?? 20_000);
const UPDATES = Number(process.env.UPDATES ?? 5_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const OSM = [path.resolve(__dirname, '../../../shared/fixtures/osm'), path.resolve(process.cwd(), '../shared/fixtures/osm')].find((p) => fs.existsSync(p));
const EXTRACTS = ['us-ny-manhattan-les-valhalla.osm.pbf', 'monaco-osrm.osm.pbf', 'us-md-baltimore-valhalla.osm.pbf', 'us-ny-queens-village-pelias.osm.pbf'];

const CATEGORY_PATHS = [
  ['food-beverage', 'cafe'], ['food-beverage', 'restaurant', 'pizza-place'], ['food-beverage', 'restaurant', 'fast-food-restaurant'],
  ['shopping-retail', 'apparel', 'clothing-store'], ['finance', 'bank'], ['medical-health', 'pharmacy'], ['outdoor-places', 'park'],
];
const CHAINS = [{ slug: 'starbucks', name: 'Starbucks' }, { slug: 'mcdonalds', name: "McDonald's" }, { slug: '7-eleven', name: '7-Eleven' }, { slug: 'cvs', name: 'CVS' }];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function syntheticExtract(dataDir: string): void {
  const rnd = prng(7);
  const places: PlaceRecord[] = [];
  for (let i = 0; i < PLACES; i++) {
    const [lng, lat] = randomPoint(rnd);
    const p: PlaceRecord = { _id: placeIdOf('n', i + 1), name: `Place ${i}`, lng, lat, categories: CATEGORY_PATHS[i % CATEGORY_PATHS.length], osm: `n${i + 1}` };
    if (i % 10 === 0) p.chain = CHAINS[(i / 10) % CHAINS.length];
    // A third have a building outline of 10–30 m.
    if (i % 3 === 0) {
      const h = (5 + rnd() * 10) / 111_195;
      const w = h / Math.cos((lat * Math.PI) / 180);
      p.outline = [[lng - w, lat - h], [lng + w, lat - h], [lng + w, lat + h], [lng - w, lat + h], [lng - w, lat - h]];
    }
    places.push(p);
  }
  const dir = path.join(extractDir(dataDir, 'synthetic'), 'places');
  fs.mkdirSync(dir, { recursive: true });
  writePlacesFile(dir, { format: PLACES_FORMAT, version: PLACES_VERSION, extract: 'synthetic', brands: 'none', places });
  fs.writeFileSync(path.join(extractDir(dataDir, 'synthetic'), MANIFEST_FILE), JSON.stringify({
    format: MANIFEST_FORMAT, version: MANIFEST_VERSION, name: 'synthetic', source: 'bench', importedAt: new Date().toISOString(), bbox: [-74.3, 40.5, -73.7, 41], stages: { places: { places: PLACES } },
  }));
}

async function importTimes(): Promise<void> {
  if (!OSM) {
    console.log('import: skipped (../shared/fixtures/osm is absent)');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-places-import-'));
  try {
    // The first import also reads the name-suggestion-index file (13 MB): timed apart.
    const t0 = process.hrtime.bigint();
    const stage0 = new PlacesStage();
    stage0.node({ id: 1, lat: 0, lon: 0, tags: { amenity: 'cafe', name: 'warm' } });
    console.log(`name-suggestion-index load (once per import)         ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms`);
    for (const file of EXTRACTS) {
      const full = path.join(OSM, file);
      if (!fs.existsSync(full)) continue;
      const r = await runImport({ file: full, name: file.replace(/\..*$/, '').slice(0, 60), dataDir, stages: [new PlacesStage()] });
      const s = r.manifest.stages.places;
      console.log(`import ${file.padEnd(40)} ${r.seconds.toFixed(2)} s, peak RSS ${mb(r.peakMemoryBytes)}, ${s.places} places (${s.chains} chains, ${s.outlines} outlines), ${(fs.statSync(full).size / 1024).toFixed(0)} KiB in`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the in-process figures; returns the test publishable key of the project it made. */
async function inProcess(dataDir: string): Promise<string> {
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false }, silentLogger());
  try {
    const created = await services.shared.projects.create('bench');
    const scope = { projectId: created.id, live: false };
    const before = memory();
    const t0 = process.hrtime.bigint();
    const index = services.shared.places.index(new Date());
    console.log(`places load (${index.size} places)                       ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms, heap +${mb(memory().heap - before.heap)}, typed arrays +${mb(memory().arrayBuffers - before.arrayBuffers)}`);
    const rnd = prng(3);
    const points: LngLat[] = Array.from({ length: QUERIES }, () => randomPoint(rnd));
    for (const [label, extra] of [['categories=food-beverage, radius 1000, limit 10', { categories: 'food-beverage' }], ['chains=starbucks,mcdonalds, radius 1000, limit 10', { chains: 'starbucks,mcdonalds' }], ['categories=cafe, radius 10000, limit 100', { categories: 'cafe', radius: '10000', limit: '100' }]] as const) {
      const times: number[] = [];
      let found = 0;
      for (const p of points) {
        const started = process.hrtime.bigint();
        const q = readSearchPlaces({ near: `${p[1]},${p[0]}`, ...extra });
        found += (await services.shared.places.search(scope, q, new Date())).length;
        times.push(Number(process.hrtime.bigint() - started) / 1e3);
      }
      times.sort((a, b) => a - b);
      console.log(`search ${label.padEnd(46)} p50 ${percentile(times, 50).toFixed(0)} µs  p99 ${percentile(times, 99).toFixed(0)} µs  (mean ${(found / points.length).toFixed(1)} places)`);
    }

    // Track: the same updates with places off and on. Each device walks; the store write is included.
    const settingsOff = { ...DEFAULT_PROJECT_SETTINGS, places: false };
    const settingsOn = { ...DEFAULT_PROJECT_SETTINGS, places: true };
    const walk: LngLat[] = Array.from({ length: UPDATES }, () => randomPoint(rnd));
    let events = 0;
    const run = async (settings: typeof settingsOn, tag: string): Promise<number> => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < walk.length; i++) {
        const r = await services.shared.track.track(
          { scope, settings, ip: '127.0.0.1', now: new Date() },
          { deviceId: `${tag}-${i % 100}`, location: walk[i], accuracy: 10, foreground: true, replayed: false },
        );
        events += r.events.length;
      }
      return Number(process.hrtime.bigint() - started) / 1e3 / walk.length;
    };
    await run(settingsOff, 'warm');
    const off = await run(settingsOff, 'off');
    events = 0;
    const on = await run(settingsOn, 'on');
    console.log(`track update, places off                               ${off.toFixed(0)} µs`);
    console.log(`track update, places on                                ${on.toFixed(0)} µs  (+${(on - off).toFixed(0)} µs for place detection; ${(events / walk.length).toFixed(2)} events per update)`);
    // The rules alone (candidates + choice), without the settings read and the events' Store writes.
    {
      const started = process.hrtime.bigint();
      let n = 0;
      for (const p of walk) {
        const r = detectPlace({
          location: p, accuracy: 10, stopped: false, foreground: true, at: new Date(), stopDetection: false,
          candidates: services.shared.places.candidates(p, 10, new Date()), previous: undefined, lookup: (id) => index.get(id),
        });
        n += r.events.length;
      }
      console.log(`place detection alone (candidates + rules)             ${(Number(process.hrtime.bigint() - started) / 1e3 / walk.length).toFixed(0)} µs  (${n} entries)`);
    }
    const pk = created.keys.find((k) => !k.record.live && k.record.kind === 'publishable');
    if (!pk) throw new Error('the bench project has no test publishable key');
    return pk.key;
  } finally {
    await services.adapters.store.close();
  }
}

async function overHttp(dataDir: string, pk: string): Promise<void> {
  const gw = await startGatewayProcess(dataDir);
  try {
    const headers = { authorization: pk };
    const rnd = prng(5);
    const search = (query: string) => (req: { path?: string }) => {
      const [lng, lat] = randomPoint(rnd);
      req.path = `/v1/search/places?near=${lat.toFixed(6)},${lng.toFixed(6)}&${query}`;
      return req;
    };
    const first = await fetch(`${gw.url}/v1/search/places?near=40.75,-73.98&categories=cafe`, { headers });
    if (first.status !== 200) throw new Error(`search answered ${first.status}: ${await first.text()}`);
    await runLoad({ title: 'warm-up', url: `${gw.url}/v1/search/places`, headers, setupRequest: search('categories=cafe'), durationSeconds: 3, connections: CONNECTIONS });
    const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: CONNECTIONS });
    const cat = await runLoad({ title: 'GET /v1/search/places categories', url: `${gw.url}/v1/search/places`, headers, setupRequest: search('categories=food-beverage'), durationSeconds: SECONDS, connections: CONNECTIONS });
    const chain = await runLoad({ title: 'GET /v1/search/places chains', url: `${gw.url}/v1/search/places`, headers, setupRequest: search('chains=starbucks,mcdonalds'), durationSeconds: SECONDS, connections: CONNECTIONS });
    console.log('');
    for (const r of [bare, cat, chain]) {
      console.log(`${r.title.padEnd(40)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  ${(1e6 / r.requestsPerSecond).toFixed(0).padStart(5)} µs of gateway time per request  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`);
    }
    console.log(`gateway peak RSS ${gw.peakRssMiB().toFixed(0)} MiB`);
  } finally {
    await gw.stop();
  }
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  await importTimes();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-places-'));
  try {
    syntheticExtract(dataDir);
    console.log(`\nin-process (${PLACES} synthetic places over the NY metro, ${QUERIES} queries)`);
    const pk = await inProcess(dataDir);
    console.log(`\nHTTP (${SECONDS} s per run, ${CONNECTIONS} connections)`);
    await overHttp(dataDir, pk);
    console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
