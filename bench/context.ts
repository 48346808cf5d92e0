// Context benchmark: the cost of one GET /v1/context (regions of the point + the geofences the track
// engine would enter there) in-process and over HTTP, and the memory the region data takes.
//
// - in-process: the route's handler itself (validation, stateless geofence evaluation, regions lookup,
//   answer object), and its two parts alone, over seeded random points in the New York metro where the
//   geofences are, and over random points in the contiguous US (regions only matter there);
// - HTTP: autocannon against the gateway in a child process (rate limits off), with a different point
//   per request, beside the bare authenticated route GET /v1/config;
// - memory: heap / typed arrays / RSS before and after the first lookup loads the bundled region data
//   (and the imported DMA layer when the shared fixture is present).
//
// Run: npm run bench:build && node --expose-gc dist/bench/context.js
// Options (env): GEOFENCES (10000), POINTS (50000), RUNS (5), SECONDS (10), CONNECTIONS (32)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import type { RequestContext } from '../server/http/route';
import { geofencesAt } from '../server/features/regions/context-geofences';
import { importBoundaries } from '../importers/boundaries/import-boundaries';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng, randomPoint, type LngLat } from './support/metro';
import { seedGeofences } from './support/seed';
import { mb, memory } from './support/memory';

const GEOFENCES = Number(process.env.GEOFENCES ?? 10_000);
const POINTS = Number(process.env.POINTS ?? 50_000);
const RUNS = Number(process.env.RUNS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const DMA_TOPOJSON = [
  path.resolve(__dirname, '../../../shared/fixtures/regions/nielsen_dma.topojson.json'),
  path.resolve(process.cwd(), '../shared/fixtures/regions/nielsen_dma.topojson.json'),
].find((p) => fs.existsSync(p));

function summary(values: number[], unit: string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `min ${sorted[0].toFixed(2)}  median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}  mean ${mean.toFixed(2)} ${unit}`;
}

/** µs per call over `points`, RUNS times after a warm-up; the sink keeps the work observable. */
async function timeRuns(label: string, points: LngLat[], call: (p: LngLat) => Promise<number> | number): Promise<number> {
  let sink = 0;
  for (let i = 0; i < Math.min(points.length, 5000); i++) sink += await call(points[i]);
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = process.hrtime.bigint();
    for (const p of points) sink += await call(p);
    runs.push(Number(process.hrtime.bigint() - started) / 1e3 / points.length);
  }
  console.log(`${label.padEnd(52)} ${summary(runs, 'µs/lookup')}   (sink ${sink})`);
  return [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
}

function usPoints(seed: number): LngLat[] {
  const rnd = prng(seed);
  return Array.from({ length: POINTS }, () => [-124 + rnd() * 57, 25 + rnd() * 24] as LngLat);
}

async function inProcess(dataDir: string, pk: string): Promise<void> {
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false }, silentLogger());
  try {
    const auth = await services.shared.auth.authenticate(pk, 'publishable');
    const scope = { projectId: auth.projectId, live: auth.live };
    await services.shared.geofences.index(scope);
    const route = services.installed.features.get('regions')?.routes?.find((r) => r.path === '/v1/context');
    if (route === undefined) throw new Error('no GET /v1/context route');

    const before = memory();
    const loadStarted = process.hrtime.bigint();
    services.adapters.regions.lookup([-73.98, 40.75]);
    const loadMs = Number(process.hrtime.bigint() - loadStarted) / 1e6;
    const after = memory();
    console.log(`region data load (first lookup)                      ${loadMs.toFixed(0)} ms${DMA_TOPOJSON ? ' (bundled + imported DMA layer)' : ' (bundled only)'}`);
    console.log(`region data memory                                   heap +${mb(after.heap - before.heap)}, typed arrays +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS +${mb(after.rss - before.rss)}`);

    const rnd = prng(11);
    const metro: LngLat[] = Array.from({ length: POINTS }, () => randomPoint(rnd));
    const us = usPoints(12);
    const ctxFor = (p: LngLat): RequestContext => ({
      auth, scope, params: {}, query: { coordinates: `${p[1]},${p[0]}` }, body: {}, headers: {}, ip: '127.0.0.1', requestId: 'bench', now: new Date(),
    });
    let insideTotal = 0;
    await timeRuns(`handler, NY metro (${GEOFENCES} geofences)`, metro, async (p) => {
      const reply = await route.handler(ctxFor(p));
      const n = (reply.body?.geofences as unknown[]).length;
      insideTotal += n;
      return n;
    });
    console.log(`  (mean geofences per answer: ${(insideTotal / ((RUNS + 1) * POINTS)).toFixed(2)})`);
    await timeRuns('handler, contiguous US', us, async (p) => ((await route.handler(ctxFor(p))).body?.geofences as unknown[]).length);
    const now = new Date();
    await timeRuns('  geofences alone, NY metro', metro, async (p) =>
      (await geofencesAt(services.shared.geofences, { scope, point: p, at: now, ip: '127.0.0.1', settings: auth.settings })).length);
    await timeRuns('  regions alone, NY metro', metro, (p) => Object.keys(services.adapters.regions.lookup(p)).length);
    await timeRuns('  regions alone, contiguous US', us, (p) => Object.keys(services.adapters.regions.lookup(p)).length);
  } finally {
    await services.adapters.store.close();
  }
}

