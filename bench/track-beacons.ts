// What beacons add to a track update, in process (TrackService over SQLite, no HTTP): 2,000 metro
// geofences, BEACONS enabled beacons in the environment, DEVICES devices walking, four cases:
//   1. track without the beacons step (TrackService with no steps): the floor;
//   2. the beacons step, bodies without a beacon list (most apps): the step returns at once;
//   3. the beacons step, every body ranging 3 beacons out of the environment's, the set changing every
//      update (one exit and one entry each time: events and user.beacons rewritten);
//   4. the same ranging the same 3 beacons every update (steady state, no events).
// Then the engine alone: beaconTransitions for 3 ranged beacons against an index of BEACONS.
//
// Run: npm run bench:build && node dist/bench/track-beacons.js
// Options (env): BEACONS (1000), DEVICES (300), RUNS (5), UPDATES (3)
//
// Last results: see docs/beacons.md (figures with the machine's load).
import fs from 'node:fs';
import type { Doc } from '../ports/store';
import os from 'node:os';
import path from 'node:path';
import { createGateway } from '../server/app';
import { TrackService } from '../server/features/track/track-service';
import type { TrackContext } from '../server/track-step';
import type { TrackInput } from '../core/model/track-input';
import { configFromEnv } from '../server/config';
import { BeaconIndex, beaconTransitions, type IndexedBeacon, type RangedBeacon } from '../core/beacons';
import { newObjectId } from '../core/object-id';
import { DEFAULT_PROJECT_SETTINGS } from '../core/types';
import { silentLogger } from '../ports/logger';
import { prng, randomPoint } from './support/metro';
import { seedGeofences } from './support/seed';
import { printCases, sink, timePure, timeTrackCases } from './support/track-runner';

const BEACONS = Number(process.env.BEACONS ?? 1_000);
const DEVICES = Number(process.env.DEVICES ?? 300);
const RUNS = Number(process.env.RUNS ?? 5);
const UPDATES = Number(process.env.UPDATES ?? 3);
const UUID = 'b9407f30-f5f8-466e-aff9-25556b57fe6d';

function beaconDocs(count: number): Array<IndexedBeacon & Doc> {
  const rnd = prng(7);
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    _id: newObjectId(new Date()), createdAt: at, updatedAt: at, live: false, tag: 'bench', externalId: `b${i}`, description: `Beacon ${i}`,
    type: 'ibeacon' as const, uuid: UUID, major: String(Math.floor(i / 1000)), minor: String(i % 1000), enabled: true,
    geometry: { type: 'Point' as const, coordinates: randomPoint(rnd) },
  }));
}

const ranged = (i: number): RangedBeacon => ({ type: 'ibeacon', uuid: UUID, major: String(Math.floor(i / 1000)), minor: String(i % 1000) });

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-beacons-'));
  console.log(`seeding 2000 geofences and ${BEACONS} beacons into ${dataDir} …`);
  const seeded = await seedGeofences(dataDir, 2_000);
  const services = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false, jobIntervalMs: 0 }, silentLogger());
  const scope = { projectId: seeded.projectId, live: false };
  const docs = beaconDocs(BEACONS);
  await services.adapters.store.write(docs.map((doc) => ({ op: 'put' as const, collection: 'beacons', scope, doc })));
  await services.shared.geofences.index(scope);

  const bare = new TrackService(services.adapters.store, services.shared.geofences);
  const withBeacons = new TrackService(services.adapters.store, services.shared.geofences);
  for (const step of services.installed.features.get('beacons')?.trackSteps ?? []) withBeacons.use(step);

  const ctx = (): TrackContext => ({ scope, settings: DEFAULT_PROJECT_SETTINGS, ip: '127.0.0.1', now: new Date() });
  const base = (prefix: string) => (d: number, location: [number, number]): TrackInput => ({
    deviceId: `${prefix}-${d}`, userId: `${prefix}-${d}`, location, accuracy: 20, foreground: true, replayed: false,
  });
  const o = { devices: DEVICES, updates: UPDATES, runs: RUNS, seed: 11 };
  const results = await timeTrackCases([
    { name: '1. track, no beacons step', track: bare, ctx, input: base('bare') },
    { name: '2. beacons step, no beacon list', track: withBeacons, ctx, input: base('nolist') },
    {
      name: '3. beacons step, 3 ranged, one changing each update', track: withBeacons, ctx,
      input: (d, loc, u) => ({ ...base('churn')(d, loc), beacons: [ranged((d * 3) % BEACONS), ranged((d * 3 + 1) % BEACONS), ranged((d * 3 + 2 + u) % BEACONS)] }),
    },
    {
      name: '4. beacons step, the same 3 ranged', track: withBeacons, ctx,
      input: (d, loc) => ({ ...base('steady')(d, loc), beacons: [ranged((d * 3) % BEACONS), ranged((d * 3 + 1) % BEACONS), ranged((d * 3 + 2) % BEACONS)] }),
    },
  ], o);
  printCases(`${BEACONS} beacons, ${DEVICES} devices, ${RUNS} runs × ${DEVICES * UPDATES} updates, µs per update`, results);

  const index = new BeaconIndex(docs);
  const at = new Date();
  const engine = timePure(20_000, 5, (i) => {
    const t = beaconTransitions({
      before: [{ beaconId: docs[i % BEACONS]._id, enteredAt: at.toISOString() }],
      ranged: [ranged(i % BEACONS), ranged((i + 1) % BEACONS), ranged((i + 2) % BEACONS)],
      index, location: docs[i % BEACONS].geometry.coordinates, accuracy: 20, at,
    });
    return t.entered.length;
  });
  const rebuild = timePure(20, 3, () => new BeaconIndex(docs).size);
  console.log(`engine: beaconTransitions, 3 ranged of ${BEACONS}: ${engine.toFixed(2)} µs; index rebuild after a beacon write: ${rebuild.toFixed(0)} µs; sink ${sink}`);
  await services.adapters.store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
