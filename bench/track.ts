// HTTP track benchmark: 100,000 geofences (metro mix), 10,000 devices on random walks, one webhook
// receiving every event (events and webhooks on), against the gateway in child processes. The load
// generator runs in its own process too (bench/http/track-load-child.ts), so it never shares a core's
// time with this driver. Prints, for a steady run (every device tracked before) and for a run of
// devices' first tracks, track throughput and latency, the ratio to the same run's bare authenticated
// route (GET /v1/config), the gateways' CPU time per request and events per track; then the RSS after
// the index of 100k geofences loaded and at the peak, and the load average (the machine is shared).
// Each measured run starts with an empty webhook outbox, so its CPU pays for its own deliveries only;
// deliveries lag behind a busy run, so CPU per track is given twice: over the run, and until the outbox
// has drained (every delivery the run's updates caused).
//
// Run: npm run bench:build && node dist/bench/track.js
// Options (env): GEOFENCES (100000), DEVICES (10000), SECONDS (10), CONNECTIONS (32),
//   STORE (sqlite | postgres; postgres needs DATABASE_URL), NODES (1 or 2 gateways; postgres only),
//   WEBHOOK_MODE (single | batch | none: the webhook stays disabled, so the runs measure the track path
//   without deliveries, events still written).
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
/**
 * The webhook's delivery mode: single (one event a request, Radar's format) or batch (a write's events in
 * one); none keeps it disabled: what an update costs apart from its deliveries.
 */
const WEBHOOK_MODE = process.env.WEBHOOK_MODE === 'batch' || process.env.WEBHOOK_MODE === 'none' ? process.env.WEBHOOK_MODE : 'single';

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

