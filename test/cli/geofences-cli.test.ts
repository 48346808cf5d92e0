// `waymark geofences import` and `waymark geofences sync`, compiled as `npm run build` does and run as a
// child process over a temporary data directory. What the CLI wrote is then read through a real
// gateway on the same directory: stored geofences, kept ids on re-import, and entry events on track.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { silentLogger } from '../../ports/logger';

const REPO = path.resolve(__dirname, '..', '..');
const BUILD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-geo-cli-build-'));
const MAIN = path.join(BUILD_DIR, 'server', 'cli', 'main.js');
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-geo-cli-'));
const DATA = path.join(WORK, 'data');

const HEADER = 'description,type,tag,externalId,coordinates,radius';
const CAFE = { lat: 40.7831, lng: -73.9712 };
const GOOD = [HEADER, `Café,circle,store,cafe,"[${CAFE.lng},${CAFE.lat}]",100`, 'Depot,circle,depot,d1,"[1,1]",50'].join('\n') + '\n';
const BAD = [HEADER, 'Ok,circle,store,ok,"[2,2]",100', 'Tiny,circle,store,tiny,"[3,3]",5', 'Nowhere,circle,store,nowhere,,100', 'Wrong,hexagon,store,w,"[4,4]",100'].join('\n') + '\n';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function write(name: string, text: string): string {
  const file = path.join(WORK, name);
  fs.writeFileSync(file, text);
  return file;
}

function waymark(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  // A clean environment: nothing of the developer's WAYMARK_* settings leaks in. NODE_PATH lets the build,
  // which lives outside the repository, find the repository's packages.
  const env = { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: DATA, ...extraEnv };
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env, cwd: WORK, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

/** A gateway over the CLI's data directory, for reading back what the CLI wrote. */
async function withServer<T>(fn: (server: RunningServer, keys: { sk: string; pk: string; liveSk: string }) => Promise<T>): Promise<T> {
  const server = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', dataDir: DATA, logRequests: false, rateLimitScale: 0, jobIntervalMs: 0 }, silentLogger());
  try {
    const [project] = await server.gateway.adapters.store.projects.list();
    const [pk, , sk, liveSk] = (await server.gateway.shared.projects.rotateKeys(project._id)).map((k) => k.key);
    return await fn(server, { sk, pk, liveSk });
  } finally {
    await server.close();
  }
}

// JSON documents whose shape each test asserts, as the HTTP harness does with bodies.
async function get(server: RunningServer, key: string, urlPath: string): Promise<any> {
  const res = await fetch(server.url + urlPath, { headers: { authorization: key } });
  return res.json();
}

beforeAll(async () => {
  // Other parts of the tree may be mid-edit and fail the type check; tsc still emits, so the exit status is
  // not the test: the entry point must exist.
  await new Promise<void>((resolve) => {
    execFile(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR], { cwd: REPO }, () => resolve());
  });
  expect(fs.existsSync(MAIN)).toBe(true);
  const created = await waymark(['project', 'create', '--name', 'geo', '--json']);
  expect(created.code).toBe(0);
}, 240_000);

afterAll(() => {
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  fs.rmSync(WORK, { recursive: true, force: true });
});

