// Serving a region: how soon a gateway started on it answers, what it holds in memory with every mode
// read, and what a re-import costs while it serves. The gateway runs in a child process on a data
// directory of its own whose extract folders are hard links to DATA_DIR's (DATA_DIR is only read, and no
// gigabytes are copied); the requests come from here.
//
// Prints: seconds from start to listening, to the first embedded car route, then to each other mode's
// first embedded answer (with the gateway's CPU-seconds at each); RSS once every mode has answered, and
// again after ROUNDS rounds of routes in every mode (the searches' workspaces fill as routes touch them),
// beside the size of the routing files; then a re-import: the extract swapped for a hard-linked copy with
// a new import time (the import's own two renames), while routes in every mode are asked on one
// connection, with the gateway's peak RSS during the reload (its high-water mark reset first), how long
// it took until every mode answered from the new files, the longest wait of a request and every non-200.
//
// Run: npm run bench:build && DATA_DIR=/work/scratch/b8data node dist/bench/region-serving.js
// Options (env): ROUNDS (200), REIMPORT (1; 0 skips it), MIN_KM (100: the car route that counts as "first"),
//   BENCH_TMP (where the hard-linked data directory is made: on DATA_DIR's filesystem; default its parent).
// Last run (Baltimore ×8×8, files with stored tables, load 21–23, ROUNDS=100): listening 9.7 s, first car
//   route 20.9 s (gateway CPU 4.0 s), RSS with four modes 1,087 MiB against 969 MiB of files, 1,335 after
//   the routes, re-import peak 1,568 MiB (docs/routing-engine.md has the table).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess, type GatewayProcess } from './http/gateway-process';
import { prng } from './support/prng';
import { latLng, metres, tilePoints, type LngLat } from './support/region-points';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const REIMPORT = process.env.REIMPORT !== '0';
const MIN_KM = Number(process.env.MIN_KM ?? 100);
const MODES = ['car', 'truck', 'bike', 'foot'] as const;
type Mode = (typeof MODES)[number];


const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

/** A folder's tree with every file hard-linked (no bytes copied); `fresh` names files written anew instead. */
function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, entry.name), b = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(a, b);
    else fs.linkSync(a, b);
  }
}