interface TrackRun {
  runs: LoadResult[];
  rps: number;
  failed: number;
  cpuUs: number;
  /** CPU per request until the run's deliveries were all made (cpuUs counts those made during the run only). */
  cpuWithDeliveriesUs: number;
  /** Of cpuUs, the event loop's thread; the rest is the SQLite writer thread, V8's GC helpers and libuv. */
  mainCpuUs: number;
  /** Of the rest, the busiest other thread (under load, the SQLite writer on that store). */
  busiestOtherUs: number;
  eventsPerTrack: number;
  /**
   * CPU per webhook request made while the outbox drained after the run (reading the row, signing,
   * sending, logging the outcome): what each of an update's requests adds to its cost. Undefined when
   * nothing was left to drain.
   */
  cpuPerDeliveryUs: number | undefined;
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
  const hook = await fetch(`${gateways[0].url}/v1/webhooks`, { method: 'POST', headers: { authorization: sk, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, mode: WEBHOOK_MODE === 'none' ? 'single' : WEBHOOK_MODE }) });
  if (hook.status !== 200) throw new Error(`webhook not created: ${hook.status} ${await hook.text()}`);
  const hookId = ((await hook.json()) as { webhook: { _id: string } }).webhook._id;

  // The first track of the project loads the index of 100k geofences.
  const rssStart = gateways.map((g) => g.rssMiB());
  for (const gw of gateways) {
    await fetch(`${gw.url}/v1/track`, { method: 'POST', headers: { authorization: pk, 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'warm', latitude: 40.75, longitude: -73.98, accuracy: 10 }) });
  }
  const rssLoaded = gateways.map((g) => g.rssMiB());
  const peakLoaded = gateways.map((g) => g.peakRssMiB());

  const perNode = Math.floor(DEVICES / NODES);
  /** `devicesFrom` picks the device range: the first-track run uses devices no run has sent yet. */
  const job = (mode: TrackLoadJob['mode'], title: string, node: number, seconds: number, connections: number, seed: number, devicesFrom = 0): TrackLoadJob => ({
    mode, title, url: gateways[node].url, key: pk, seconds, connections, devices: perNode, deviceOffset: devicesFrom + node * perNode, seed: seed + node,
  });
  const cpuMs = (): number => gateways.reduce((sum, g) => sum + processCpuMs(g.pid), 0);
  const mainCpuMs = (): number => gateways.reduce((sum, g) => sum + processCpuMs(g.pid, g.pid), 0);
  /** CPU ms of every thread of every gateway but the main ones, by process and thread id. */
  const otherThreadsMs = (): Map<string, number> => {
    const out = new Map<string, number>();
    for (const g of gateways) {
      for (const tid of fs.readdirSync(`/proc/${g.pid}/task`)) {
        if (Number(tid) === g.pid) continue;
        try {
          out.set(`${g.pid}/${tid}`, processCpuMs(g.pid, Number(tid)));
        } catch {
          // The thread ended between the listing and the read.
        }
      }
    }
    return out;
  };
  const loadAll = (mode: TrackLoadJob['mode'], title: string, seconds: number, seed: number, devicesFrom = 0): Promise<LoadResult[]> =>
    Promise.all(gateways.map((_, i) => loadInChild(CHILD, job(mode, NODES > 1 ? `${title} (node ${i + 1})` : title, i, seconds, Math.ceil(CONNECTIONS / NODES), seed, devicesFrom))));
  /** One measured track run: its throughput, the gateways' CPU per request and the events each update wrote. */
  const measureTrack = async (title: string, seed: number, devicesFrom = 0): Promise<TrackRun> => {
    await outboxDrained(dataDir, schema);
    const cpu0 = cpuMs();
    const main0 = mainCpuMs();
    const others0 = otherThreadsMs();
    const events0 = await eventCount(dataDir, schema);
    const runs = await loadAll('track', title, SECONDS, seed, devicesFrom);
    const cpu1 = cpuMs();
    const main1 = mainCpuMs();
    const busiest = Math.max(0, ...[...otherThreadsMs()].map(([tid, ms]) => ms - (others0.get(tid) ?? 0)));
    const received1 = receiver.received();
    // Deliveries lag behind a busy run: what is still queued at its end is this run's work too.
    await outboxDrained(dataDir, schema);
    const cpu2 = cpuMs();
    const drainRequests = receiver.received() - received1;
    const events1 = await eventCount(dataDir, schema);
    const rps = runs.reduce((sum, r) => sum + r.requestsPerSecond, 0);
    return {
      runs, rps,
      failed: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
      cpuUs: ((cpu1 - cpu0) * 1000) / (rps * SECONDS),
      cpuWithDeliveriesUs: ((cpu2 - cpu0) * 1000) / (rps * SECONDS),
      mainCpuUs: ((main1 - main0) * 1000) / (rps * SECONDS),
      busiestOtherUs: (busiest * 1000) / (rps * SECONDS),
      eventsPerTrack: (events1 - events0) / (rps * SECONDS),
      // Below a few hundred requests the 500 ms polling of outboxDrained would dominate the figure.
      cpuPerDeliveryUs: drainRequests >= 500 ? ((cpu2 - cpu1) * 1000) / drainRequests : undefined,
    };
  };
  const setWebhook = async (enabled: boolean): Promise<void> => {
    const res = await fetch(`${gateways[0].url}/v1/webhooks/${hookId}`, { method: 'PATCH', headers: { authorization: sk, 'content-type': 'application/json' }, body: JSON.stringify({ enabled }) });
    if (res.status !== 200) throw new Error(`webhook not updated: ${res.status} ${await res.text()}`);
  };

  await loadAll('track', 'warm-up (track)', 3, 7);
  await outboxDrained(dataDir, schema);
  console.log(`load average before the measured runs: ${loadAverage()}`);
  const cpu0 = cpuMs();
  const bare = await loadInChild(CHILD, job('bare', 'GET /v1/config (bare, authenticated)', 0, SECONDS, CONNECTIONS, 7));
  const cpu1 = cpuMs();
  // CPU the gateways spent per request: on a shared machine this moves far less than throughput.
  const cpuPerBareUs = ((cpu1 - cpu0) * 1000) / (bare.requestsPerSecond * SECONDS);
  // Two track runs. Steady: every device has been tracked once before (priming, with the webhook paused
  // so that it leaves no backlog), so each update is a step of a known device, as most updates are in
  // production. Mostly first tracks: devices no run has sent yet, as the issue's bench measured (a
  // device's first update enters the ~10 geofences it stands in). Devices are taken in turn, so a run of
  // more than DEVICES updates goes on with second updates, and a faster build makes fewer events per
  // update: compare builds with DEVICES=30000, where every update of the run is a first.
  await setWebhook(false);
  await loadAll('prime', `priming: one track for each of ${DEVICES} devices`, SECONDS, 1000);
  if (WEBHOOK_MODE !== 'none') await setWebhook(true);
  const steady = await measureTrack('POST /v1/track (steady)', 1000);
  const first = await measureTrack('POST /v1/track (mostly first tracks)', 7, DEVICES);
  const receivedDuringRuns = receiver.received();

  const events = await (await fetch(`${gateways[0].url}/v1/events?limit=1`, { headers: { authorization: sk } })).json() as { events: unknown[] };
  console.log('');
  console.log(`store / nodes           ${STORE} / ${NODES}; webhook mode ${WEBHOOK_MODE}`);
  console.log(`bare route throughput   ${bare.requestsPerSecond.toFixed(0)} req/s (node 1); gateway CPU ${cpuPerBareUs.toFixed(0)} µs per request`);
  for (const [name, run] of [['steady (devices known)', steady], ['mostly first tracks (new devices)', first]] as const) {
    console.log(`-- ${name}`);
    console.log(`track throughput        ${run.rps.toFixed(0)} req/s (p50 ${run.runs.map((t) => t.p50Ms).join('/')} ms, p99 ${run.runs.map((t) => t.p99Ms).join('/')} ms)${run.failed ? `, ${run.failed} non-2xx or errors` : ''}`);
    console.log(`ratio track / bare      ${(run.rps / bare.requestsPerSecond).toFixed(2)}`);
    console.log(`gateway CPU per track   ${run.cpuUs.toFixed(0)} µs; ratio to the bare request ${(run.cpuUs / cpuPerBareUs).toFixed(2)}`);
    console.log(`  with its deliveries   ${run.cpuWithDeliveriesUs.toFixed(0)} µs, counting those made after the run (the outbox drained); ratio to the bare request ${(run.cpuWithDeliveriesUs / cpuPerBareUs).toFixed(2)}`);
    console.log(`  of which event loop   ${run.mainCpuUs.toFixed(0)} µs; other threads ${(run.cpuUs - run.mainCpuUs).toFixed(0)} µs (the busiest, on SQLite its writer, ${run.busiestOtherUs.toFixed(0)} µs; the rest V8's GC helpers and libuv)`);
    const requests = { single: 'each one webhook request', batch: 'one webhook request for each update\'s events', none: 'no webhook request' }[WEBHOOK_MODE];
    console.log(`events per track        ${run.eventsPerTrack.toFixed(1)} (${requests})`);
    if (run.cpuPerDeliveryUs !== undefined) {
      console.log(`  a webhook request     ${run.cpuPerDeliveryUs.toFixed(0)} µs while the outbox drained; ratio to the bare request ${(run.cpuPerDeliveryUs / cpuPerBareUs).toFixed(2)}`);
    }
  }
  console.log('--');
  console.log(`RSS, ${GEOFENCES} loaded ${rssLoaded.map((r, i) => `${r.toFixed(0)} MiB (started at ${rssStart[i].toFixed(0)})`).join(', ')}`);
  console.log(`peak RSS (gateways)     ${peakLoaded.map((p) => p.toFixed(0)).join(', ')} MiB by the end of the load; ${gateways.map((g) => g.peakRssMiB().toFixed(0)).join(', ')} MiB by the end of the runs`);
  console.log(`webhook requests        ${receivedDuringRuns} received by the end of the runs`);
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

