// GET /v1/data/analytics over 30 days holding 1,000,000 events (issue 33): the gateway's CPU for the first
// request (every closed day read once and its summary kept) and for a repeat (the kept rows, and today's
// events). The events are written straight into the store, spread evenly over the 30 closed days before
// today plus a few thousand today: geofence entries and exits (durations 0–300 min) over 1,000
// geofences, trips started and arrived. The gateway runs in its own process; its CPU is read from /proc.
//
//   npm run bench:build && node dist/bench/analytics.js [events]
//   BENCH_STORE=postgres DATABASE_URL=postgres://… node dist/bench/analytics.js   (a fresh schema)
//   BENCH_ZONE=Asia/Kolkata …   the second time zone asked after UTC (default America/New_York): its first
//   request reads every closed day again (summaries are kept per zone and day); then a year in it, and
//   the rolling last 24 hours (read each time).
//
// Last run (2026-11-27, 2 cores, load 4–7 from other work), 1,000,000 events, days=31: SQLite: first
// request 4.47 CPU-s (4.9 s wall; 3.93 in an earlier run), repeats 0.03–0.06 CPU-s; PostgreSQL: first
// 5.30 CPU-s of the gateway (12.3 s wall), repeats 0.05–0.06. BENCH_TODAY=60000 (today capped at
// 50,000): repeats 0.19–0.22 CPU-s.
// With BENCH_ZONE (2026-11-27, load 4.6–6.1): America/New_York's first request after UTC's, SQLite 4.6–5.4
// CPU-s (UTC's 4.9–5.4), PostgreSQL 5.4 (12.4 s wall); repeats 0.01–0.05; 366 days' repeat 0.05 / 0.09.
import os from 'node:os';
import { createGateway } from '../server/app';
import { configFromEnv } from '../server/config';
import { silentLogger } from '../ports/logger';
import { put } from '../ports/store';
import { EVENTS } from '../server/api/collections';
import { newObjectId } from '../core/object-id';
import type { EventDoc } from '../core/model/event';
import { startGatewayProcess } from './http/gateway-process';
import { seededStore } from './support/seeded-store';
import { prng } from './support/metro';

const EVENTS_TOTAL = Number(process.argv[2] ?? 1_000_000);
const DAYS = 30;
// BENCH_TODAY: how many of them today (default 5,000): the part every request reads.
const TODAY_EVENTS = Number(process.env.BENCH_TODAY ?? 5000);
const DAY = 86_400_000;
const BATCH = 5000;

function eventAt(i: number, createdAt: string, rnd: () => number): EventDoc {
  const g = Math.floor(rnd() * rnd() * 1000);
  const geofence = { _id: g.toString(16).padStart(24, '0'), tag: 'store', externalId: `s${g}`, description: `Store ${g}`, type: 'circle' as const };
  const base = { _id: newObjectId(new Date(createdAt)), live: false, createdAt, updatedAt: createdAt, actualCreatedAt: createdAt, user: { _id: `u${i % 50_000}`, userId: `user-${i % 50_000}` }, location: { type: 'Point' as const, coordinates: [-76.6 + rnd() * 0.1, 39.29 + rnd() * 0.1] as [number, number] }, locationAccuracy: 10 };
  const kind = i % 20;
  if (kind < 9) return { ...base, type: 'user.entered_geofence', geofence };
  if (kind < 18) return { ...base, type: 'user.exited_geofence', geofence, duration: Math.round(rnd() * 3000) / 10 };
  if (kind === 18) return { ...base, type: 'user.started_trip', trip: { _id: base._id, externalId: `t${i}`, status: 'started', createdAt } };
  const minutes = 5 + rnd() * 40;
  return {
    ...base, type: 'user.arrived_at_trip_destination',
    trip: { _id: base._id, externalId: `t${i}`, status: 'arrived', createdAt: new Date(Date.parse(createdAt) - minutes * 60_000).toISOString(), arrivedAt: createdAt, delay: { delayed: rnd() < 0.2, scheduledArrivalTimeDelay: Math.round(rnd() * 100) / 10 } },
  };
}

async function main(): Promise<void> {
  const seeded = seededStore('analytics');
  const services = await createGateway({ ...configFromEnv({}), dataDir: seeded.dataDir, logRequests: false, ...seeded.config }, silentLogger());
  const created = await services.shared.projects.create('default');
  const sk = created.keys.find((k) => k.record.kind === 'secret' && !k.record.live)!.key;
  const scope = { projectId: created.id, live: false };
  const store = services.adapters.store;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const rnd = prng(7);
  const seedStarted = Date.now();
  const closed = EVENTS_TOTAL - TODAY_EVENTS;
  for (let i = 0; i < EVENTS_TOTAL; i += BATCH) {
    const ops = [];
    for (let j = i; j < Math.min(EVENTS_TOTAL, i + BATCH); j++) {
      // Closed days evenly, in createdAt order; the last TODAY_EVENTS in today's first minutes.
      const at = j < closed ? today - DAYS * DAY + Math.floor((j / closed) * DAYS * DAY) : today + (j - closed) * 10;
      ops.push(put(EVENTS, scope, eventAt(j, new Date(Math.min(at, Date.now())).toISOString(), rnd)));
    }
    await store.write(ops);
  }
  await store.close();
  console.log(`seeded ${EVENTS_TOTAL.toLocaleString('en')} events over ${DAYS} closed days and today on ${seeded.label} in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

  const gateway = await startGatewayProcess(seeded.dataDir, seeded.env);
  try {
    const ask = async (label: string, timeZone = 'UTC', days = DAYS + 1, period = `days=${days}`) => {
      const load = os.loadavg()[0].toFixed(1);
      const cpu0 = gateway.cpuMs();
      const t0 = Date.now();
      const r = await fetch(`${gateway.url}/v1/data/analytics?${period}&timeZone=${encodeURIComponent(timeZone)}`, { headers: { authorization: sk } });
      const body = (await r.json()) as { events: number; summaries: { reused: number; built: number; eventsRead: number } };
      const wall = Date.now() - t0;
      const cpu = gateway.cpuMs() - cpu0;
      console.log(`${label}: ${r.status}, ${body.events.toLocaleString('en')} events; summaries built ${body.summaries.built}, reused ${body.summaries.reused}, events read ${body.summaries.eventsRead.toLocaleString('en')}; gateway CPU ${(cpu / 1000).toFixed(2)} s, wall ${(wall / 1000).toFixed(2)} s (load ${load})`);
    };
    await ask('first request');
    for (let i = 1; i <= 3; i++) await ask(`repeat ${i}`);
    const zone = process.env.BENCH_ZONE ?? 'America/New_York';
    await ask(`${zone}, first request`, zone);
    for (let i = 1; i <= 3; i++) await ask(`${zone}, repeat ${i}`, zone);
    await ask(`${zone}, 366 days, first request`, zone, 366);
    for (let i = 1; i <= 2; i++) await ask(`${zone}, 366 days, repeat ${i}`, zone, 366);
    // The rolling window reads its events on every request (nothing kept), at most 50,000.
    for (let i = 1; i <= 3; i++) await ask(`${zone}, last 24 hours ${i}`, zone, 0, 'hours=24');
  } finally {
    await gateway.stop();
    await seeded.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
