// Queries on an imported region over HTTP: the gateway in a child process on a data directory that holds
// the region (e.g. kept by `KEEP=1 node dist/bench/import-region.js …`), the load generator here. Prints
// the seconds from start to the first embedded route, the gateway's RSS beside the size of the network
// files, then p50/p99 over one connection after warm-up of: car routes of at least 100 km across the
// region, a 25 × 25 car matrix, a 30-minute car isochrone geofence, an 80-point map-matching trace.
//
// Run: npm run bench:build && DATA_DIR=/work/scratch/keep-b8 node dist/bench/region-queries.js
// Options (env): SECONDS (5 a run), ISOCHRONES (20), MIN_KM (100: the shortest route asked; a ×4 region is
//   only 60 km across, so its runs say MIN_KM=40 and are not the target's figure), REIMPORT=1 (then the
//   region is swapped for a copy of itself while routes are asked: the reload's peak RSS and longest wait),
//   ONLY (a comma list of route, matrix, match, isochrone: the others are not asked; to profile one kind,
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" as bench/http/gateway-process.ts says).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng } from './support/prng';
import { latLng, metres, tilePoints, type LngLat } from './support/region-points';

const SECONDS = Number(process.env.SECONDS ?? 5);
const ISOCHRONES = Number(process.env.ISOCHRONES ?? 20);
const MIN_KM = Number(process.env.MIN_KM ?? 100);
const ONLY = process.env.ONLY?.split(',');
const asked = (kind: string): boolean => ONLY === undefined || ONLY.includes(kind);




/** Points every `step` metres along a line, at most `count`. */
function everyMetres(line: LngLat[], step: number, count: number): LngLat[] {
  const out: LngLat[] = [];
  let carried = 0;
  for (let i = 1; i < line.length && out.length < count; i++) {
    const len = metres(line[i - 1], line[i]);
    for (let d = step - carried; d <= len && out.length < count; d += step) {
      const t = d / len;
      out.push([line[i - 1][0] + (line[i][0] - line[i - 1][0]) * t, line[i - 1][1] + (line[i][1] - line[i - 1][1]) * t]);
    }
    carried = (carried + len) % step;
  }
  return out;
}

