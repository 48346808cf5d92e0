// GET /v1/users with our filters (issue 33) over 100,000 users: the gateway's CPU and the wall time of
// each filter's first page, of a plain page, and of a whole walk through meta.next. The users are written
// straight into the store, updated over the last 24 hours (about 4,200 an hour: the users' updatedAt
// index is by hour, docs/track-path.md), 1 % on a trip (and 5 % with a finished one), 5 % inside one of
// 100 geofences and 20 % inside a "city" one, 0.5 % with a fraud flag, every tenth with a description; with
// each trip its trip row, with each geofence its presence row and with each flagged user its flagged-users
// row, as track and the trips API write them (onTrip=true, inside=true, geofenceId and fraud=true read
// those). The gateway runs in its own process; its CPU is
// read from /proc.
//
//   npm run bench:build && node dist/bench/users-filters.js [users]
//   BENCH_STORE=postgres DATABASE_URL=postgres://… node dist/bench/users-filters.js   (a fresh schema)
//
// Last run: docs/dashboard.md, "Users searched and filtered by the server" (2026-11-27, 2 cores, load 4.6–5.4).
import os from 'node:os';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import { put, type WriteOp } from '../ports/store';
import { FLAGGED_USERS, PRESENCE, TRIPS, USERS } from '../server/api/collections';
import type { UserDoc } from '../core/model/user';
import type { TripDoc } from '../core/model/trip';
import { startGatewayProcess } from './http/gateway-process';
import { seededStore } from './support/seeded-store';

const TOTAL = Number(process.argv[2] ?? 100_000);
const BATCH = 5000;
const RUNS = 10;
// BENCH_SPAN_HOURS: the hours the updates are spread over (default 24); 1 is the worst case, every
// user in one hour of the index, which each read sorts whole.
const SPAN_MS = Number(process.env.BENCH_SPAN_HOURS ?? 24) * 3_600_000;
const geofenceId = (g: number) => `9e0f${g.toString(16).padStart(20, '0')}`;
const CITY = geofenceId(999);
const fence = (id: string, tag: string, externalId: string) => ({ _id: id, tag, externalId, description: externalId, type: 'circle', geometryCenter: { type: 'Point', coordinates: [-76.6, 39.29] }, geometryRadius: 100 }) as UserDoc['geofences'][number];

function userAt(i: number, now: number): UserDoc {
  const at = new Date(now - Math.floor((i / TOTAL) * SPAN_MS)).toISOString();
  const userId = i === Math.floor(TOTAL * 0.9) ? 'needle-deep' : `user-${String(i).padStart(6, '0')}`;
  const u: UserDoc = {
    _id: `u${String(i).padStart(23, '0')}`, live: false, createdAt: at, updatedAt: at, actualUpdatedAt: at,
    userId, deviceId: `device-${i}`, location: { type: 'Point', coordinates: [-76.6 + (i % 1000) * 1e-4, 39.29 + Math.floor(i / 1000) * 1e-4] },
    locationAccuracy: 10, geofences: [], _visits: [],
  };
  if (i % 10 === 3) u.description = `Courier ${i}`;
  if (i % 100 === 7) u.trip = { _id: `t${String(i).padStart(23, '0')}`, externalId: `order-${i}`, status: 'started', live: false, createdAt: at, updatedAt: at } as UserDoc['trip'];
  if (i % 20 === 11) u.geofences.push(fence(geofenceId(Math.floor(i / 20) % 100), 'store', `s${Math.floor(i / 20) % 100}`));
  if (i % 5 === 1) u.geofences.push(fence(CITY, 'city', 'baltimore'));
  if (i % 200 === 13) u.fraud = { mocked: true, passed: false };
  return u;
}

/** The user and the rows that link it: its trip (open or finished) and one presence row per geofence. */
function rowsOf(u: UserDoc, i: number, scope: { projectId: string; live: boolean }): WriteOp[] {
  const ops = [put(USERS, scope, u)];
  const finished = i % 20 === 9;
  if (u.trip || finished) {
    const trip: TripDoc = {
      _id: `e${String(i).padStart(23, '0')}`, live: false, externalId: `order-${i}`, status: finished ? 'completed' : 'started', mode: 'car',
      createdAt: u.createdAt, updatedAt: u.updatedAt, _trail: [], _delayed: false, userRef: u._id,
    };
    ops.push(put(TRIPS, scope, trip));
  }
  for (const g of u.geofences) ops.push(put(PRESENCE, scope, { _id: `${u._id}:${g._id}`, createdAt: u.createdAt, updatedAt: u.updatedAt, geofenceId: g._id, userRef: u._id }));
  if (u.fraud) ops.push(put(FLAGGED_USERS, scope, { _id: u._id, createdAt: u.updatedAt, updatedAt: u.updatedAt, userRef: u._id }));
  return ops;
}