function routingBytes(extractDir: string): number {
  const dir = path.join(extractDir, 'routing');
  return fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

/** Resets the process's RSS high-water mark (Linux: 5 > clear_refs), so VmHWM is the peak from now on. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const source = process.env.DATA_DIR;
  if (!source || !fs.existsSync(path.join(source, 'extracts'))) throw new Error('DATA_DIR must be a data directory with an imported region in extracts/');
  const names = fs.readdirSync(path.join(source, 'extracts')).filter((n) => !n.startsWith('.'));
  const name = names[0];
  const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_TMP ?? path.dirname(source), 'region-serving-'));
  const extracts = path.join(dataDir, 'extracts');
  for (const n of names) linkTree(path.join(source, 'extracts', n), path.join(extracts, n));
  const manifest = JSON.parse(fs.readFileSync(path.join(extracts, name, 'extract.json'), 'utf8')) as { bbox: [number, number, number, number] };
  const [west, south, east, north] = manifest.bbox;
  const files = names.reduce((sum, n) => sum + routingBytes(path.join(extracts, n)), 0);
  const rnd = prng(35);
  // Points near the dense part of each tile of a tile-osm.py region, as the other region benches pick them.
  const { rows, cols, near } = tilePoints([west, south, east, north], rnd);
  /** A pair in one tile's dense part, a few km apart: every mode routes it. */
  const local = (): [LngLat, LngLat] => {
    const a = near();
    return [a, [a[0] + (rnd() - 0.5) * 0.03, a[1] + (rnd() - 0.5) * 0.03]];
  };
  // A region smaller than MIN_KM across (×4 is 60 km) asks routes of 60 % of its diagonal instead.
  const farMetres = Math.min(MIN_KM * 1000, 0.6 * metres([west, south], [east, north]));
  const far = (): [LngLat, LngLat] => {
    for (;;) {
      const a = near(), b = near();
      if (metres(a, b) >= farMetres) return [a, b];
    }
  };

  console.log(`region ${name}: ${cols} × ${rows} tiles, routing files ${mib(files)} MiB; ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`);
  const started = Date.now();
  let gw: GatewayProcess | undefined;
  try {
    gw = await startGatewayProcess(dataDir);
    const g = gw;
    const since = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s after start (gateway CPU ${(g.cpuMs() / 1000).toFixed(1)} s)`;
    console.log(`listening ${since()}, RSS ${g.rssMiB().toFixed(0)} MiB`);
    const headers = { authorization: g.keys['test publishable'] };
    if (!headers.authorization) throw new Error('the gateway printed no keys');
    /** 'routed', 'estimate', or the status of anything else. */
    const ask = async (mode: Mode, [a, b]: [LngLat, LngLat]): Promise<string> => {
      const res = await fetch(`${g.url}/v1/route/distance?origin=${latLng(a)}&destination=${latLng(b)}&modes=${mode}&units=metric`, { headers });
      const body = (await res.json()) as { routes?: Record<string, { estimate?: boolean }>; meta?: { message?: string } };
      // A 400 is often a pair no road of the mode joins (a random pair in a park): the message says which.
      if (res.status === 400) return `400 (${(body.meta?.message ?? '').replace(/\(.*?\)/g, '').slice(0, 40)})`;
      if (res.status !== 200) return String(res.status);
      return body.routes?.[mode]?.estimate ? 'estimate' : 'routed';
    };
    /** Asks until a route in the mode is answered by the network (503s while it loads are counted). */
    const firstRoute = async (mode: Mode, pair: () => [LngLat, LngLat]): Promise<{ waits: number }> => {
      let waits = 0;
      for (let tries = 0; tries < 100_000; tries++) {
        const answer = await ask(mode, pair());
        if (answer === 'routed') return { waits };
        if (answer === '503') {
          waits++;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      throw new Error(`no embedded ${mode} route was answered`);
    };
    const car = await firstRoute('car', far);
    console.log(`first car route of ${(farMetres / 1000).toFixed(0)}+ km ${since()}, ${car.waits} answers 503 before it; RSS ${g.rssMiB().toFixed(0)} MiB`);
    for (const mode of MODES.slice(1)) {
      const t = Date.now(), cpu = g.cpuMs();
      const first = await firstRoute(mode, local);
      console.log(`first ${mode} route ${since()}: ${((Date.now() - t) / 1000).toFixed(1)} s and ${((g.cpuMs() - cpu) / 1000).toFixed(1)} CPU-s after asking, ${first.waits} answers 503 before it`);
    }
    console.log(`every mode read: RSS ${g.rssMiB().toFixed(0)} MiB (files ${mib(files)} MiB: ${(g.rssMiB() - files / 2 ** 20).toFixed(0)} MiB over them), peak ${g.peakRssMiB().toFixed(0)} MiB`);
    const routeCpu = g.cpuMs();
    const answers = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const answer = `${mode} ${await ask(mode, mode === 'car' ? far() : local())}`;
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
    }
    console.log(`after ${ROUNDS} rounds of routes in every mode (${((g.cpuMs() - routeCpu) / (ROUNDS * MODES.length)).toFixed(1)} gateway CPU-ms a route): RSS ${g.rssMiB().toFixed(0)} MiB (${(g.rssMiB() - files / 2 ** 20).toFixed(0)} MiB over the files), peak ${g.peakRssMiB().toFixed(0)} MiB; answers: ${[...answers].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (REIMPORT) await reimport(g, extracts, name, files, ask, far, local);
  } finally {
    await gw?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The extract swapped for a hard-linked copy of itself with a new import time, as an import's last step
 * does it (core/formats/extract-folders.ts: the old folder renamed away, the new one into its place),
 * while one connection asks routes in every mode in turn; done once every mode has answered a route
 * since the new catalog was seen and /ready says nothing is being read.
 */
async function reimport(
  g: GatewayProcess, extracts: string, name: string, files: number, ask: (mode: Mode, pair: [LngLat, LngLat]) => Promise<string>,
  far: () => [LngLat, LngLat], local: () => [LngLat, LngLat],
): Promise<void> {
  const staging = path.join(extracts, `.staging-${name}`);
  linkTree(path.join(extracts, name), staging);
  const manifestFile = path.join(staging, 'extract.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { importedAt: string };
  manifest.importedAt = new Date().toISOString();
  // A new file, not the linked one: the serving folder's manifest stays as it was.
  fs.rmSync(manifestFile);
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  const before = g.rssMiB();
  const reset = resetPeak(g.pid);
  const statuses = new Map<string, number>();
  let longest = 0;
  let asked = 0;
  const t0 = Date.now();
  // The import's own name for the folder it swaps out (extract-folders.ts), so the catalog knows a swap is under way.
  const old = path.join(extracts, `.old-${name}-${process.pid}`);
  fs.renameSync(path.join(extracts, name), old);
  fs.renameSync(staging, path.join(extracts, name));
  let rssPeakSampled = 0;
  // The highest RSS in each half second: where in the reload the peak falls.
  const timeline: number[] = [];
  const sampler = setInterval(() => {
    const rss = g.rssMiB();
    rssPeakSampled = Math.max(rssPeakSampled, rss);
    const slot = Math.floor((Date.now() - t0) / 500);
    timeline[slot] = Math.max(timeline[slot] ?? 0, rss);
  }, 50);
  // What the gateway says it reads (/ready's routing check), when it changes: the phases of the reload.
  const said: string[] = [];
  let last = '';
  const phases = setInterval(() => {
    void fetch(`${g.url}/ready`).then((res) => res.json()).then((answer: unknown) => {
      const body = answer as { checks?: { routing?: { detail?: string } } };
      const now = body.checks?.routing?.detail ?? 'ready';
      if (now !== last) said.push(`${((Date.now() - t0) / 1000).toFixed(1)} s ${now} (RSS ${g.rssMiB().toFixed(0)})`);
      last = now;
    }, () => undefined);
  }, 250);
  const ready = async (): Promise<boolean> => {
    const res = await fetch(`${g.url}/ready`);
    await res.arrayBuffer();
    return res.status === 200;
  };
  // The catalog looks again about every second: wait for it to see the swap (routing then says it reads).
  let sawReading = false;
  let settledAt = 0;
  // Pairs answered 400 during the reload, asked again once it is over: a pair no road of the mode joins
  // (about 1 local pair in 170 on foot at ×8) is 400 then too; a 400 the reload caused is not.
  const refused: Array<{ mode: Mode; pair: [LngLat, LngLat] }> = [];
  for (let round = 0; Date.now() - t0 < 600_000; round++) {
    for (const mode of MODES) {
      const t = Date.now();
      const pair = mode === 'car' ? far() : local();
      const answer = await ask(mode, pair);
      longest = Math.max(longest, Date.now() - t);
      asked++;
      statuses.set(`${mode} ${answer}`, (statuses.get(`${mode} ${answer}`) ?? 0) + 1);
      if (answer.startsWith('400')) refused.push({ mode, pair });
    }
    const isReady = await ready();
    if (!isReady || said.some((phase) => phase.includes('reading'))) sawReading = true;
    if (sawReading && isReady) {
      settledAt = Date.now();
      break;
    }
    if (!sawReading && Date.now() - t0 > 20_000) break;
  }
  clearInterval(sampler);
  clearInterval(phases);
  fs.rmSync(old, { recursive: true, force: true });
  const peak = reset ? `${g.peakRssMiB().toFixed(0)} MiB (high-water mark since the swap)` : `${rssPeakSampled.toFixed(0)} MiB (sampled every 50 ms)`;
  console.log(`re-import while serving: RSS before ${before.toFixed(0)} MiB; peak during the reload ${peak}, sampled ${rssPeakSampled.toFixed(0)} MiB; files ${mib(files)} MiB; RSS after ${g.rssMiB().toFixed(0)} MiB`);
  console.log(`  phases: ${said.join('; ')}`);
  console.log(`  RSS each half second from the swap, MiB: ${[...timeline].map((v) => (v === undefined ? '-' : v.toFixed(0))).join(' ')}`);
  const again: string[] = [];
  for (const { mode, pair } of refused) again.push(`${mode} ${latLng(pair[0])} -> ${latLng(pair[1])}: ${await ask(mode, pair)} once reloaded`);
  if (again.length > 0) console.log(`  the 400s during the reload, asked again: ${again.join('; ')}`);
  console.log(`  ${sawReading ? `reloaded in ${((settledAt - t0) / 1000).toFixed(1)} s (until /ready)` : 'the gateway never said it was reading: no reload seen'}; ${asked} routes asked, longest wait ${longest} ms; answers: ${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
