// The embedded router's queries on an imported region, in this process (no HTTP): car routes of at least
// MIN_KM across the region as route/distance asks them (no steps), the same with steps (directions), the
// snapping of points to the car network, and 25 × 25 car tables, on seeded points near the dense part of each tile of a tile-osm.py region. Prints
// the CPU milliseconds per query (process.cpuUsage: on a shared machine the steadier figure) with p50/p99
// of each query's own wall time, and one SHA-256 per kind over every answer's JSON, so runs before and
// after a change to the query side prove the same answers (OUT=FILE writes every answer, one a line, for diff).
//
// Run: npm run bench:build && DATA_DIR=/work/scratch/b8data node dist/bench/region-engine.js
// Options (env): ROUTES (200 pairs), TABLES (20), SNAPS (2000 points snapped as a route's ends are), ROUNDS (3: each kind is run this many times, the figures
//   are of the fastest round), MIN_KM (100), OUT. Profile: node --cpu-prof dist/bench/region-engine.js.
// The data directory is only read (extracts/ and their routing folders).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedRouter } from '../adapters/router/embedded/embedded-router';
import { ExtractCatalog } from '../adapters/extracts/extract-catalog';
import { prng } from './support/prng';
import { latLng, metres, tilePoints, type LngLat } from './support/region-points';

const ROUTES = Number(process.env.ROUTES ?? 200);
const TABLES = Number(process.env.TABLES ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const MIN_KM = Number(process.env.MIN_KM ?? 100);
const SNAPS = Number(process.env.SNAPS ?? 2000);

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir || !fs.existsSync(path.join(dataDir, 'extracts'))) throw new Error('DATA_DIR must be a data directory with an imported region in extracts/');
  const names = fs.readdirSync(path.join(dataDir, 'extracts')).filter((n) => !n.startsWith('.'));
  const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'extracts', names[0], 'extract.json'), 'utf8')) as { name: string; bbox: [number, number, number, number] };
  const [west, south, east, north] = manifest.bbox;
  const rnd = prng(35);
  // Points near the dense part of each tile of a tile-osm.py region, as the other region benches pick them.
  const { rows, cols, near } = tilePoints([west, south, east, north], rnd);

  const loadCpu = cpuMs();
  const router = createEmbeddedRouter(new ExtractCatalog({ dataDir, checkMs: 0 }));
  const networks = await router.settled();
  const car = networks[0]?.ready('car');
  if (!car) throw new Error('no car graph in DATA_DIR');
  console.log(`region ${manifest.name}: ${cols} × ${rows} tiles; read in ${((cpuMs() - loadCpu) / 1000).toFixed(1)} CPU-s; machine ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`);

  const pairs: Array<[LngLat, LngLat]> = [];
  for (let tries = 0; pairs.length < ROUTES && tries < 100 * ROUTES; tries++) {
    const a = near(), b = near();
    if (metres(a, b) < MIN_KM * 1000) continue;
    try {
      await router.route({ locations: [a, b], mode: 'car' });
      pairs.push([a, b]);
    } catch {
      // Off the network or not joined: not a query of the target.
    }
  }
  const tables = Array.from({ length: TABLES }, () => Array.from({ length: 50 }, near));
  // Snaps anywhere in the box (sparse parts too, where the search widens), half of them near a town.
  const snapPoints = Array.from({ length: SNAPS }, (_, i): LngLat => (i % 2 === 0 ? near() : [west + rnd() * (east - west), south + rnd() * (north - south)]));

  const out = process.env.OUT ? fs.createWriteStream(process.env.OUT) : undefined;
  const kinds: Array<{ kind: string; count: number; run: (i: number) => Promise<unknown> }> = [
    { kind: `route ≥${MIN_KM} km (distance: no steps)`, count: pairs.length, run: (i) => router.route({ locations: pairs[i], mode: 'car' }) },
    { kind: `route ≥${MIN_KM} km (directions: steps)`, count: pairs.length, run: (i) => router.route({ locations: pairs[i], mode: 'car', steps: true }) },
    { kind: 'snap (candidates, 1 km)', count: snapPoints.length, run: async (i) => car.snapCandidates(snapPoints[i], 1000) },
    { kind: 'table 25 × 25', count: tables.length, run: (i) => router.table({ sources: tables[i].slice(0, 25), destinations: tables[i].slice(25), mode: 'car' }) },
  ];
  console.log(`| query | count | CPU ms a query (least of ${ROUNDS} rounds) | p50 ms | p99 ms | answers SHA-256 |`);
  console.log('|---|---|---|---|---|---|');
  for (const { kind, count, run } of kinds) {
    let best = { cpu: Infinity, p50: NaN, p99: NaN };
    let digest = '';
    for (let round = 0; round < ROUNDS; round++) {
      const hash = crypto.createHash('sha256');
      const walls: number[] = [];
      let cpuSum = 0;
      for (let i = 0; i < count; i++) {
        // The query alone is timed: writing its answer out for the digest is not part of it.
        const cpu0 = cpuMs();
        const t = process.hrtime.bigint();
        let answer: unknown;
        try {
          answer = await run(i);
        } catch (err) {
          answer = `error ${err instanceof Error ? err.message : String(err)}`;
        }
        walls.push(Number(process.hrtime.bigint() - t) / 1e6);
        cpuSum += cpuMs() - cpu0;
        const text = JSON.stringify(answer);
        hash.update(text).update('\n');
        if (round === 0) out?.write(`${kind}\t${i}\t${text}\n`);
      }
      const cpu = cpuSum / Math.max(1, count);
      const d = hash.digest('hex');
      if (digest !== '' && d !== digest) throw new Error(`${kind}: round ${round} answered differently from round 0`);
      digest = d;
      walls.sort((x, y) => x - y);
      if (cpu < best.cpu) best = { cpu, p50: quantile(walls, 0.5), p99: quantile(walls, 0.99) };
    }
    console.log(`| ${kind} | ${count} | ${best.cpu.toFixed(2)} | ${best.p50.toFixed(2)} | ${best.p99.toFixed(2)} | ${digest.slice(0, 16)} |`);
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  out?.end();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
