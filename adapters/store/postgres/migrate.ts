// Brings a schema up to date: creates it, makes PostGIS available when it can, and applies pending
// migrations one transaction each. Several gateway nodes may start at once, so the whole run holds a
// database-wide advisory lock; the second node then finds everything applied.
import type { PoolClient } from 'pg';
import { advisoryKey } from './advisory-key';
import { MIGRATIONS, POSTGIS_MIGRATION_VERSION } from './migrations';
import { quoteIdent } from './identifiers';

export type SpatialMode = 'postgis' | 'btree';

export interface MigrationOutcome {
  /** Versions applied by this run. */
  applied: number[];
  /** Which index answers within(): the PostGIS GiST index or the lat/lng btree. */
  spatial: SpatialMode;
  /** Schema of the postgis extension, when it is installed. */
  postgisSchema?: string;
  /** Why PostGIS is not used, when it is not. */
  spatialReason?: string;
}

export interface MigrateOptions {
  schema: string;
  /** 'auto' uses PostGIS when the extension exists or can be created; 'btree' never touches it. */
  spatial: 'auto' | 'btree';
}

export const MIGRATE_LOCK = advisoryKey('waymark:migrate');

export async function migrate(client: PoolClient, opts: MigrateOptions): Promise<MigrationOutcome> {
  const s = quoteIdent(opts.schema);
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`,
    );
    const done = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)).rows.map((r) => r.version),
    );
    const postgis = opts.spatial === 'btree' ? { reason: 'disabled by configuration' } : await ensurePostgis(client);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      if (m.needs === 'postgis' && postgis.schema === undefined) continue;
      const sql = m.sql({ schema: s, postgis: postgis.schema === undefined ? undefined : quoteIdent(postgis.schema) });
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query(`INSERT INTO ${s}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [
          m.version, m.name, new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`PostgreSQL migration ${m.version} (${m.name}) failed in schema ${opts.schema}: ${(err as Error).message}`);
      }
      done.add(m.version);
      applied.push(m.version);
    }
    const spatialReady = opts.spatial === 'auto' && postgis.schema !== undefined && done.has(POSTGIS_MIGRATION_VERSION);
    return spatialReady
      ? { applied, spatial: 'postgis', postgisSchema: postgis.schema }
      : { applied, spatial: 'btree', postgisSchema: postgis.schema, spatialReason: postgis.reason ?? 'disabled by configuration' };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]);
  }
}

/** The schema of the postgis extension, creating it if the server offers it and we may. */
async function ensurePostgis(client: PoolClient): Promise<{ schema?: string; reason?: string }> {
  const installed = await postgisSchema(client);
  if (installed) return { schema: installed };
  const offered = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
  if (offered.rowCount === 0) return { reason: 'the postgis extension is not installed on the server' };
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
  } catch (err) {
    // Typically "permission denied": creating postgis needs a superuser unless an operator did it already.
    return { reason: `CREATE EXTENSION postgis failed: ${(err as Error).message}` };
  }
  const created = await postgisSchema(client);
  return created ? { schema: created } : { reason: 'postgis extension missing after CREATE EXTENSION' };
}

async function postgisSchema(client: PoolClient): Promise<string | undefined> {
  const r = await client.query<{ schema: string }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'postgis'",
  );
  return r.rows[0]?.schema;
}
