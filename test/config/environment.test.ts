// Configuration from the environment: every variable validated at start-up with its name and what it
// accepts, all problems reported at once, and the ENV table equal to docs/configuration.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, ENV, configFromEnv, unknownVariables } from '../../server/config';

const REPO = path.resolve(__dirname, '../..');

test('defaults: an empty environment is a valid configuration', () => {
  const c = configFromEnv({});
  expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', store: 'sqlite', rateLimiter: 'memory', logRequests: true, corsOrigins: [], sqlite: { synchronous: 'FULL', cacheMb: 64, mmapMb: 0 } });
  expect(c.webhooks.maxAttempts).toBe(12);
  expect(c.geofenceImport.sync.at).toEqual({ hour: 3, minute: 0 });
});

test('values are parsed as documented', () => {
  const c = configFromEnv({
    WAYMARK_LOG_REQUESTS: 'off', WAYMARK_SQLITE_SYNC: 'FULL', WAYMARK_SQLITE_CACHE_MB: '128', WAYMARK_CORS_ORIGINS: 'https://a.example, https://b.example',
    WAYMARK_BODY_LIMIT: '2kb', WAYMARK_TRUST_PROXY: 'loopback', WAYMARK_SYNC_S3_ENDPOINT: 'http://minio:9000', PORT: '0',
  });
  expect(c).toMatchObject({ logRequests: false, sqlite: { synchronous: 'FULL', cacheMb: 128 }, corsOrigins: ['https://a.example', 'https://b.example'], bodyLimit: '2048b', trustProxy: ['loopback'], port: 0 });
  expect(c.geofenceImport.sync.s3ForcePathStyle).toBe(true);
});

test.each([
  ['WAYMARK_SQLITE_CACHE_MB', 'abc', 'a whole number from 1 to 65536'],
  ['WAYMARK_SQLITE_SYNC', 'bogus', 'one of NORMAL, FULL'],
  ['WAYMARK_LOG_REQUESTS', 'nope', 'true or false (also 1/0, yes/no, on/off)'],
  ['PORT', '99999', 'a whole number from 0 to 65535'],
  ['PORT', '80.5', 'a whole number from 0 to 65535'],
  ['WAYMARK_STORE', 'mongo', 'one of sqlite, postgres'],
  ['DATABASE_URL', 'mysql://x', 'a URL starting postgres:// or postgresql://'],
  ['WAYMARK_WEBHOOK_MAX_ATTEMPTS', '0', 'a whole number of at least 1'],
  ['WAYMARK_BODY_LIMIT', 'huge', 'a size such as 1048576, 512kb, 50mb or 1gb'],
  ['WAYMARK_SYNC_TIME', '25:00', 'a UTC time of day such as 03:00'],
  ['WAYMARK_WEBHOOK_ALLOWED_NETWORKS', '10.0.0.0/99', 'comma-separated CIDR ranges or addresses such as 10.0.0.0/8, 192.168.1.7'],
  ['WAYMARK_JOB_INTERVAL_MS', '-1', 'a whole number of at least 0'],
])('%s=%s is refused, naming the variable and what it accepts', (name, value, accepts) => {
  expect(() => configFromEnv({ [name]: value })).toThrow(new ConfigError([`${name}=${JSON.stringify(value)} is not valid: ${name} must be ${accepts}`]));
});

test('every bad variable is reported in one go', () => {
  let caught: unknown;
  try {
    configFromEnv({ WAYMARK_SQLITE_CACHE_MB: 'abc', WAYMARK_SQLITE_SYNC: 'bogus', WAYMARK_LOG_REQUESTS: 'nope' });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  expect((caught as ConfigError).problems.map((p) => p.split('=')[0])).toEqual(['WAYMARK_LOG_REQUESTS', 'WAYMARK_SQLITE_SYNC', 'WAYMARK_SQLITE_CACHE_MB']);
});

test('a WAYMARK_ variable nothing reads is reported (a likely typo)', () => {
  expect(unknownVariables({ WAYMARK_STROE: 'postgres', WAYMARK_STORE: 'sqlite', HOME: '/root' })).toEqual(['WAYMARK_STROE']);
});

test('the gateway refuses to start on a bad variable: exit 1, the message, no stack, no data directory', async () => {
  const main = path.join(REPO, 'dist/server/cli/main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: npm install builds it (prepare script)`);
  const dataDir = path.join(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'waymark-cfg-')), 'data');
  const child = spawn(process.execPath, [main, 'serve'], { env: { PATH: process.env.PATH, WAYMARK_DATA_DIR: dataDir, WAYMARK_SQLITE_CACHE_MB: 'abc', PORT: '0' } });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(1);
  expect(stderr).toBe('waymark: Invalid configuration:\n  WAYMARK_SQLITE_CACHE_MB="abc" is not valid: WAYMARK_SQLITE_CACHE_MB must be a whole number from 1 to 65536\n');
  expect(fs.existsSync(dataDir)).toBe(false);
});

describe('docs/configuration.md lists exactly the ENV table', () => {
  const doc = fs.readFileSync(path.join(REPO, 'docs/configuration.md'), 'utf8');
  // Rows of the variables table: | `NAME` | default | meaning |
  const rows = new Map<string, string>();
  for (const m of doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)) rows.set(m[1], m[2].trim());

  test.each(Object.entries(ENV).map(([name, spec]) => [name, spec.default]))('%s has a row with its default', (name, fallback) => {
    expect(rows.has(name)).toBe(true);
    if (fallback !== undefined) expect(rows.get(name)).toBe(`\`${fallback}\``);
  });

  test('no row names a variable the gateway does not read', () => {
    expect([...rows.keys()].filter((name) => !(name in ENV))).toEqual([]);
  });
});
