// HTTP track benchmark: 100,000 geofences (metro mix), 10,000 devices on random walks, one webhook
// receiving every event (events and webhooks on), against the gateway in child processes. The load
// generator runs in its own process too (bench/http/track-load-child.ts), so it never shares a core's
// time with this driver. Prints track throughput and latency, the same run's bare authenticated route
// (GET /v1/config) for the ratio, the gateways' CPU time per request for both, the RSS after the index
// of 100k geofences loaded and at the peak, and the load average of the machine (it is shared).
//
// Run: npm run bench:build && node dist/bench/track.js
// Options (env): GEOFENCES (100000), DEVICES (10000), SECONDS (10), CONNECTIONS (32),
//   STORE (sqlite | postgres; postgres needs DATABASE_URL), NODES (1 or 2 gateways; postgres only).
// Before/after: run an older commit's own bench (its store layout differs, so its gateway cannot serve
// data this bench seeds).
import Database from 'better-sqlite3';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startGatewayProcess, type GatewayProcess } from './http/gateway-process';
import { loadInChild } from './http/load-process';
import type { LoadResult } from './http/load';
import type { TrackLoadJob } from './http/track-load-child';
import { seedGeofences } from './support/seed';

const GEOFENCES = Number(process.env.GEOFENCES ?? 100_000);
const DEVICES = Number(process.env.DEVICES ?? 10_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const STORE = process.env.STORE === 'postgres' ? 'postgres' : 'sqlite';
const NODES = STORE === 'postgres' ? Math.max(1, Math.min(2, Number(process.env.NODES ?? 1))) : 1;
const CHILD = path.join(__dirname, 'http', 'track-load-child.js');

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' / ');
}

