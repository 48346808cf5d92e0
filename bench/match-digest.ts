// Same answers before and after a change to map matching: OSRM's recorded Monaco trace and seeded
// east-Baltimore traces (routes between seeded points, every 50 m with ±10 m of noise, 5 s apart, as in
// bench/match-isochrone.ts) matched in car, foot and bike, both in process (the router's MatchResult)
// and over HTTP (POST /v1/route/match on the gateway in a child process, the response text byte for
// byte, in three option sets: default polyline6, linestring with every road attribute, imperial units).
// Prints one SHA-256 per mode and kind and writes every answer to OUT (for diff) when given.
//
//   npm run bench:build && node dist/bench/match-digest.js
// Options (env): TRACES (100), DATA_DIR (a folder kept between runs: imported there on first use, so
//   runs before and after a change read the same network files), OUT (a file for every answer, one a line).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import type { LngLat, RouterMode, TracePoint } from '../ports/router';
import { createEmbeddedRouter } from '../adapters/router/embedded/embedded-router';
import { ExtractCatalog } from '../adapters/extracts/extract-catalog';
import { startGatewayProcess } from './http/gateway-process';
import { prng } from './support/prng';
import { resampleTrace } from './support/trace-resample';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const MONACO = path.join(FIXTURES, 'osm/monaco-osrm.osm.pbf');
const BALTIMORE = path.join(FIXTURES, 'osm/us-md-baltimore-valhalla.osm.pbf');
const MONACO_TRACE = path.join(FIXTURES, 'engines/osrm/monaco-v6.0.0/match_input_trace.json');
const TRACES = Number(process.env.TRACES ?? 100);
const MODES: RouterMode[] = ['car', 'foot', 'bike'];
const OPTION_SETS: Array<Record<string, string>> = [
  {},
  { geometry: 'linestring', roadAttributes: 'names,roadClass,speedLimit', units: 'metric' },
  { geometry: 'polyline5', roadAttributes: 'speedLimit,names', units: 'imperial' },
];


async function importOnce(dataDir: string): Promise<void> {
  for (const [name, file] of [['monaco', MONACO], ['baltimore', BALTIMORE]] as const) {
    if (fs.existsSync(path.join(dataDir, 'extracts', name))) continue;
    await runImport({ file, name, dataDir, stages: [new RoutingStage()] });
  }
}

async function main(): Promise<void> {
  const kept = process.env.DATA_DIR;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-match-digest-'));
  fs.mkdirSync(dataDir, { recursive: true });
  await importOnce(dataDir);
  const router = createEmbeddedRouter(new ExtractCatalog({ dataDir, checkMs: 0 }));
  const loaded = await router.settled();
  const network = loaded.find((n) => n.extract === 'baltimore')!.network;
  const random = prng(42);
  const onRoad = (): LngLat => {
    const s = Math.floor(random() * network.segmentFrom.length);
    const p = network.segmentStart[s];
    return [network.pointLon[p] / 1e7, network.pointLat[p] / 1e7];
  };
  const monaco = JSON.parse(fs.readFileSync(MONACO_TRACE, 'utf8')) as { coordinates: LngLat[]; timestamps: number[] };
  const traces: TracePoint[][] = [monaco.coordinates.map((location, i) => ({ location, time: monaco.timestamps[i] }))];
  while (traces.length < TRACES + 1) {
    let route;
    try {
      route = (await router.route({ locations: [onRoad(), onRoad()], mode: 'car' })).routes[0];
    } catch {
      continue;
    }
    const points = resampleTrace(route.geometry, 50, 80, random);
    if (points.length === 80) traces.push(points);
  }

  const out = process.env.OUT ? fs.createWriteStream(process.env.OUT) : undefined;
  const digests = new Map<string, crypto.Hash>();
  const record = (kind: string, text: string) => {
    if (!digests.has(kind)) digests.set(kind, crypto.createHash('sha256'));
    digests.get(kind)!.update(text).update('\n');
    out?.write(`${kind}\t${text}\n`);
  };
  for (const mode of MODES) {
    for (const points of traces) {
      let text: string;
      try {
        text = JSON.stringify(await router.match({ points, mode }));
      } catch (err) {
        text = `error ${(err as Error).message}`;
      }
      record(`${mode} in process`, text);
    }
  }

  // The gateway prints its keys only when it makes its database: a kept folder's is made anew.
  for (const f of ['waymark.sqlite', 'waymark.sqlite-wal', 'waymark.sqlite-shm']) fs.rmSync(path.join(dataDir, f), { force: true });
  const gw = await startGatewayProcess(dataDir);
  try {
    const headers = { authorization: gw.keys['test publishable'], 'content-type': 'application/json' };
    for (const mode of MODES) {
      for (const [t, points] of traces.entries()) {
        const options = OPTION_SETS[t % OPTION_SETS.length];
        const body = JSON.stringify({
          path: points.map((p) => ({ coordinates: `${p.location[1]},${p.location[0]}`, createdAt: new Date(p.time! * 1000).toISOString(), ...(p.accuracy !== undefined ? { accuracy: p.accuracy } : {}) })),
          mode, ...options,
        });
        const res = await fetch(`${gw.url}/v1/route/match`, { method: 'POST', headers, body });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${mode} trace ${t}: ${res.status} ${text.slice(0, 200)}`);
        record(`${mode} over HTTP`, text);
      }
    }
  } finally {
    await gw.stop();
  }
  out?.end();
  for (const [kind, hash] of digests) console.log(`${kind.padEnd(18)} ${hash.digest('hex')}`);
  console.log(`${traces.length} traces (Monaco's and ${TRACES} seeded) in ${MODES.join(', ')}`);
  if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