describe('geofences import', () => {
  let firstIds: Record<string, string>;

  test('a valid file: progress on stderr, a summary on stdout, exit 0', async () => {
    const run = await waymark(['geofences', 'import', write('good.csv', GOOD), '--project', 'geo', '--env', 'test']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 2 geofences into "geo" \(test\): 2 created, 0 updated, from 2 rows in \d+\.\d\d s \(\d+ rows\/s\)\.\n/);
    expect(run.stderr).toContain('Checking rows: 100% (2/2)');
    expect(run.stderr).toContain('Writing: 2 geofences in one transaction (all or nothing)…\n');
    expect(run.stderr).toMatch(/Writing: 2 geofences written in \d+\.\d s \(\d+\/s\)\n/);
    firstIds = await withServer(async (server, { sk }) => {
      const { geofences } = await get(server, sk, '/v1/geofences');
      expect(geofences.map((g: { externalId: string }) => g.externalId).sort()).toEqual(['cafe', 'd1']);
      return Object.fromEntries(geofences.map((g: { externalId: string; _id: string }) => [g.externalId, g._id]));
    });
  });

  test('--json: one document with the report', async () => {
    const run = await waymark(['geofences', 'import', write('good2.csv', GOOD.replace('Depot', 'Depot 2')), '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ project: { name: 'geo' }, environment: 'test', ok: true, dataRows: 2, imported: 2, created: 0, updated: 2, errors: [], errorCount: 0 });
    expect(typeof report.seconds).toBe('number');
  });

  test('re-import keeps each geofence\'s _id, and a gateway started afterwards fires entry events', async () => {
    await withServer(async (server, { sk, pk }) => {
      const { geofences } = await get(server, sk, '/v1/geofences');
      expect(Object.fromEntries(geofences.map((g: { externalId: string; _id: string }) => [g.externalId, g._id]))).toEqual(firstIds);
      expect(geofences.find((g: { externalId: string }) => g.externalId === 'd1').description).toBe('Depot 2');
      const res = await fetch(`${server.url}/v1/track`, {
        method: 'POST', headers: { authorization: pk, 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId: 'cli-dev', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true }),
      });
      const body = await res.json() as { events: Array<{ type: string; geofence: { _id: string } }> };
      expect(body.events.map((e) => [e.type, e.geofence._id])).toEqual([['user.entered_geofence', firstIds.cafe]]);
    });
  });

  test('a file with problems: every problem printed (row, column, message), exit 1, nothing written', async () => {
    const run = await waymark(['geofences', 'import', write('bad.csv', BAD), '--project', 'geo']);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      'row 3, radius: radius must be between 10 and 10000',
      'row 4, coordinates: coordinates is required ([longitude,latitude] of the centre)',
      'row 5, type: type must be one of circle, polygon, isochrone',
      'Nothing was imported: 3 problems in 4 rows of ' + path.join(WORK, 'bad.csv') + '.',
    ]);
    const json = await waymark(['geofences', 'import', path.join(WORK, 'bad.csv'), '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, imported: 0, errorCount: 3, errors: [{ row: 3, column: 'radius' }, { row: 4, column: 'coordinates' }, { row: 5, column: 'type' }] });
    await withServer(async (server, { sk }) => {
      const { geofences } = await get(server, sk, '/v1/geofences?tag=store');
      expect(geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['cafe']);
    });
  });

  test('--env live writes to live only; standard input with -', async () => {
    const run = await new Promise<Run>((resolve) => {
      const child = execFile(
        process.execPath, [MAIN, 'geofences', 'import', '-', '--env', 'live', '--json'],
        { env: { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: DATA }, cwd: WORK, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
      );
      child.stdin?.end([HEADER, 'Live,circle,live,l1,"[5,5]",100'].join('\n'));
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ environment: 'live', created: 1 });
    await withServer(async (server, { sk, liveSk }) => {
      expect((await get(server, liveSk, '/v1/geofences')).geofences.map((g: { externalId: string }) => g.externalId)).toEqual(['l1']);
      expect((await get(server, sk, '/v1/geofences?tag=live')).geofences).toEqual([]);
    });
  });

  test.each([
    ['no FILE → exit 2', ['geofences', 'import'], 2, /needs a FILE/],
    ['a bad --env → exit 2', ['geofences', 'import', 'x.csv', '--env', 'prod'], 2, /--env must be test or live/],
    ['an unknown project → exit 1 (not found)', ['geofences', 'import', 'x.csv', '--project', 'nope'], 1, /^waymark: no project "nope"/],
    ['a missing file → exit 1', ['geofences', 'import', 'missing.csv'], 1, /cannot read missing\.csv: no such file/],
    ['an unknown subcommand → exit 2', ['geofences', 'export'], 2, /waymark geofences import FILE/],
  ])('%s', async (_name, args, code, message) => {
    const run = await waymark(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });
});

describe('geofences import --url (through a running gateway)', () => {
  let gateway: RunningServer;
  let sk = '';
  let pk = '';
  const gatewayDir = path.join(WORK, 'remote-gateway');

  beforeAll(async () => {
    gateway = await startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', dataDir: gatewayDir, logRequests: false, rateLimitScale: 0, jobIntervalMs: 0 }, silentLogger());
    const created = await gateway.gateway.shared.projects.create('remote');
    pk = created.keys.find((k) => !k.record.live && k.record.kind === 'publishable')?.key ?? '';
    sk = created.keys.find((k) => !k.record.live && k.record.kind === 'secret')?.key ?? '';
  });
  afterAll(async () => {
    await gateway.close();
  });

  test('the running gateway imports the file and its next track sees the geofences', async () => {
    const run = await waymark(['geofences', 'import', path.join(WORK, 'good.csv'), '--url', gateway.url, '--key', sk]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Imported 2 geofences into the test environment at ${gateway.url.replace(/[.]/g, '\\.')}: 2 created, 0 updated`));
    const res = await fetch(`${gateway.url}/v1/track`, {
      method: 'POST', headers: { authorization: pk, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'remote-dev', latitude: CAFE.lat, longitude: CAFE.lng, accuracy: 5, foreground: true }),
    });
    const body = await res.json() as { events: Array<{ type: string; geofence: { externalId: string } }> };
    expect(body.events.map((e) => [e.type, e.geofence.externalId])).toEqual([['user.entered_geofence', 'cafe']]);
  });

  test('a file with problems: every problem printed, exit 1', async () => {
    const run = await waymark(['geofences', 'import', path.join(WORK, 'bad.csv'), '--url', gateway.url, '--json'], { WAYMARK_API_KEY: sk });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ environment: 'test', ok: false, errorCount: 3 });
  });

  test.each([
    ['a publishable key → exit 1 with the gateway\'s answer', () => ['--key', pk], 1, /answered 403: Forbidden/],
    ['no key → exit 2', () => [], 2, /--url needs a secret key/],
    ['--env with --url → exit 2', () => ['--key', sk, '--env', 'live'], 2, /the key decides project and environment/],
  ])('%s', async (_name, extra, code, message) => {
    const run = await waymark(['geofences', 'import', path.join(WORK, 'good.csv'), '--url', gateway.url, ...extra()]);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });
});

describe('geofences sync', () => {
  let files: http.Server;
  let base: string;
  const allow = { WAYMARK_SYNC_ALLOW_PRIVATE: 'true' };

  beforeAll(async () => {
    files = http.createServer((req, res) => {
      if (req.url === '/geo.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end([HEADER, 'Synced,circle,synced,s1,"[6,6]",100'].join('\n'));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    files.closeAllConnections();
    await new Promise<void>((resolve) => files.close(() => resolve()));
  });

  test('set saves and runs once; show hides the secret; run with a failing URL exits 1', async () => {
    const set = await waymark(['geofences', 'sync', 'set', '--enabled', '--email', 'ops@example.com', '--protocol', 'http', '--test-url', `${base}/geo.csv`], allow);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Saved the sync settings of "geo"; running once now…');
    expect(set.stdout).toMatch(/\(saved\) succeeded at /);
    expect(set.stdout).toContain(`  test: ${base}/geo.csv: 1 created, 0 updated from 1 rows`);
    expect(set.stdout).toContain('  no mail sent: mail is not configured on this gateway (WAYMARK_SMTP_HOST is unset)');

    const show = await waymark(['geofences', 'sync', 'show', '--json'], allow);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ enabled: true, protocol: 'http', testUrl: `${base}/geo.csv`, secretAccessKeySet: false, lastRun: { status: 'succeeded' } });

    const moved = await waymark(['geofences', 'sync', 'set', '--test-url', `${base}/gone.csv`], allow);
    expect(moved.code).toBe(1);
    expect(moved.stdout).toContain(`FAILED at download: ${base}/gone.csv answered HTTP 404`);

    const runs = await waymark(['geofences', 'sync', 'runs', '--json'], allow);
    expect(JSON.parse(runs.stdout).runs.map((r: { status: string }) => r.status)).toEqual(['failed', 'succeeded']);
  });

  test('sync delete with nothing to delete fails (exit 1) and says so', async () => {
    // A data directory of its own: a second project in the shared one would make --project necessary below.
    const own = { WAYMARK_DATA_DIR: fs.mkdtempSync(path.join(WORK, 'nosync-')) };
    expect((await waymark(['project', 'create', '--name', 'nosync'], own)).code).toBe(0);
    const run = await waymark(['geofences', 'sync', 'delete', '--project', 'nosync'], own);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('waymark: project "nosync" has no sync settings: nothing deleted\n');
  });

  test('without WAYMARK_SYNC_ALLOW_PRIVATE a loopback URL is refused: exit 2 with the reason', async () => {
    const run = await waymark(['geofences', 'sync', 'set', '--test-url', 'http://127.0.0.1:9/geo.csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--test-url is refused: 127.0.0.1 is a loopback address; operators may allow it with WAYMARK_SYNC_ALLOW_PRIVATE=true');
  });
});
