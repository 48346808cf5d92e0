// Memory of the geofence index of one environment: seeds GEOFENCES (100,000) metro geofences into a
// SQLite data directory, then loads the index through the gateway's own loader in a fresh set of
// services and reports what stays: V8 heap and RSS growth after two full collections, and the peak.
// Target (#14): ≤ 300 MiB for 100k geofences.
//
// Run: npm run bench:build && node --expose-gc dist/bench/geofence-memory.js
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import { mb, memory } from './support/memory';
import { seedGeofences } from './support/seed';

const GEOFENCES = Number(process.env.GEOFENCES ?? 100_000);

function peakRss(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) console.warn('run node with --expose-gc: without it the figures include garbage');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-geofence-memory-'));
  const seeded = await seedGeofences(dataDir, GEOFENCES);
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false }, silentLogger());
  const before = memory();
  const t0 = process.hrtime.bigint();
  const index = await services.shared.geofences.index({ projectId: seeded.projectId, live: false });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const after = memory();
  console.log(`${index.size} geofences loaded in ${loadMs.toFixed(0)} ms`);
  console.log(`held after load: heap +${mb(after.heap - before.heap)}, typed arrays +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS +${mb(after.rss - before.rss)} (RSS ${mb(after.rss)}, peak ${mb(peakRss())})`);
  await services.adapters.store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
