// HTTP routing benchmark: GET /v1/route/distance and /v1/route/directions against the gateway in a child
// process, next to the bare authenticated route (GET /v1/config) of the same run, whatever router the
// environment configures (WAYMARK_ROUTER…; none: the geodesic estimate). The answering source is printed.
//
// Run: npm run bench:build && node dist/bench/route-http.js
// Options (env): SECONDS (5), CONNECTIONS (1: latency of one request stream), VARY (unset: the recorded
//   casino → palace pair on every request; 1: seeded random pairs inside Monaco's road area), EXTRACT
//   (an .osm.pbf imported first for the embedded router; default Monaco from ../shared/fixtures when
//   present, `none` for no import)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng } from './support/prng';

const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1);
const VARY = process.env.VARY === '1';

/** Casino → palace: the pair OSRM v6's Monaco recording answers (../shared/fixtures/engines/osrm). */
const ORIGIN = '43.7392,7.4277';
const DESTINATION = '43.7311,7.4197';
/** Monaco's built-up area, where random pairs land near roads. */
const BOX = { minLat: 43.7275, maxLat: 43.7475, minLng: 7.412, maxLng: 7.437 };

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-route-'));
  const extract = process.env.EXTRACT ?? path.resolve(__dirname, '../../../shared/fixtures/osm/monaco-osrm.osm.pbf');
  if (extract !== 'none' && fs.existsSync(extract)) {
    await runImport({ file: extract, name: 'bench', dataDir, stages: [new RoutingStage()] });
    console.log(`imported ${path.basename(extract)} for the embedded router`);
  }
  const gw = await startGatewayProcess(dataDir);
  const pk = gw.keys['test publishable'];
  const headers = { authorization: pk };
  const rnd = prng(15);
  const point = (): string => `${(BOX.minLat + rnd() * (BOX.maxLat - BOX.minLat)).toFixed(5)},${(BOX.minLng + rnd() * (BOX.maxLng - BOX.minLng)).toFixed(5)}`;
  const pair = (): [string, string] => (VARY ? [point(), point()] : [ORIGIN, DESTINATION]);

  const probe = await fetch(`${gw.url}/v1/route/distance?origin=${ORIGIN}&destination=${DESTINATION}&modes=car`, { headers });
  const probeBody = (await probe.json()) as { meta: { warning?: string }; routes?: { car?: { estimate?: boolean } } };
  if (probe.status !== 200) throw new Error(`route/distance answered ${probe.status}: ${JSON.stringify(probeBody.meta)}`);
  console.log(`router for car: ${probeBody.routes?.car?.estimate ? 'geodesic estimate (no network configured or imported)' : process.env.WAYMARK_ROUTER ?? process.env.WAYMARK_ROUTER_CAR ?? 'embedded'}`);
  console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CONNECTIONS} connection(s), ${SECONDS} s per run, ${VARY ? 'random pairs' : 'one pair'}`);

  const distancePath = (): string => {
    const [o, d] = pair();
    return `/v1/route/distance?origin=${o}&destination=${d}&modes=car&units=metric`;
  };
  const directionsPath = (): string => {
    const [o, d] = pair();
    return `/v1/route/directions?locations=${o}|${d}&mode=car&units=metric`;
  };
  await runLoad({ title: 'warm-up (distance)', url: `${gw.url}${distancePath()}`, headers, durationSeconds: 2, connections: CONNECTIONS, setupRequest: (req) => ({ ...req, path: distancePath() }) });
  const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: CONNECTIONS });
  const distance = await runLoad({ title: 'GET /v1/route/distance (car)', url: `${gw.url}${distancePath()}`, headers, durationSeconds: SECONDS, connections: CONNECTIONS, setupRequest: (req) => ({ ...req, path: distancePath() }) });
  const directions = await runLoad({ title: 'GET /v1/route/directions (car)', url: `${gw.url}${directionsPath()}`, headers, durationSeconds: SECONDS, connections: CONNECTIONS, setupRequest: (req) => ({ ...req, path: directionsPath() }) });
  console.log('');
  // autocannon reports whole milliseconds; with few connections the mean from throughput is finer.
  const mean = (r: { requestsPerSecond: number }): string => ((1000 * CONNECTIONS) / r.requestsPerSecond).toFixed(2);
  console.log(`route distance p50/p99   ${distance.p50Ms} / ${distance.p99Ms} ms, mean ${mean(distance)} ms   (bare route ${bare.p50Ms} / ${bare.p99Ms} ms, mean ${mean(bare)} ms)`);
  console.log(`directions p50/p99       ${directions.p50Ms} / ${directions.p99Ms} ms, mean ${mean(directions)} ms`);
  console.log(`throughput ratio distance / bare  ${(distance.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`);
  console.log(`peak RSS (gateway)       ${gw.peakRssMiB().toFixed(0)} MiB`);
  await gw.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