function filesBytes(dir: string): number {
  let total = 0;
  for (const name of fs.readdirSync(dir)) {
    const extract = path.join(dir, name, 'routing');
    if (!fs.existsSync(extract)) continue;
    for (const f of fs.readdirSync(extract)) total += fs.statSync(path.join(extract, f)).size;
  }
  return total;
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir || !fs.existsSync(path.join(dataDir, 'extracts'))) throw new Error('DATA_DIR must be a data directory with an imported region in extracts/');
  const manifests = fs.readdirSync(path.join(dataDir, 'extracts')).filter((n) => !n.startsWith('.'))
    .map((n) => JSON.parse(fs.readFileSync(path.join(dataDir, 'extracts', n, 'extract.json'), 'utf8')) as { name: string; bbox: [number, number, number, number] });
  const [west, south, east, north] = manifests[0].bbox;
  const rnd = prng(35);
  // Points near the dense part of each tile of a tile-osm.py region, as the other region benches pick them.
  const { rows, cols, near } = tilePoints([west, south, east, north], rnd);

  const started = Date.now();
  const gw = await startGatewayProcess(dataDir);
  // Keys are printed on a store's first start only: a second run on the same DATA_DIR has none to use.
  if (!gw.keys['test publishable']) {
    await gw.stop();
    throw new Error(`the gateway printed no keys: ${dataDir}/waymark.sqlite was made by an earlier run; move it aside (the extracts stay) and run again`);
  }
  const headers = { authorization: gw.keys['test publishable'] };
  const secret = { authorization: gw.keys['test secret'], 'content-type': 'application/json' };
  const get = async (p: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${gw.url}${p}`, { headers });
    return { status: res.status, body: await res.json() };
  };
  // Far pairs (at least MIN_KM), each answered by the embedded router.
  const pairs: Array<[LngLat, LngLat]> = [];
  let firstRouteSeconds = NaN;
  let firstRouteCpuS = NaN;
  let waits = 0;
  // The gateway listens before its networks are read: the first answer, whatever it is, says how soon it answers.
  const firstAnswerSeconds = (Date.now() - started) / 1000;
  for (let tries = 0; pairs.length < 40 && tries < 4000; tries++) {
    const a = near(), b = near();
    if (metres(a, b) < MIN_KM * 1000) continue;
    const r = await get(`/v1/route/distance?origin=${latLng(a)}&destination=${latLng(b)}&modes=car&units=metric`);
    if (r.status === 503 && waits++ < 3000) {
      // Still reading the region: ask again shortly (Retry-After says 2 s; polling closer measures the load).
      await new Promise((resolve) => setTimeout(resolve, 200));
      tries--;
      continue;
    }
    if (r.status !== 200 || r.body.routes?.car?.estimate) continue;
    if (Number.isNaN(firstRouteSeconds)) {
      firstRouteSeconds = (Date.now() - started) / 1000;
      firstRouteCpuS = gw.cpuMs() / 1000;
    }
    pairs.push([a, b]);
  }
  if (pairs.length === 0) throw new Error(`no route of at least ${MIN_KM} km answered: is a region imported in DATA_DIR?`);
  const files = filesBytes(path.join(dataDir, 'extracts'));
  console.log(`region ${manifests[0].name}: ${cols} × ${rows} tiles; machine ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`gateway listening ${firstAnswerSeconds.toFixed(1)} s after start; first embedded route ${firstRouteSeconds.toFixed(1)} s after start (gateway CPU until then ${firstRouteCpuS.toFixed(1)} s); gateway RSS ${gw.rssMiB().toFixed(0)} MiB (peak ${gw.peakRssMiB().toFixed(0)}), network files ${(files / 2 ** 20).toFixed(0)} MiB`);

  let k = 0;
  const routePath = (): string => {
    const [a, b] = pairs[k++ % pairs.length];
    return `/v1/route/distance?origin=${latLng(a)}&destination=${latLng(b)}&modes=car&units=metric`;
  };
  const matrixPath = (): string => {
    const points = Array.from({ length: 50 }, near);
    return `/v1/route/matrix?origins=${points.slice(0, 25).map(latLng).join('|')}&destinations=${points.slice(25).map(latLng).join('|')}&mode=car&units=metric`;
  };
  // An 80-point trace as a phone records one: a route's line resampled every 50 m, 5 s apart (36 km/h),
  // as bench/match-isochrone.ts makes them. Sampling the line's vertices evenly put points 125–375 m
  // apart, faster than a car may go, and the matcher split the trace at every step.
  let trace: Array<{ coordinates: string; createdAt: string; accuracy: number }> = [];
  for (let tries = 0; trace.length === 0 && tries < 200; tries++) {
    const a = near();
    const b: LngLat = [a[0] + (rnd() - 0.5) * 0.1, a[1] + (rnd() - 0.5) * 0.08];
    const r = await get(`/v1/route/directions?locations=${latLng(a)}|${latLng(b)}&mode=car&units=metric&geometry=linestring`);
    const line = r.body.routes?.[0]?.geometry?.coordinates as LngLat[] | undefined;
    if (r.status !== 200 || !line) continue;
    const points = everyMetres(line, 50, 80);
    if (points.length < 80) continue;
    trace = points.map((p, i) => ({ coordinates: latLng(p), createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i * 5)).toISOString(), accuracy: 10 }));
  }
  const matchBody = JSON.stringify({ path: trace, mode: 'car' });
  let iso = 0;
  const isoBody = (): string => JSON.stringify({ description: 'bench', type: 'isochrone', mode: 'car', radius: 30, coordinates: near() });

  await runLoad({ title: 'warm-up (routes)', url: `${gw.url}${routePath()}`, headers, durationSeconds: 2, connections: 1, setupRequest: (req) => ({ ...req, path: routePath() }) });
  // Gateway CPU per request beside each latency: on a shared machine the wall clock mostly measures the wait for a core.
  const cpuPer = new Map<string, string>();
  const measured = async <R extends { title: string; total: number }>(run: () => Promise<R>): Promise<R> => {
    const cpu0 = gw.cpuMs();
    const r = await run();
    cpuPer.set(r.title, ((gw.cpuMs() - cpu0) / Math.max(1, r.total)).toFixed(1));
    return r;
  };
  const bare = await measured(() => runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: 1 }));
  const route = !asked('route') ? null
    : await measured(() => runLoad({ title: `route ≥${MIN_KM} km (car, distance)`, url: `${gw.url}${routePath()}`, headers, durationSeconds: SECONDS, connections: 1, setupRequest: (req) => ({ ...req, path: routePath() }) }));
  const matrix = !asked('matrix') ? null
    : await measured(() => runLoad({ title: 'matrix 25 × 25 (car)', url: `${gw.url}${matrixPath()}`, headers, durationSeconds: SECONDS, connections: 1, setupRequest: (req) => ({ ...req, path: matrixPath() }) }));
  const match = trace.length === 80 && asked('match')
    ? await measured(() => runLoad({ title: 'match 80 points (car)', url: `${gw.url}/v1/route/match`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: matchBody, durationSeconds: SECONDS, connections: 1 }))
    : null;
  const isochrone = !asked('isochrone') ? null : await measured(() => runLoad({
    title: 'isochrone 30 min car (geofence PUT)', url: `${gw.url}/v1/geofences/bench/iso-0`, method: 'PUT', headers: secret, body: isoBody(), amount: ISOCHRONES, connections: 1,
    setupRequest: (req) => ({ ...req, path: `/v1/geofences/bench/iso-${++iso}`, body: isoBody() }),
  }));
  console.log('');
  // A non-2xx answer is usually a fast error, not a fast query: counted beside each figure.
  const failed = (r: { non2xx: number; errors: number } | null) => (r ? r.non2xx + r.errors : '');
  const cpu = (r: { title: string } | null) => (r ? cpuPer.get(r.title) ?? '' : '');
  console.log(`| query | p50 ms | p99 ms | gateway CPU ms a request | non-2xx | target |`);
  console.log('|---|---|---|---|---|---|');
  console.log(`| GET /v1/config (bare) | ${bare.p50Ms} | ${bare.p99Ms} | ${cpu(bare)} | ${failed(bare)} | |`);
  if (route) console.log(`| route ≥${MIN_KM} km | ${route.p50Ms} | ${route.p99Ms} | ${cpu(route)} | ${failed(route)} | p50 ≤ 5, p99 ≤ 20 |`);
  if (matrix) console.log(`| matrix 25 × 25 | ${matrix.p50Ms} | ${matrix.p99Ms} | ${cpu(matrix)} | ${failed(matrix)} | ≤ 50 |`);
  if (isochrone) console.log(`| isochrone 30 min car | ${isochrone.p50Ms} | ${isochrone.p99Ms} | ${cpu(isochrone)} | ${failed(isochrone)} | ≤ 300 |`);
  if (asked('match')) console.log(`| match 80 points | ${match?.p50Ms ?? 'no trace'} | ${match?.p99Ms ?? ''} | ${cpu(match)} | ${failed(match)} | ≤ 15 |`);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`gateway RSS at the end ${gw.rssMiB().toFixed(0)} MiB, peak ${gw.peakRssMiB().toFixed(0)} MiB; network files ${(files / 2 ** 20).toFixed(0)} MiB`);
  if (process.env.REIMPORT === '1') await reimportWhileServing(dataDir, manifests[0].name, gw, routePath, headers);
  await gw.stop();
}

