// What a trip adds to a track update, in process (TrackService over SQLite, no HTTP): 10,000 metro
// geofences, 2,000 devices on random walks, and four cases:
//   1. track without the trips step at all (TrackService with no steps): the floor;
//   2. the trips step, devices without a trip (2,000 other users' pending trips in the store);
//   3. the trips step, every device on an active trip to a store geofence, trails growing from empty;
//   4. the same with every trail already at the cap (TRIP_LOCATION_CAP points): the worst steady state,
//      since the whole trip document is rewritten on every update.
// Seeded data, a warm-up run per case, a result sink, RUNS timed runs of DEVICES × UPDATES_PER_DEVICE
// sequential updates; prints min / median / mean µs per update and the added cost over case 1.
//
// Run: npm run bench:build && node dist/bench/track-trips.js
// Options (env): GEOFENCES (10000), DEVICES (2000), RUNS (5), UPDATES_PER_DEVICE (3)
//
// Last results (Node 20, shared dev container under load average ~9 from other work, so ±50 %),
// µs per update, median [added over case 1]; two runs:
//   1. track, no trips step                        403 [0]       517 [0]
//   2. trips step, no trip for the device          680 [+278]    616 [+100]
//   3. trips step, active trip, short trail       2764 [+2362]  2175 [+1658]
//   4. trips step, active trip, trail at cap 500  3626 [+3224]  2051 [+1534]
// A capped trip document is ~20 KB of JSON. Most of the added cost of 3 and 4 is the Store writing the
// trip document and the user.updated_trip event inside the update's transaction; the step's own work
// (lookup, ETA, rules) is ~0.2 ms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway, type Gateway } from '../server/app';
import { TrackService } from '../server/features/track/track-service';
import type { TrackContext } from '../server/track-step';
import type { TrackInput } from '../core/model/track-input';
import { trailPoint, type TrailPoint, type TripDoc } from '../core/model/trip';
import { configFromEnv } from '../server/config';
import { TRIP_LOCATION_CAP } from '../core/trips';
import { DEFAULT_PROJECT_SETTINGS } from '../core/types';
import { silentLogger } from '../ports/logger';
import { offset, prng, randomPoint, type LngLat } from './support/metro';
import { seedGeofences } from './support/seed';
import { TRIPS } from '../server/api/collections';
import { put } from '../ports/store';

const GEOFENCES = Number(process.env.GEOFENCES ?? 10_000);
const DEVICES = Number(process.env.DEVICES ?? 2_000);
const RUNS = Number(process.env.RUNS ?? 5);
const UPDATES_PER_DEVICE = Number(process.env.UPDATES_PER_DEVICE ?? 3);

interface Figures {
  name: string;
  min: number;
  median: number;
  mean: number;
}

let sink = 0;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-trips-'));
  console.log(`seeding ${GEOFENCES} geofences into ${dataDir} …`);
  const seeded = await seedGeofences(dataDir, GEOFENCES);
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false, jobIntervalMs: 0 }, silentLogger());
  const scope = { projectId: seeded.projectId, live: false };
  await services.shared.geofences.index(scope);
  // Only geofencing, and geofencing + the trips step: other features' steps (webhooks) stay out.
  const bare = new TrackService(services.adapters.store, services.shared.geofences);
  const withTrips = new TrackService(services.adapters.store, services.shared.geofences);
  for (const step of services.installed.features.get('trips')?.trackSteps ?? []) withTrips.use(step);

  const rnd = prng(11);
  const results: Figures[] = [];
  const run = async (name: string, track: TrackService, prefix: string, extra: (d: number) => Partial<TrackInput> = () => ({})) => {
    const positions: LngLat[] = Array.from({ length: DEVICES }, () => randomPoint(rnd));
    const once = async (): Promise<number> => {
      const t0 = process.hrtime.bigint();
      for (let u = 0; u < UPDATES_PER_DEVICE; u++) {
        for (let d = 0; d < DEVICES; d++) {
          positions[d] = offset(positions[d], (rnd() * 2 - 1) * 40, (rnd() * 2 - 1) * 40);
          const ctx: TrackContext = { scope, settings: DEFAULT_PROJECT_SETTINGS, ip: '127.0.0.1', now: new Date() };
          const input: TrackInput = { deviceId: `${prefix}-${d}`, userId: `${prefix}-${d}`, location: positions[d], accuracy: 20, foreground: true, replayed: false, ...extra(d) };
          const result = await track.track(ctx, input);
          sink += result.events.length + (result.user.trip ? 1 : 0);
        }
      }
      return Number(process.hrtime.bigint() - t0) / 1e3 / (DEVICES * UPDATES_PER_DEVICE);
    };
    await once(); // warm-up: creates the users, JIT
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await once());
    times.sort((a, b) => a - b);
    results.push({ name, min: times[0], median: times[Math.floor(times.length / 2)], mean: times.reduce((a, b) => a + b, 0) / times.length });
  };

  await run('1. track, no trips step', bare, 'bare');
  await seedTrips(services, scope, 'others', 'pending', 0);
  await run('2. trips step, no trip for the device', withTrips, 'plain');
  await seedTrips(services, scope, 'active', 'started', 0);
  await run('3. trips step, active trip, short trail', withTrips, 'active');
  await seedTrips(services, scope, 'capped', 'started', TRIP_LOCATION_CAP);
  await run(`4. trips step, active trip, trail at cap (${TRIP_LOCATION_CAP})`, withTrips, 'capped');

  const floor = results[0].median;
  console.log(`\n${GEOFENCES} geofences, ${DEVICES} devices, ${RUNS} runs × ${DEVICES * UPDATES_PER_DEVICE} updates, µs per update`);
  console.log('case'.padEnd(50), 'min'.padStart(8), 'median'.padStart(8), 'mean'.padStart(8), 'added'.padStart(8));
  for (const f of results) {
    console.log(f.name.padEnd(50), f.min.toFixed(0).padStart(8), f.median.toFixed(0).padStart(8), f.mean.toFixed(0).padStart(8), (f.median - floor).toFixed(0).padStart(8));
  }
  const sample = await services.adapters.store.findOne(TRIPS, scope, { externalId: 'capped-trip-0' });
  console.log(`\ncapped trip document: ${sample ? JSON.stringify(sample).length : 0} bytes of JSON; sink ${sink}`);
  await services.adapters.store.close();
}

/** One trip per device `prefix-<d>`, to a store geofence, with `trail` points already kept. */
async function seedTrips(services: Gateway, scope: { projectId: string; live: boolean }, prefix: string, status: 'pending' | 'started', trail: number): Promise<void> {
  const now = new Date();
  const at = now.toISOString();
  const rnd = prng(5);
  const ops = [];
  for (let d = 0; d < DEVICES; d++) {
    const points: TrailPoint[] = Array.from({ length: trail }, () => trailPoint(randomPoint(rnd), 20, now));
    const trip: TripDoc = {
      _id: `${prefix}${String(d).padStart(24 - prefix.length, '0')}`.slice(0, 24), live: false, externalId: `${prefix}-trip-${d}`, status, mode: 'car',
      destinationGeofenceTag: 'store', destinationGeofenceExternalId: `g${(d % Math.floor(GEOFENCES / 10)) * 10}`,
      createdAt: at, updatedAt: at, _trail: points, _delayed: false, userId: `${prefix}-${d}`, userRef: `userId:${prefix}-${d}`,
      scheduledArrivalAt: new Date(now.getTime() + 30 * 60_000).toISOString(),
    };
    ops.push(put(TRIPS, scope, trip));
  }
  await services.adapters.store.write(ops);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
