// PostgreSQL test isolation: every test file works in its own throwaway schema, created by the store's
// migrations and dropped here, so files can run in parallel against one database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { envVar, postgis, requires } from '../support/requires';

export const DATABASE_URL = process.env.DATABASE_URL;

/** The test file's name, for skip lines of callers that name no group. */
function currentFile(): string {
  const file = expect.getState().testPath;
  return file ? file.slice(file.lastIndexOf('/test/') + 1) : 'PostgreSQL tests';
}

/** `describe` when DATABASE_URL is set, else `describe.skip` after one line saying why (requires.ts). */
export function describeWithPostgres(group = currentFile()): jest.Describe {
  return requires(group, envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'));
}

/** `describe` when DATABASE_URL's server has PostGIS, else `describe.skip` after one line. */
export function describeWithPostgis(group = currentFile()): jest.Describe {
  return requires(group, postgis());
}

export function freshSchemaName(): string {
  return `waymark_test_${randomBytes(5).toString('hex')}`;
}

/** Runs `fn` on a plain client (not through the store): for dropping schemas and inspecting the server. */
export async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropSchemas(names: string[]): Promise<void> {
  if (names.length === 0) return;
  await withClient(async (c) => {
    for (const name of names) await c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  });
}