/** A webhook receiver answering 200 at once, counting what it got. */
async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-track-'));
  const schema = `waymark_bench_${process.pid}`;
  const storeEnv: Record<string, string> = STORE === 'postgres'
    ? { WAYMARK_STORE: 'postgres', DATABASE_URL: String(process.env.DATABASE_URL), WAYMARK_DATABASE_SCHEMA: schema }
    : {};
  if (STORE === 'postgres' && !process.env.DATABASE_URL) throw new Error('STORE=postgres needs DATABASE_URL');
  console.log(`store ${STORE}, ${NODES} node(s); seeding ${GEOFENCES} geofences …   (load average ${loadAverage()})`);
  const seeded = await seedGeofences(dataDir, GEOFENCES, 42, STORE === 'postgres' ? { store: 'postgres', databaseUrl: process.env.DATABASE_URL, databaseSchema: schema } : {});
  console.log(`seeded in ${seeded.seedSeconds.toFixed(1)} s; index load of ${GEOFENCES} geofences: ${(seeded.indexLoadSeconds * 1000).toFixed(0)} ms`);

  const receiver = await startReceiver();
  const gateways: GatewayProcess[] = [];
  const dirs = [dataDir];
  for (let i = 0; i < NODES; i++) {
    if (i > 0) dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-track-node-')));
    const nodeDir = dirs[i];
    gateways.push(await startGatewayProcess(nodeDir, { ...storeEnv, WAYMARK_WEBHOOK_ALLOW_PRIVATE: 'true' }));
  }
  const pk = seeded.keys['test publishable'];
  const sk = seeded.keys['test secret'];
  const hook = await fetch(`${gateways[0].url}/v1/webhooks`, { method: 'POST', headers: { authorization: sk, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) });
  if (hook.status !== 200) throw new Error(`webhook not created: ${hook.status} ${await hook.text()}`);

  // The first track of the project loads the index of 100k geofences.
  const rssStart = gateways.map((g) => g.rssMiB());
  for (const gw of gateways) {
    await fetch(`${gw.url}/v1/track`, { method: 'POST', headers: { authorization: pk, 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'warm', latitude: 40.75, longitude: -73.98, accuracy: 10 }) });
  }
  const rssLoaded = gateways.map((g) => g.rssMiB());
  const peakLoaded = gateways.map((g) => g.peakRssMiB());

  const job = (mode: TrackLoadJob['mode'], title: string, node: number, seconds: number, connections: number): TrackLoadJob => ({
    mode, title, url: gateways[node].url, key: pk, seconds, connections, devices: Math.floor(DEVICES / NODES), deviceOffset: node * Math.floor(DEVICES / NODES), seed: 7 + node,
  });
  const cpuMs = (): number => gateways.reduce((sum, g) => sum + processCpuMs(g.pid), 0);
  const trackAll = (title: string, seconds: number): Promise<LoadResult[]> =>
    Promise.all(gateways.map((_, i) => loadInChild(CHILD, job('track', NODES > 1 ? `${title} (node ${i + 1})` : title, i, seconds, Math.ceil(CONNECTIONS / NODES)))));

  await trackAll('warm-up (track)', 3);
  console.log(`load average before the measured runs: ${loadAverage()}`);
  const cpu0 = cpuMs();
  const bare = await loadInChild(CHILD, job('bare', 'GET /v1/config (bare, authenticated)', 0, SECONDS, CONNECTIONS));
  const cpu1 = cpuMs();
  const events0 = await eventCount(dataDir, schema);
  const track = await trackAll('POST /v1/track', SECONDS);
  const cpu2 = cpuMs();
  const events1 = await eventCount(dataDir, schema);
  const trackRps = track.reduce((sum, r) => sum + r.requestsPerSecond, 0);
  const trackNon2xx = track.reduce((sum, r) => sum + r.non2xx + r.errors, 0);

  // CPU the gateways spent per request: on a shared machine this moves far less than throughput.
  const cpuPerBareUs = ((cpu1 - cpu0) * 1000) / (bare.requestsPerSecond * SECONDS);
  const cpuPerTrackUs = ((cpu2 - cpu1) * 1000) / (trackRps * SECONDS);

  const events = await (await fetch(`${gateways[0].url}/v1/events?limit=1`, { headers: { authorization: sk } })).json() as { events: unknown[] };
  console.log('');
  console.log(`store / nodes           ${STORE} / ${NODES}`);
  console.log(`track throughput        ${trackRps.toFixed(0)} req/s (p50 ${track.map((t) => t.p50Ms).join('/')} ms, p99 ${track.map((t) => t.p99Ms).join('/')} ms)${trackNon2xx ? `, ${trackNon2xx} non-2xx or errors` : ''}`);
  console.log(`bare route throughput   ${bare.requestsPerSecond.toFixed(0)} req/s (node 1)`);
  console.log(`ratio track / bare      ${(trackRps / bare.requestsPerSecond).toFixed(2)}`);
  console.log(`gateway CPU per track   ${cpuPerTrackUs.toFixed(0)} µs; per bare request ${cpuPerBareUs.toFixed(0)} µs; ratio ${(cpuPerTrackUs / cpuPerBareUs).toFixed(2)}`);
  console.log(`RSS, ${GEOFENCES} loaded ${rssLoaded.map((r, i) => `${r.toFixed(0)} MiB (started at ${rssStart[i].toFixed(0)})`).join(', ')}`);
  console.log(`peak RSS (gateways)     ${peakLoaded.map((p) => p.toFixed(0)).join(', ')} MiB by the end of the load; ${gateways.map((g) => g.peakRssMiB().toFixed(0)).join(', ')} MiB by the end of the runs`);
  console.log(`events per track        ${((events1 - events0) / (trackRps * SECONDS)).toFixed(1)} (each one webhook request in the outbox)`);
  console.log(`webhook requests        ${receiver.received()} received during the run`);
  console.log(`events were generated   ${events.events.length > 0 ? 'yes' : 'NO — check the data'}`);
  console.log(`load average after      ${loadAverage()} (1 / 5 / 15 min; ${os.cpus().length} cores)`);
  for (const gw of gateways) await gw.stop();
  await receiver.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  if (STORE === 'postgres') {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/** Indexes this build declares that an older build under test would not have (named docs_unique_*, docs_sorted_*). */
/** Events stored so far: how many each update wrote is what the CPU per track pays for. */
async function eventCount(dataDir: string, schema: string): Promise<number> {
  if (STORE === 'postgres') {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".coll_events`)).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(dataDir, 'waymark.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM coll_events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** utime + stime of a process, ms (from /proc; clock ticks are 100 Hz on Linux). */
function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