/** Events stored so far: how many each update wrote is what the CPU per track pays for. */
async function eventCount(dataDir: string, schema: string): Promise<number> {
  return countRows(dataDir, schema, 'coll_events', { postgres: 'true', sqlite: '1' });
}

/**
 * Waits until the webhook outbox has nothing pending, so that a measured run's CPU pays for its own
 * deliveries and not for the backlog of the run before.
 */
async function outboxDrained(dataDir: string, schema: string): Promise<void> {
  const t0 = Date.now();
  let pending = await outboxPending(dataDir, schema);
  const before = pending;
  while (pending > 0) {
    if (Date.now() - t0 > 600_000) throw new Error(`the outbox still has ${pending} pending rows after 10 min`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    pending = await outboxPending(dataDir, schema);
  }
  if (before > 0) console.log(`outbox drained: ${before} pending rows (a row: the requests of one update to the webhook) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

async function outboxPending(dataDir: string, schema: string): Promise<number> {
  return countRows(dataDir, schema, 'coll_outbox', { postgres: "doc->>'state' = 'pending'", sqlite: "json_extract(doc, '$.state') = 'pending'" });
}

/** Rows of one of the gateway's tables matching a condition, read beside the running gateways. */
async function countRows(dataDir: string, schema: string, table: string, where: { postgres: string; sqlite: string }): Promise<number> {
  if (STORE === 'postgres') {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".${table} WHERE ${where.postgres}`)).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(dataDir, 'waymark.sqlite'), { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where.sqlite}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** utime + stime of a process, or of one of its threads, ms (from /proc; clock ticks are 100 Hz on Linux). */
function processCpuMs(pid: number, thread?: number): number {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = fs.readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
