// jest globalSetup: asks the services tests may need whether they are usable, once per run, and leaves
// the answers in the environment the test workers inherit (see requires.ts). Bounded: a silent server
// costs at most a few seconds. Also starts the run's skip log, which summary-line-reporter.js prints.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

async function probePostgis(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
    return rows.length > 0 ? 'yes' : 'not installed on the server';
  } catch (err) {
    return `server unreachable: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function probeServices(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-jest-'));
  process.env.WAYMARK_TEST_SKIP_LOG = path.join(dir, 'skipped.txt');
  fs.writeFileSync(process.env.WAYMARK_TEST_SKIP_LOG, '');
  process.env.WAYMARK_TEST_OPENAPI_LOG = path.join(dir, 'openapi.jsonl');
  if (process.env.DATABASE_URL && process.env.WAYMARK_TEST_POSTGIS === undefined) {
    process.env.WAYMARK_TEST_POSTGIS = await probePostgis(process.env.DATABASE_URL);
  }
}