/**
 * REIMPORT=1: a re-import of the region while routes are asked on one connection. The import's last
 * step is done by hand (a copy of the extract with a new `importedAt`, swapped in with the two renames
 * core/formats/extract-folders.ts makes), so the figure is the gateway's reload, not an import sharing
 * the machine: its RSS before and its peak (VmHWM) while reloading, the longest wait of a request, and
 * any non-2xx answer.
 */
async function reimportWhileServing(
  dataDir: string, name: string, gw: Awaited<ReturnType<typeof startGatewayProcess>>, routePath: () => string, headers: Record<string, string>,
): Promise<void> {
  const extracts = path.join(dataDir, 'extracts');
  const staging = path.join(extracts, `.staging-${name}-${process.pid}`);
  fs.cpSync(path.join(extracts, name), staging, { recursive: true });
  const manifestFile = path.join(staging, 'extract.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { importedAt: string };
  manifest.importedAt = new Date().toISOString();
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  const before = gw.rssMiB();
  const peakBefore = gw.peakRssMiB();
  let asking = true;
  let answered = 0;
  let failed = 0;
  let longestMs = 0;
  const loop = (async () => {
    while (asking) {
      const t = Date.now();
      const res = await fetch(`${gw.url}${routePath()}`, { headers });
      await res.arrayBuffer();
      longestMs = Math.max(longestMs, Date.now() - t);
      if (res.status === 200) answered++;
      else failed++;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const old = path.join(extracts, `.old-${name}-${process.pid}`);
  fs.renameSync(path.join(extracts, name), old);
  fs.renameSync(staging, path.join(extracts, name));
  fs.rmSync(old, { recursive: true, force: true });
  // The catalog looks every second; the reload runs inside a request, then a few more seconds of routes.
  await new Promise((resolve) => setTimeout(resolve, 8000));
  asking = false;
  await loop;
  console.log(`re-import while serving: RSS before ${before.toFixed(0)} MiB (peak until then ${peakBefore.toFixed(0)}), peak after the reload ${gw.peakRssMiB().toFixed(0)} MiB, RSS after ${gw.rssMiB().toFixed(0)} MiB; ${answered} routes answered, ${failed} not 200, longest wait ${longestMs} ms`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
