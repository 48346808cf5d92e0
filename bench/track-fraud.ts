// What fraud checks add to a track update, in process (TrackService over SQLite, no HTTP): 2,000 metro
// geofences, DEVICES devices walking, four cases:
//   1. track without the fraud step (TrackService with no steps): the floor;
//   2. the fraud step with the project's `fraud` setting off;
//   3. fraud on, no anonymous-IP database (every flag but proxy);
//   4. fraud on with the anonymous-IP .mmdb (MaxMind's test database from ../shared/fixtures/mmdb when
//      present: a tiny file, so the lookup is cheaper than with a full commercial database).
// Then the engine alone: checkFraud per call.
//
// Run: npm run bench:build && node dist/bench/track-fraud.js
// Options (env): DEVICES (300), RUNS (5), UPDATES (3)
//
// Last results: see docs/fraud.md (figures with the machine's load).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMaxmindIpLocator } from '../adapters/ip-locator/maxmind/maxmind-ip-locator';
import { createGateway } from '../server/app';
import { FraudTrackStep } from '../server/features/fraud/fraud-track-step';
import { TrackService } from '../server/features/track/track-service';
import type { TrackContext } from '../server/track-step';
import type { TrackInput } from '../core/model/track-input';
import { configFromEnv } from '../server/config';
import { checkFraud } from '../core/fraud';
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../core/types';
import { silentLogger } from '../ports/logger';
import { prng, randomPoint } from './support/metro';
import { seedGeofences } from './support/seed';
import { printCases, sink, timePure, timeTrackCases, type TrackCase } from './support/track-runner';

const DEVICES = Number(process.env.DEVICES ?? 300);
const RUNS = Number(process.env.RUNS ?? 5);
const UPDATES = Number(process.env.UPDATES ?? 3);
const ANONYMOUS_DB = path.resolve(__dirname, '../../../shared/fixtures/mmdb/GeoIP2-Anonymous-IP-Test.mmdb');
const ANONYMOUS_DB_SRC = path.resolve(__dirname, '../../shared/fixtures/mmdb/GeoIP2-Anonymous-IP-Test.mmdb');

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-fraud-'));
  console.log(`seeding 2000 geofences into ${dataDir} …`);
  const seeded = await seedGeofences(dataDir, 2_000);
  // Run from dist/bench or straight from bench/: find the fixture either way.
  const mmdb = [ANONYMOUS_DB, ANONYMOUS_DB_SRC].find((f) => fs.existsSync(f));
  if (!mmdb) console.warn('../shared/fixtures/mmdb absent: case 4 is skipped');
  const plain = await createGateway({ ...configFromEnv({}), dataDir, logRequests: false, jobIntervalMs: 0 }, silentLogger());
  const scope = { projectId: seeded.projectId, live: false };
  await plain.shared.geofences.index(scope);

  const bare = new TrackService(plain.adapters.store, plain.shared.geofences);
  const withFraud = new TrackService(plain.adapters.store, plain.shared.geofences);
  for (const step of plain.installed.features.get('fraud')?.trackSteps ?? []) withFraud.use(step);

  const settings = (fraud: boolean): ProjectSettings => ({ ...DEFAULT_PROJECT_SETTINGS, fraud });
  // A public address, so the anonymous-IP lookup really searches the tree.
  const ctx = (fraud: boolean) => (): TrackContext => ({ scope, settings: settings(fraud), ip: '8.8.4.4', now: new Date() });
  const input = (prefix: string) => (d: number, location: [number, number]): TrackInput => ({
    deviceId: `${prefix}-${d}`, userId: `${prefix}-${d}`, location, accuracy: 20, foreground: true, replayed: false, fraudHints: { verified: true },
  });
  const o = { devices: DEVICES, updates: UPDATES, runs: RUNS, seed: 11 };
  const cases: TrackCase[] = [
    { name: '1. track, no fraud step', track: bare, ctx: ctx(false), input: input('bare') },
    { name: '2. fraud step, setting off', track: withFraud, ctx: ctx(false), input: input('off') },
    { name: '3. fraud on, no anonymous-IP database', track: withFraud, ctx: ctx(true), input: input('on') },
  ];
  if (mmdb) {
    // The same step over a locator with the anonymous-IP database. Its first lookup also reads the bundled
    // city databases (the adapter opens all its files together): that happens in the warm-up run.
    const trackDb = new TrackService(plain.adapters.store, plain.shared.geofences);
    trackDb.use(new FraudTrackStep(createMaxmindIpLocator({ anonymousIpDatabase: mmdb }), silentLogger()));
    cases.push({ name: '4. fraud on, anonymous-IP .mmdb (MaxMind test file)', track: trackDb, ctx: ctx(true), input: input('mmdb') });
  }
  const results = await timeTrackCases(cases, o);
  printCases(`${DEVICES} devices, ${RUNS} runs × ${DEVICES * UPDATES} updates, µs per update`, results);

  const rnd = prng(3);
  const points = Array.from({ length: 1024 }, () => randomPoint(rnd));
  const at = new Date();
  const before = new Date(at.getTime() - 60_000);
  const engine = timePure(100_000, 5, (i) => {
    const f = checkFraud({
      at, location: points[i & 1023], accuracy: 20, previous: { location: points[(i + 1) & 1023], accuracy: 20, at: before },
      hints: {}, proxy: false, bypassed: false, userBlocked: false, blocking: false, mode: 'car',
    });
    return f.jumped ? 1 : 0;
  });
  console.log(`engine: checkFraud ${engine.toFixed(2)} µs per call; sink ${sink}`);
  await plain.adapters.store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