async function overHttp(dataDir: string, pk: string): Promise<void> {
  const gw = await startGatewayProcess(dataDir);
  try {
    const headers = { authorization: pk };
    // A track (regions are off by default) loads the geofence index, so the next figure is the region data alone.
    const rssStart = gw.peakRssMiB();
    await fetch(`${gw.url}/v1/track`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'warm', latitude: 40.75, longitude: -73.98, accuracy: 10 }),
    });
    const rssBefore = gw.peakRssMiB();
    const first = await fetch(`${gw.url}/v1/context?coordinates=40.75,-73.98`, { headers });
    if (first.status !== 200) throw new Error(`context answered ${first.status}: ${await first.text()}`);
    console.log(`gateway peak RSS: started ${rssStart.toFixed(0)} MiB, after the geofence index loaded ${rssBefore.toFixed(0)} MiB, after the first context call ${gw.peakRssMiB().toFixed(0)} MiB (region data, peak while loading)`);

    const rnd = prng(21);
    const metro = (req: { path?: string }) => {
      const [lng, lat] = randomPoint(rnd);
      req.path = `/v1/context?coordinates=${lat.toFixed(6)},${lng.toFixed(6)}`;
      return req;
    };
    const us = (req: { path?: string }) => {
      req.path = `/v1/context?coordinates=${(25 + rnd() * 24).toFixed(6)},${(-124 + rnd() * 57).toFixed(6)}`;
      return req;
    };
    await runLoad({ title: 'warm-up (context)', url: `${gw.url}/v1/context`, headers, setupRequest: metro, durationSeconds: 3, connections: CONNECTIONS });
    const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: CONNECTIONS });
    const nyc = await runLoad({ title: 'GET /v1/context, NY metro', url: `${gw.url}/v1/context`, headers, setupRequest: metro, durationSeconds: SECONDS, connections: CONNECTIONS });
    const usa = await runLoad({ title: 'GET /v1/context, contiguous US', url: `${gw.url}/v1/context`, headers, setupRequest: us, durationSeconds: SECONDS, connections: CONNECTIONS });
    console.log('');
    // One gateway process handles one request at a time on its event loop: 1e6 / throughput is its time per request.
    for (const r of [bare, nyc, usa]) {
      console.log(`${r.title.padEnd(40)} ${(1e6 / r.requestsPerSecond).toFixed(0).padStart(5)} µs of gateway time per request (p50 latency ${r.p50Ms} ms at ${CONNECTIONS} connections)`);
    }
    console.log(`context over the bare route              +${(1e6 / nyc.requestsPerSecond - 1e6 / bare.requestsPerSecond).toFixed(0)} µs per request (NY metro)`);
  } finally {
    await gw.stop();
  }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-context-'));
  try {
    console.log(`seeding ${GEOFENCES} geofences into ${dataDir} …`);
    const seeded = await seedGeofences(dataDir, GEOFENCES);
    if (DMA_TOPOJSON !== undefined) {
      const dma = await importBoundaries({ file: DMA_TOPOJSON, type: 'dma', codeProperty: 'dma', nameProperty: 'dma1', dataDir });
      console.log(`imported ${dma.imported} DMAs from the shared fixture`);
    }
    const pk = seeded.keys['test publishable'];
    console.log(`\nin-process (${POINTS} points, ${RUNS} runs)`);
    await inProcess(dataDir, pk);
    console.log(`\nHTTP (${SECONDS} s per run, ${CONNECTIONS} connections)`);
    await overHttp(dataDir, pk);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
