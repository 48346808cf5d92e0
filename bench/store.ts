// Store throughput, SQLite vs PostgreSQL, side by side: single put, get, list (indexed key; metadata
// filter), within (1 km box), and write() batches of 100, each sequential (one caller, latency-bound)
// and, where it matters for a pooled server, with 16 callers at once. Plain timing loops over seeded
// user documents (~600 bytes of JSON each), warm-up first, several runs, min/median/mean ops/s.
//
// Run: npm run bench:build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node dist/bench/store.js
// Options (env): DOCS (20000) documents preloaded, RUNS (5). Without DATABASE_URL only SQLite runs.
// PostgreSQL works in a throwaway schema (waymark_bench_<random>), dropped at the end, ANALYZEd after
// the load; the third column is the same server with synchronous_commit=off (SQLite runs synchronous=NORMAL).
//
// Last results (Node 20.20, PostgreSQL 15 + PostGIS 3.3 on localhost, 2 vCPU container with a load average
// of ~11 from other jobs, so ±30 % run to run), median ops/s:
//   operation                 sqlite    postgres   postgres sync_commit=off
//   put (1 doc)                2,489       263        1,258
//   put (1 doc) ×16            5,721     1,504        4,654
//   get by id                 54,238     5,125        3,162
//   get by id ×16             46,191     7,450        6,189
//   list 20, indexed key        64.7       929        1,154   (SQLite's planner scans the scope here)
//   list 20 newest, metadata   1,605       795          560
//   within 1 km box            3,853       871          814
//   write() batch of 100        64.7      51.0         57.1   (6,473 / 5,097 / 5,712 docs/s)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStore } from '../adapters/store/postgres/postgres-store';
import { collection, put, type Doc, type Scope, type Store, type WriteOp } from '../ports/store';
import { SqliteStore } from '../adapters/store/sqlite/sqlite-store';
import { offset, prng, randomPoint, METRO_CENTER } from './support/metro';

const DOCS = Number(process.env.DOCS ?? 20_000);
const RUNS = Number(process.env.RUNS ?? 5);
const CONCURRENCY = 16;
const SCOPE: Scope = { projectId: 'bench', live: true };
const USERS = collection<Doc>('users', { keys: ['userId', 'deviceId'], point: 'location' });

let sink = 0;

function userDoc(i: number, rnd: () => number, at: string): Doc {
  const id = `u${i.toString(36).padStart(6, '0')}`;
  return {
    _id: id, createdAt: at, updatedAt: at, live: true, userId: `user-${i}`, deviceId: `device-${i}`,
    location: { type: 'Point', coordinates: randomPoint(rnd) }, locationAccuracy: 5 + Math.floor(rnd() * 50),
    foreground: rnd() < 0.5, stopped: rnd() < 0.3, deviceType: rnd() < 0.5 ? 'iOS' : 'Android',
    metadata: { plan: rnd() < 0.1 ? 'gold' : 'basic', visits: Math.floor(rnd() * 100), beta: rnd() < 0.2 },
    geofences: [], description: `bench user ${i}`, ip: `10.0.${i % 256}.${(i >> 8) % 256}`,
    _visits: { [`g${i % 97}`]: { enteredAt: at, confidence: 3 } },
  };
}

interface Operation {
  name: string;
  /** Operations per run (for the ops/s figure). */
  count: number;
  /** Callers at once. */
  callers: number;
  /** Performs operation number i. */
  one: (store: Store, i: number) => Promise<void>;
  /** Items per operation (documents per write batch), for the docs/s note. */
  itemsPerOp?: number;
}

function operations(): Operation[] {
  const rnd = prng(99);
  let putSeq = 0;
  const now = (): string => new Date(Date.UTC(2026, 0, 1) + putSeq * 1000).toISOString();
  const putOne = async (store: Store): Promise<void> => {
    const i = putSeq++ % DOCS;
    await store.write([put(USERS, SCOPE, userDoc(i, rnd, now()))]);
  };
  const get = async (store: Store, i: number): Promise<void> => {
    const doc = await store.get(USERS, SCOPE, `u${((i * 7919) % DOCS).toString(36).padStart(6, '0')}`);
    sink += doc ? 1 : 0;
  };
  return [
    { name: 'put (1 doc)', count: 1000, callers: 1, one: putOne },
    { name: `put (1 doc) ×${CONCURRENCY}`, count: 4000, callers: CONCURRENCY, one: putOne },
    { name: 'get by id', count: 4000, callers: 1, one: get },
    { name: `get by id ×${CONCURRENCY}`, count: 16_000, callers: CONCURRENCY, one: get },
    {
      name: 'list 20, indexed key', count: 200, callers: 1,
      one: async (store, i) => {
        const r = await store.list(USERS, SCOPE, { limit: 20, sortBy: 'updatedAt', equals: { deviceId: `device-${(i * 31) % DOCS}` } });
        sink += r.docs.length;
      },
    },
    {
      name: 'list 20 newest, metadata', count: 500, callers: 1,
      one: async (store) => {
        const r = await store.list(USERS, SCOPE, { limit: 20, sortBy: 'updatedAt', metadata: { plan: 'gold' } });
        sink += r.docs.length;
      },
    },
    {
      name: 'within 1 km box', count: 1000, callers: 1,
      one: async (store, i) => {
        const [lng, lat] = offset(METRO_CENTER, ((i % 40) - 20) * 1000, ((i % 37) - 18) * 1000);
        const [maxLng, maxLat] = offset([lng, lat], 1000, 1000);
        const docs = await store.within(USERS, SCOPE, { minLng: lng, minLat: lat, maxLng, maxLat }, 200);
        sink += docs.length;
      },
    },
    {
      name: 'write() batch of 100', count: 50, callers: 1, itemsPerOp: 100,
      one: async (store) => {
        const ops: WriteOp[] = [];
        for (let k = 0; k < 100; k++) {
          const i = putSeq++ % DOCS;
          ops.push(put(USERS, SCOPE, userDoc(i, rnd, now())));
        }
        await store.write(ops);
      },
    },
  ];
}

