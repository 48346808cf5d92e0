// Map matching and isochrones on the embedded router: the time to match an 80-point trace, in process
// (wall and CPU time, each trace's least CPU over four passes, and how much work the transition searches
// did) and over HTTP (POST /v1/route/match on the gateway in a child process, one connection, next to
// GET /v1/config of the same run; OSRM's CI publishes 3–4.6 ms for 82 points in its library, 8–12 ms
// median over HTTP), and to build 5-, 10- and 20-minute isochrones by car and on foot, with the
// outline's size. Seeded: the traces follow routes between seeded points, resampled every 50 m with
// ±10 m of noise, 5 s apart.
//
//   npm run bench:build && node dist/bench/match-isochrone.js [extract.osm.pbf]
// Options (env): SECONDS (5, per HTTP run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import type { LngLat, TracePoint } from '../ports/router';
import { createEmbeddedRouter } from '../adapters/router/embedded/embedded-router';
import { ExtractCatalog } from '../adapters/extracts/extract-catalog';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { prng } from './support/prng';
import { resampleTrace } from './support/trace-resample';

const FILE = process.argv[2] ?? path.resolve(__dirname, '../../../shared/fixtures/osm/us-md-baltimore-valhalla.osm.pbf');
const TRACES = 30;
const POINTS = 80;
const SECONDS = Number(process.env.SECONDS ?? 5);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}


async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-match-'));
  const started = Date.now();
  const imported = await runImport({ file: FILE, name: 'bench', dataDir, stages: [new RoutingStage()] });
  console.log(`imported ${path.basename(FILE)} in ${((Date.now() - started) / 1000).toFixed(1)} s; load ${os.loadavg()[0].toFixed(1)}`);
  void imported;
  const router = createEmbeddedRouter(new ExtractCatalog({ dataDir, checkMs: 0 }));
  const network = (await router.settled())[0].network;
  const random = prng(42);
  const onRoad = (): LngLat => {
    const s = Math.floor(random() * network.segmentFrom.length);
    const p = network.segmentStart[s];
    return [network.pointLon[p] / 1e7, network.pointLat[p] / 1e7];
  };

  const traces: TracePoint[][] = [];
  while (traces.length < TRACES) {
    let route;
    try {
      route = (await router.route({ locations: [onRoad(), onRoad()], mode: 'car' })).routes[0];
    } catch {
      continue;
    }
    const points = resampleTrace(route.geometry, 50, POINTS, random);
    if (points.length === POINTS) traces.push(points);
  }
  const car = router.networksLoaded[0].routers.car;
  const times: number[] = [];
  const cpu: number[] = [];
  let matchedShare = 0;
  // A first pass warms the code up; the second is measured.
  for (const pass of [0, 1]) {
    const stats = { ...car.transitionStats };
    for (const points of traces) {
      const t0 = process.hrtime.bigint();
      const u0 = process.cpuUsage();
      const result = await router.match({ points, mode: 'car' });
      if (pass === 0) continue;
      cpu.push(process.cpuUsage(u0).user / 1e3);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      matchedShare += result.matchedPoints.length / POINTS;
    }
    if (pass === 1) {
      const pairs = car.transitionStats.pairs - stats.pairs;
      console.log(`transitions: ${pairs} candidate pairs, ${((car.transitionStats.settled - stats.settled) / pairs).toFixed(1)} vertices settled a pair, ${((100 * (car.transitionStats.undecided - stats.undecided)) / pairs).toFixed(1)} % left to the hierarchy`);
    }
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(`match in process, ${POINTS} points, ${TRACES} traces: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (CPU p50 ${percentile(cpu, 50).toFixed(1)} ms, p99 ${percentile(cpu, 99).toFixed(1)} ms); ${(100 * matchedShare / TRACES).toFixed(1)} % of points matched; load ${os.loadavg()[0].toFixed(1)}`);
  // The p99 of one pass is its slowest match, which a collection or the machine's load can make: each
  // trace's least CPU over four more passes says which trace is slow by its own work.
  const least = new Array<number>(TRACES).fill(Infinity);
  const settled = new Array<number>(TRACES).fill(0);
  for (let pass = 0; pass < 4; pass++) {
    for (const [t, points] of traces.entries()) {
      const s0 = car.transitionStats.settled;
      const u0 = process.cpuUsage();
      await router.match({ points, mode: 'car' });
      least[t] = Math.min(least[t], process.cpuUsage(u0).user / 1e3);
      settled[t] = car.transitionStats.settled - s0;
    }
  }
  const slowest = least.indexOf(Math.max(...least));
  const sortedLeast = [...least].sort((a, b) => a - b);
  console.log(`each trace's least CPU of 4 passes: median ${percentile(sortedLeast, 50).toFixed(1)} ms, slowest ${least[slowest].toFixed(1)} ms (trace ${slowest}, ${settled[slowest]} vertices settled)`);

  // Over HTTP, the traces in turn, as an app would send them.
  const gw = await startGatewayProcess(dataDir);
  const headers = { authorization: gw.keys['test publishable'] };
  const bodies = traces.map((points) => JSON.stringify({
    path: points.map((p) => ({ coordinates: `${p.location[1]},${p.location[0]}`, createdAt: new Date(p.time! * 1000).toISOString(), accuracy: p.accuracy })),
    mode: 'car',
  }));
  let next = 0;
  const matchLoad = (title: string, durationSeconds: number) => runLoad({
    title, url: `${gw.url}/v1/route/match`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: bodies[0], durationSeconds, connections: 1,
    setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
  });
  await matchLoad('warm-up (match)', 2);
  const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers, durationSeconds: SECONDS, connections: 1 });
  const cpu0 = gw.cpuMs();
  const http = await matchLoad(`POST /v1/route/match (${POINTS} points, car)`, SECONDS);
  const served = Math.max(1, http.total);
  console.log(`match over HTTP, one connection: p50 ${http.p50Ms} ms, p99 ${http.p99Ms} ms, ${http.requestsPerSecond} req/s, ${http.non2xx} non-2xx, gateway CPU ${((gw.cpuMs() - cpu0) / served).toFixed(1)} ms a request (GET /v1/config: p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms); load ${os.loadavg()[0].toFixed(1)}`);
  await gw.stop();

  const center = onRoad();
  for (const mode of ['car', 'foot'] as const) {
    for (const minutes of [5, 10, 20]) {
      const runs: number[] = [];
      let ring: LngLat[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = process.hrtime.bigint();
        [ring] = await router.isochrone({ center, mode, minutes });
        runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      runs.sort((a, b) => a - b);
      const kx = Math.cos((center[1] * Math.PI) / 180) * 111.32;
      let area = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) area += ring[j][0] * kx * ring[i][1] * 111.32 - ring[i][0] * kx * ring[j][1] * 111.32;
      console.log(`isochrone ${mode} ${minutes} min: median ${runs[2].toFixed(1)} ms, ${ring.length} vertices, ${Math.abs(area / 2).toFixed(2)} km²`);
    }
  }
  console.log(`load ${os.loadavg()[0].toFixed(1)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
