// HTTP track benchmark: 100,000 geofences (metro mix), 10,000 devices on random walks, autocannon
// against the gateway in a child process. Prints track throughput and latency, the same run's bare
// authenticated route (GET /v1/config) for the ratio, the gateway's CPU time per track request, peak
// RSS, and index load / update times.
//
// Run: npm run bench:build && node dist/bench/track.js
// Options (env): GEOFENCES (100000), DEVICES (10000), SECONDS (10), CONNECTIONS (32)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from './http/gateway-process';
import { runLoad } from './http/load';
import { offset, prng, randomPoint, type LngLat } from './support/metro';
import { seedGeofences } from './support/seed';

const GEOFENCES = Number(process.env.GEOFENCES ?? 100_000);
const DEVICES = Number(process.env.DEVICES ?? 10_000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-track-'));
  console.log(`seeding ${GEOFENCES} geofences into ${dataDir} …`);
  const seeded = await seedGeofences(dataDir, GEOFENCES);
  console.log(`seeded in ${seeded.seedSeconds.toFixed(1)} s; index load of ${GEOFENCES} geofences from SQLite: ${(seeded.indexLoadSeconds * 1000).toFixed(0)} ms`);

  const gw = await startGatewayProcess(dataDir);
  const pk = seeded.keys['test publishable'];
  const sk = seeded.keys['test secret'];
  const headers = { authorization: pk, 'content-type': 'application/json' };
  // Warm the index (first track of the project loads it) and the JIT.
  await fetch(`${gw.url}/v1/track`, { method: 'POST', headers, body: JSON.stringify({ deviceId: 'warm', latitude: 40.75, longitude: -73.98, accuracy: 10 }) });

  const rnd = prng(7);
  const positions: LngLat[] = Array.from({ length: DEVICES }, () => randomPoint(rnd));
  let next = 0;
  const trackRequest = (req: { body?: string }) => {
    const d = next++ % DEVICES;
    // A walk of up to ~30 m per step: devices drift into and out of geofences.
    positions[d] = offset(positions[d], (rnd() * 2 - 1) * 30, (rnd() * 2 - 1) * 30);
    const [lng, lat] = positions[d];
    req.body = JSON.stringify({ deviceId: `device-${d}`, userId: `user-${d}`, latitude: lat, longitude: lng, accuracy: 5 + rnd() * 45, foreground: true, stopped: rnd() < 0.2 });
    return req;
  };

  await runLoad({ title: 'warm-up (track)', url: `${gw.url}/v1/track`, method: 'POST', headers, setupRequest: trackRequest, durationSeconds: 3, connections: CONNECTIONS });
  const bare = await runLoad({ title: 'GET /v1/config (bare, authenticated)', url: `${gw.url}/v1/config`, headers: { authorization: pk }, durationSeconds: SECONDS, connections: CONNECTIONS });
  const cpuBefore = processCpuMs(gw.pid);
  const track = await runLoad({ title: 'POST /v1/track', url: `${gw.url}/v1/track`, method: 'POST', headers, setupRequest: trackRequest, durationSeconds: SECONDS, connections: CONNECTIONS });

  // CPU the gateway spent per track request: on a shared machine this moves far less than throughput.
  const cpuPerTrackUs = ((processCpuMs(gw.pid) - cpuBefore) * 1000) / (track.requestsPerSecond * SECONDS);

  // Index update cost as a client sees it: a geofence upsert round trip under no other load.
  const t0 = process.hrtime.bigint();
  const UPSERTS = 200;
  for (let i = 0; i < UPSERTS; i++) {
    const [lng, lat] = randomPoint(rnd);
    await fetch(`${gw.url}/v1/geofences/bench/u${i}`, {
      method: 'PUT', headers: { authorization: sk, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'upsert', type: 'circle', coordinates: [lng, lat], radius: 100 }),
    });
  }
  const upsertMs = Number(process.hrtime.bigint() - t0) / 1e6 / UPSERTS;

  const events = await (await fetch(`${gw.url}/v1/events?limit=1`, { headers: { authorization: sk } })).json() as { events: unknown[] };
  console.log('');
  console.log(`track throughput        ${track.requestsPerSecond.toFixed(0)} req/s (p50 ${track.p50Ms} ms, p99 ${track.p99Ms} ms)`);
  console.log(`gateway CPU per track     ${cpuPerTrackUs.toFixed(0)} µs (user + system)`);
  console.log(`bare route throughput   ${bare.requestsPerSecond.toFixed(0)} req/s`);
  console.log(`ratio track / bare      ${(track.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`);
  console.log(`geofence upsert         ${upsertMs.toFixed(2)} ms per sequential round trip (index updated in place)`);
  console.log(`peak RSS (gateway)      ${gw.peakRssMiB().toFixed(0)} MiB`);
  console.log(`events were generated   ${events.events.length > 0 ? 'yes' : 'NO — check the data'}`);
  await gw.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
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