async function main(): Promise<void> {
  const seeded = seededStore('users');
  const services = await createGateway({ ...configFromEnv({}), dataDir: seeded.dataDir, logRequests: false, ...seeded.config }, silentLogger());
  const created = await services.shared.projects.create('default');
  const sk = created.keys.find((k) => k.record.kind === 'secret' && !k.record.live)!.key;
  const scope = { projectId: created.id, live: false };
  const store = services.adapters.store;
  const now = Date.now();
  const seedStarted = Date.now();
  for (let i = 0; i < TOTAL; i += BATCH) {
    const ops = [];
    for (let j = i; j < Math.min(TOTAL, i + BATCH); j++) ops.push(...rowsOf(userAt(j, now), j, scope));
    await store.write(ops);
  }
  await store.close();
  console.log(`seeded ${TOTAL.toLocaleString('en')} users on ${seeded.label} in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

  const gateway = await startGatewayProcess(seeded.dataDir, seeded.env);
  type Answer = { users: unknown[]; meta: { hasMore: boolean; scanned?: number; scanStopped?: boolean; exact?: boolean; capped?: boolean; total?: number; next?: Record<string, string> } };
  const get = async (query: Record<string, string>) => {
    const r = await fetch(`${gateway.url}/v1/users?${new URLSearchParams(query)}`, { headers: { authorization: sk } });
    if (r.status !== 200) throw new Error(`${r.status} ${await r.text()}`);
    return (await r.json()) as Answer;
  };
  try {
    await get({ limit: '1' }); // the first request opens the environment
    const ask = async (label: string, query: Record<string, string>) => {
      const samples: Array<{ cpu: number; wall: number }> = [];
      let body: Answer | undefined;
      for (let run = 0; run < RUNS; run++) {
        const cpu0 = gateway.cpuMs();
        const t0 = performance.now();
        body = await get({ limit: '100', ...query });
        samples.push({ cpu: gateway.cpuMs() - cpu0, wall: performance.now() - t0 });
      }
      // /proc counts CPU in 10 ms ticks: the mean of the runs, not one run's.
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const m = body!.meta;
      const how = m.exact !== undefined ? `exact ${m.exact}, total ${m.total ?? '-'}${m.capped ? ' (capped)' : ''}` : `scanned ${String(m.scanned ?? '-').padStart(5)}${m.scanStopped ? ' (stopped)' : ''}`;
      console.log(`${label.padEnd(40)} ${String(body!.users.length).padStart(3)} users, ${how}; `
        + `gateway CPU ${mean(samples.map((s) => s.cpu)).toFixed(0)} ms, wall ${mean(samples.map((s) => s.wall)).toFixed(0)} ms (mean of ${RUNS}, load ${os.loadavg()[0].toFixed(1)})`);
    };
    await ask('plain first page', {});
    await ask('plain, last hour (updatedAfter)', { updatedAfter: new Date(now - 3600_000).toISOString() });
    await ask('onTrip=true (1 %)', { onTrip: 'true' });
    await ask('onTrip=true, limit 1000', { onTrip: 'true', limit: '1000' });
    await ask('onTrip=true&search=user-09 (oldest 10 %)', { onTrip: 'true', search: 'user-09' });
    await ask('onTrip=true&search=courier (none)', { onTrip: 'true', search: 'courier' });
    await ask('inside=true (24 %: capped)', { inside: 'true' });
    await ask('geofenceId (0.05 %)', { geofenceId: geofenceId(11) });
    await ask('geofenceId&fraud=true (rest)', { geofenceId: geofenceId(11), fraud: 'true' });
    await ask('geofenceId city (20 %: capped)', { geofenceId: CITY });
    await ask('onTrip=false (scan)', { onTrip: 'false' });
    await ask('fraud=true (0.5 %)', { fraud: 'true' });
    await ask('fraud=true, limit 1000', { fraud: 'true', limit: '1000' });
    await ask('fraud=true&search=user-09 (oldest 10 %)', { fraud: 'true', search: 'user-09' });
    await ask('search=courier 12 (substring)', { search: 'courier 12' });
    await ask('search=user-0000 (prefix, newest)', { search: 'user-0000' });
    await ask('search=user-0901 (prefix, 9 %)', { search: 'user-0901' });
    await ask('search=USER-0901 (prefix, any case)', { search: 'USER-0901' });
    await ask('search=needle-deep (exact, 90 %)', { search: 'needle-deep' });
    await ask('fraud=true, scanLimit=1000', { fraud: 'true', scanLimit: '1000' });
    // A whole walk: every user examined once, 5,000 a request.
    const cpu0 = gateway.cpuMs();
    const t0 = performance.now();
    let cursor: Record<string, string> = {};
    let requests = 0;
    let found = 0;
    for (;;) {
      const body = await get({ limit: '1000', fraud: 'true', ...cursor });
      requests++;
      found += body.users.length;
      if (!body.meta.next) break;
      cursor = body.meta.next;
    }
    console.log(`fraud=true walked to the end: ${found} users in ${requests} requests; gateway CPU ${((gateway.cpuMs() - cpu0) / 1000).toFixed(2)} s, wall ${((performance.now() - t0) / 1000).toFixed(2)} s (load ${os.loadavg()[0].toFixed(1)})`);
  } finally {
    await gateway.stop();
    await seeded.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
