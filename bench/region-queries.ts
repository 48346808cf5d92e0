// Queries on an imported region over HTTP: the gateway in a child process on a data directory that holds
// the region (e.g. kept by `KEEP=1 node dist/bench/import-region.js …`), the load generator here. Prints
// the seconds from start to the first embedded route, the gateway's RSS beside the size of the network
// files, then p50/p99 over one connection after warm-up of: car routes of at least 100 km across the
// region, a 25 × 25 car matrix, a 30-minute car isochrone geofence, an 80-point map-matching trace.
//
// Run: npm run bench:build && DATA_DIR=/work/scratch/keep-b8 node dist/bench/region-queries.js
// Options (env): SECONDS (5 a run), ISOCHRONES (20).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng } from './support/prng';

const SECONDS = Number(process.env.SECONDS ?? 5);
const ISOCHRONES = Number(process.env.ISOCHRONES ?? 20);

type LngLat = [number, number];

function metres(a: LngLat, b: LngLat): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b[1] - a[1]) * rad) / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(((b[0] - a[0]) * rad) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

const latLng = (p: LngLat): string => `${p[1].toFixed(5)},${p[0].toFixed(5)}`;

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
  // Points near the dense part of each tile of a tile-osm.py region (its --help gives the spacing).
  const tileLat = 0.128275, tileLon = 0.18233;
  const rows = Math.max(1, Math.round((north - south) / tileLat)), cols = Math.max(1, Math.round((east - west) / tileLon));
  const rnd = prng(35);
  const near = (): LngLat => {
    const r = Math.floor(rnd() * rows), c = Math.floor(rnd() * cols);
    return [-76.58 + c * tileLon + (rnd() - 0.5) * 0.02, 39.29 + r * tileLat + (rnd() - 0.5) * 0.02];
  };

  const started = Date.now();
  const gw = await startGatewayProcess(dataDir);
  const headers = { authorization: gw.keys['test publishable'] };
  const secret = { authorization: gw.keys['test secret'], 'content-type': 'application/json' };
  const get = async (p: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${gw.url}${p}`, { headers });
    return { status: res.status, body: await res.json() };
  };
  // Far pairs (at least 100 km), each answered by the embedded router.
  const pairs: Array<[LngLat, LngLat]> = [];
  let firstRouteSeconds = NaN;
  for (let tries = 0; pairs.length < 40 && tries < 4000; tries++) {
    const a = near(), b = near();
    if (metres(a, b) < 100_000) continue;
    const r = await get(`/v1/route/distance?origin=${latLng(a)}&destination=${latLng(b)}&modes=car&units=metric`);
    if (r.status !== 200 || r.body.routes?.car?.estimate) continue;
    if (Number.isNaN(firstRouteSeconds)) firstRouteSeconds = (Date.now() - started) / 1000;
    pairs.push([a, b]);
  }
  if (pairs.length === 0) throw new Error('no route of at least 100 km answered: is a region imported in DATA_DIR?');
  const files = filesBytes(path.join(dataDir, 'extracts'));
  console.log(`region ${manifests[0].name}: ${cols} × ${rows} tiles; machine ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`first embedded route ${firstRouteSeconds.toFixed(1)} s after start; gateway RSS ${gw.rssMiB().toFixed(0)} MiB (peak ${gw.peakRssMiB().toFixed(0)}), network files ${(files / 2 ** 20).toFixed(0)} MiB`);

  let k = 0;
  const routePath = (): string => {
    const [a, b] = pairs[k++ % pairs.length];
    return `/v1/route/distance?origin=${latLng(a)}&destination=${latLng(b)}&modes=car&units=metric`;
  };
  const matrixPath = (): string => {
    const points = Array.from({ length: 50 }, near);
    return `/v1/route/matrix?origins=${points.slice(0, 25).map(latLng).join('|')}&destinations=${points.slice(25).map(latLng).join('|')}&mode=car&units=metric`;
  };
  // An 80-point trace: a route's geometry of 10-30 km, sampled evenly, 5 s apart.
  let trace: Array<{ coordinates: LngLat; createdAt: string; accuracy: number }> = [];
  for (let tries = 0; trace.length === 0 && tries < 200; tries++) {
    const a = near();
    const b: LngLat = [a[0] + (rnd() - 0.5) * 0.25, a[1] + (rnd() - 0.5) * 0.2];
    const r = await get(`/v1/route/directions?locations=${latLng(a)}|${latLng(b)}&mode=car&units=metric&geometry=linestring`);
    const line = r.body.routes?.[0]?.geometry?.coordinates as LngLat[] | undefined;
    if (r.status !== 200 || !line || line.length < 20) continue;
    trace = Array.from({ length: 80 }, (_, i) => ({
      coordinates: line[Math.floor((i * (line.length - 1)) / 79)], createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i * 5)).toISOString(), accuracy: 10,
    }));
  }
  const matchBody = JSON.stringify({ path: trace, mode: 'car' });
  let iso = 0;
  const isoBody = (): string => JSON.stringify({ description: 'bench', type: 'isochrone', mode: 'car', radius: 30, coordinates: near() });

  await runLoad({ title: 'warm-up (routes)', url: `${gw.url}${routePath()}`, headers, durationSeconds: 2, connections: 1, setupRequest: (req) => ({ ...req, path: routePath() }) });
  const route = await runLoad({ title: 'route ≥100 km (car, distance)', url: `${gw.url}${routePath()}`, headers, durationSeconds: SECONDS, connections: 1, setupRequest: (req) => ({ ...req, path: routePath() }) });
  const matrix = await runLoad({ title: 'matrix 25 × 25 (car)', url: `${gw.url}${matrixPath()}`, headers, durationSeconds: SECONDS, connections: 1, setupRequest: (req) => ({ ...req, path: matrixPath() }) });
  const match = trace.length === 80
    ? await runLoad({ title: 'match 80 points (car)', url: `${gw.url}/v1/route/match`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: matchBody, durationSeconds: SECONDS, connections: 1 })
    : null;
  const isochrone = await runLoad({
    title: 'isochrone 30 min car (geofence PUT)', url: `${gw.url}/v1/geofences/bench/iso-0`, method: 'PUT', headers: secret, body: isoBody(), amount: ISOCHRONES, connections: 1,
    setupRequest: (req) => ({ ...req, path: `/v1/geofences/bench/iso-${++iso}`, body: isoBody() }),
  });
  console.log('');
  console.log(`| query | p50 ms | p99 ms | target |`);
  console.log('|---|---|---|---|');
  console.log(`| route ≥100 km | ${route.p50Ms} | ${route.p99Ms} | p50 ≤ 5, p99 ≤ 20 |`);
  console.log(`| matrix 25 × 25 | ${matrix.p50Ms} | ${matrix.p99Ms} | ≤ 50 |`);
  console.log(`| isochrone 30 min car | ${isochrone.p50Ms} | ${isochrone.p99Ms} | ≤ 300 |`);
  console.log(`| match 80 points | ${match?.p50Ms ?? 'no trace'} | ${match?.p99Ms ?? ''} | ≤ 15 |`);
  console.log(`gateway RSS at the end ${gw.rssMiB().toFixed(0)} MiB, peak ${gw.peakRssMiB().toFixed(0)} MiB; network files ${(files / 2 ** 20).toFixed(0)} MiB`);
  await gw.stop();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
