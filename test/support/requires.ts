// Test groups that need something outside the clone — the shared fixtures beside it, PostgreSQL, PostGIS,
// Redis, a browser — run when it is there and are otherwise skipped with ONE line saying what is missing
// and how to provide it (printed together at the end of the run by summary-line-reporter.js). A fresh
// clone with nothing beside it therefore passes `npm test`.
//
//   import { requires, sharedFixture, envVar, postgis } from '../support/requires';
//   const withMmdb = requires('MaxMind test databases', sharedFixture('mmdb/GeoIP2-City-Test.mmdb'));
//   withMmdb('lookups', () => { beforeAll(() => { /* open files here, not in the describe body */ }); … });
//
// A skipped describe body still RUNS at collection time (jest collects the tests it skips): anything that
// reads a missing file or opens a connection belongs in beforeAll or in the tests, never in the body.
// `requiresTest` is the same for a single test (`test` or `test.skip`).
import fs from 'node:fs';
import path from 'node:path';

export interface Need {
  /** What is missing, or undefined when it is there. */
  missing?: string;
  /** How to provide it. */
  how: string;
}

/** The shared fixtures folder that sits beside the clone (../shared/fixtures). */
export const SHARED_FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');

/** Files or folders under ../shared/fixtures, given relative to it. */
export function sharedFixture(...relPaths: string[]): Need {
  const absent = relPaths.filter((p) => !fs.existsSync(path.join(SHARED_FIXTURES, p)));
  return {
    missing: absent.length ? `../shared/fixtures/${absent[0]}${absent.length > 1 ? ` (and ${absent.length - 1} more)` : ''}` : undefined,
    how: 'put the shared fixtures beside the clone as ../shared/fixtures',
  };
}

/** Files given by absolute path (for tests that already hold them), named relative to the repository. */
export function files(...absolutePaths: string[]): Need {
  const repo = path.resolve(__dirname, '../..');
  const absent = absolutePaths.filter((p) => !fs.existsSync(p));
  const shared = absent.length > 0 && path.relative(repo, absent[0]).startsWith('../shared/');
  return {
    missing: absent.length ? `${path.relative(repo, absent[0])}${absent.length > 1 ? ` (and ${absent.length - 1} more)` : ''}` : undefined,
    how: shared ? 'put the shared fixtures beside the clone as ../shared/fixtures' : 'restore the file',
  };
}

/** An environment variable, with an example value for the message. */
export function envVar(name: string, example: string): Need {
  return { missing: process.env[name] ? undefined : name, how: `set ${name}=${example}` };
}

/**
 * PostGIS in the database named by DATABASE_URL. Probed once per run by test/support/probe-services.ts
 * (jest's globalSetup), which leaves its answer in WAYMARK_TEST_POSTGIS.
 */
export function postgis(): Need {
  const env = envVar('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test');
  if (env.missing) return env;
  const probe = process.env.WAYMARK_TEST_POSTGIS;
  return {
    missing: probe === 'yes' ? undefined : `PostGIS (${probe ?? 'not probed: run through jest.config.js'})`,
    how: 'install PostGIS on that server (Debian: apt-get install postgresql-15-postgis-3)',
  };
}

/** An executable file, e.g. /usr/bin/chromium. */
export function executable(file: string, how: string): Need {
  let ok = false;
  try {
    fs.accessSync(file, fs.constants.X_OK);
    ok = true;
  } catch {
    ok = false;
  }
  return { missing: ok ? undefined : `${file}`, how };
}

const said = new Set<string>();

/** Records one line for a skipped group: into the run's skip log (the reporter prints it), else stderr. */
export function announceSkip(group: string, need: Need): void {
  const line = `skipped: ${group}: needs ${need.missing}; ${need.how}`;
  if (said.has(line)) return;
  said.add(line);
  const log = process.env.WAYMARK_TEST_SKIP_LOG;
  if (log) fs.appendFileSync(log, line + '\n');
  else process.stderr.write(line + '\n');
}

function firstMissing(needs: Need[]): Need | undefined {
  return needs.find((n) => n.missing !== undefined);
}

/** `describe` when every need is met, else `describe.skip` after one line naming the first missing one. */
export function requires(group: string, ...needs: Need[]): jest.Describe {
  const missing = firstMissing(needs);
  if (!missing) return describe;
  announceSkip(group, missing);
  return describe.skip;
}

/** `test` when every need is met, else `test.skip` after one line. */
export function requiresTest(group: string, ...needs: Need[]): jest.It {
  const missing = firstMissing(needs);
  if (!missing) return test;
  announceSkip(group, missing);
  return test.skip;
}