/** Runs `count` operations with `callers` concurrent loops; returns ops/s. */
async function timed(store: Store, op: Operation, count: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: op.callers }, async () => {
    for (let i = next++; i < count; i = next++) await op.one(store, i);
  }));
  return count / ((performance.now() - t0) / 1000);
}

function stats(values: number[]): { min: number; median: number; mean: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return { min: s[0], median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, mean: s.reduce((a, b) => a + b, 0) / s.length };
}

async function load(store: Store): Promise<number> {
  await store.define(USERS);
  const rnd = prng(42);
  const t0 = performance.now();
  for (let i = 0; i < DOCS; i += 500) {
    const ops: WriteOp[] = [];
    for (let k = i; k < Math.min(DOCS, i + 500); k++) {
      ops.push(put(USERS, SCOPE, userDoc(k, rnd, new Date(Date.UTC(2025, 0, 1) + k * 1000).toISOString())));
    }
    await store.write(ops);
  }
  return DOCS / ((performance.now() - t0) / 1000);
}

type Figures = Map<string, { min: number; median: number; mean: number }>;

interface Contestant {
  label: string;
  store: Store;
  /** Each store gets its own copy: the operations carry their own seeded sequence. */
  ops: Operation[];
  figures: Figures;
  afterLoad?: () => Promise<void>;
  cleanup: () => Promise<void>;
}

async function postgresContestant(label: string, connectionString: string, adminUrl: string): Promise<Contestant> {
  const schema = `waymark_bench_${randomBytes(4).toString('hex')}`;
  const store = await PostgresStore.open({ connectionString, schema });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  return {
    label: `${label} (${store.spatial}${connectionString === adminUrl ? '' : ', sync_commit=off'})`,
    store,
    ops: operations(),
    figures: new Map(),
    // Fresh statistics, as autovacuum provides within a minute or so of a bulk load; without them the
    // planner guesses one row per scope and scans the primary key (see docs/operations-postgres.md).
    afterLoad: async () => {
      const tables = await admin.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename LIKE 'coll\\_%'", [schema]);
      for (const { tablename } of tables.rows) await admin.query(`ANALYZE "${schema}"."${tablename}"`);
    },
    cleanup: async () => {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-store-'));
  const sqlite = new SqliteStore({ file: path.join(dir, 'bench.sqlite') });
  const contestants: Contestant[] = [{
    label: 'sqlite (file, WAL)', store: sqlite, ops: operations(), figures: new Map(),
    cleanup: async () => {
      await sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  }];
  const url = process.env.DATABASE_URL;
  if (url) {
    contestants.push(await postgresContestant('postgres', url, url));
    // Commit durability relaxed the way SQLite's synchronous=NORMAL relaxes it (a crash may lose the last
    // transactions, never corrupt): same server, one session setting passed in the URL.
    const relaxed = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c synchronous_commit=off')}`;
    contestants.push(await postgresContestant('postgres', relaxed, url));
  } else {
    console.log('DATABASE_URL unset: PostgreSQL skipped');
  }
  try {
    for (const c of contestants) {
      const rate = await load(c.store);
      console.log(`${c.label}: loaded ${DOCS} documents at ${Math.round(rate)} docs/s (batches of 500)`);
      await c.afterLoad?.();
    }
    // Runs alternate between stores, so a busy machine slows all columns alike rather than one.
    for (let k = 0; k < contestants[0].ops.length; k++) {
      for (const c of contestants) await timed(c.store, c.ops[k], Math.max(c.ops[k].callers, Math.floor(c.ops[k].count / 10)));
      const rates = contestants.map((): number[] => []);
      for (let r = 0; r < RUNS; r++) {
        for (const [i, c] of contestants.entries()) rates[i].push(await timed(c.store, c.ops[k], c.ops[k].count));
      }
      for (const [i, c] of contestants.entries()) c.figures.set(c.ops[k].name, stats(rates[i]));
      process.stdout.write('.');
    }
    process.stdout.write('\n');
  } finally {
    for (const c of contestants) await c.cleanup();
  }
  const columns: Array<[string, Figures]> = contestants.map((c) => [c.label, c.figures]);

  const names = operations();
  console.log(`\nops/s, median of ${RUNS} runs (min – mean in brackets); ${DOCS} documents in the collection`);
  const width = 26;
  console.log('operation'.padEnd(width) + columns.map(([label]) => label.padStart(36)).join(''));
  for (const op of names) {
    const cells = columns.map(([, figures]) => {
      const f = figures.get(op.name);
      return (f ? `${fmt(f.median)} (${fmt(f.min)} – ${fmt(f.mean)})` : '-').padStart(36);
    });
    console.log(op.name.padEnd(width) + cells.join(''));
  }
  for (const op of names.filter((o) => o.itemsPerOp)) {
    const notes = columns.map(([label, figures]) => `${label} ${fmt((figures.get(op.name)?.median ?? 0) * (op.itemsPerOp ?? 1))} docs/s`);
    console.log(`${op.name}: ${notes.join(', ')}`);
  }
  console.log(`(sink ${sink})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
