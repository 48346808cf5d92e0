// What a request sent as a fresh gateway listens waits for while the geofence indexes are built at start
// (issue 33): a gateway started in this process over a data directory the dashboard bench seeded
// (BENCH_DATA, 100,000 geofences), GET /v1/project/settings (needs no index) and GET /v1/data/overview
// (needs it) sent as soon as it listens; when each is answered, when the build ends, its CPU-seconds, and
// the event loop's longest stall meanwhile.
//
// Run: BENCH_DATA=/some/dir node dist/bench/dashboard.js (once, to seed), then
//      BENCH_DATA=/some/dir node dist/bench/index-build-at-start.js
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../server/app';
import { configFromEnv } from '../server/config';
import type { Logger } from '../ports/logger';

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA;
  const seedFile = dataDir && path.join(dataDir, 'bench-dashboard-seed.json');
  if (!seedFile || !fs.existsSync(seedFile)) throw new Error('set BENCH_DATA to a folder bench/dashboard.ts seeded');
  const key = (JSON.parse(fs.readFileSync(seedFile, 'utf8')) as { keys: Record<string, string> }).keys['test secret'];
  const t0 = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
  let built: { at: number; fields?: Record<string, unknown> } | undefined;
  const logger: Logger = {
    info: (message, fields) => {
      if (message === 'geofence indexes built') built = { at: ms(), fields };
    },
    warn: () => undefined,
    error: () => undefined,
  };
  const base = configFromEnv({});
  const running = await startServer({ ...base, port: 0, host: '127.0.0.1', rateLimitScale: 0, logRequests: false, jobIntervalMs: 0, dataDir, extracts: { ...base.extracts, loadWaitMs: 600_000 } }, logger);
  const listening = ms();
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const cpu0 = process.cpuUsage();
  const answered = (urlPath: string) => fetch(running.url + urlPath, { headers: { authorization: key } })
    .then(async (r) => {
      await r.arrayBuffer();
      return Math.round(ms() - listening);
    });
  const [settings, overview] = await Promise.all([answered('/v1/project/settings'), answered('/v1/data/overview')]);
  while (!built) await new Promise((resolve) => setTimeout(resolve, 20));
  const cpu = process.cpuUsage(cpu0);
  stalls.disable();
  console.log(`listening after ${Math.round(listening)} ms; after it: GET /v1/project/settings answered in ${settings} ms, GET /v1/data/overview in ${overview} ms; `
    + `indexes built in ${Math.round(built.at - listening)} ms (${JSON.stringify(built.fields)}), ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU-s meanwhile; `
    + `longest event-loop stall ${Math.round(stalls.max / 1e6)} ms; load ${os.loadavg()[0].toFixed(1)}`);
  await running.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
