// The store a bench seeds directly and then serves from a gateway in its own process: SQLite in a fresh
// data directory, or with BENCH_STORE=postgres a fresh schema of DATABASE_URL; both removed by `drop()`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayConfig } from '../../server/config';

export interface SeededStore {
  usePostgres: boolean;
  /** "SQLite" or "PostgreSQL", for the bench's lines. */
  label: string;
  dataDir: string;
  /** What the seeding gateway (createGateway in the bench's process) adds to its config. */
  config: Partial<GatewayConfig>;
  /** What the serving gateway process adds to its environment. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export function seededStore(name: string): SeededStore {
  const usePostgres = process.env.BENCH_STORE === 'postgres';
  const schema = `bench_${name}_${Date.now()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `waymark-bench-${name}-`));
  return {
    usePostgres,
    label: usePostgres ? 'PostgreSQL' : 'SQLite',
    dataDir,
    config: usePostgres ? { store: 'postgres', databaseUrl: process.env.DATABASE_URL, databaseSchema: schema } : {},
    env: usePostgres ? { WAYMARK_STORE: 'postgres', DATABASE_URL: process.env.DATABASE_URL!, WAYMARK_DATABASE_SCHEMA: schema } : {},
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!usePostgres) return;
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
