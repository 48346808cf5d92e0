// The `waymark` CLI, compiled as `npm run build` does and run as a child process over a temporary data
// directory: project create/list/keys/rotate-keys/settings, usage errors (exit 2), failures (exit 1), and
// `serve` on a fresh directory. Keys the CLI prints are checked against a real server.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { silentLogger } from '../../ports/logger';

const REPO = path.resolve(__dirname, '..', '..');
const BUILD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-cli-build-'));
const MAIN = path.join(BUILD_DIR, 'server', 'cli', 'main.js');
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STACK = /\bat .+\.(ts|js):\d+/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const dirs: string[] = [BUILD_DIR];

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-cli-data-'));
  dirs.push(dir);
  return dir;
}

function cliEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // A clean environment: nothing of the developer's WAYMARK_* settings leaks in. NODE_PATH lets the build,
  // which lives outside the repository, find the repository's packages.
  return { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), WAYMARK_DATA_DIR: dir, ...extra };
}

function waymark(dir: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env: cliEnv(dir, extraEnv), cwd: os.tmpdir(), timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed with --json and returns its parsed output. */
// The CLI's JSON is a document whose shape each test asserts, as the HTTP harness does with bodies.
async function json(dir: string, args: string[]): Promise<any> {
  const run = await waymark(dir, [...args, '--json']);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** A gateway over the directory, without the test harness (which would re-issue keys). */
async function serverOn(dir: string): Promise<RunningServer> {
  return startServer({ ...configFromEnv({}), port: 0, host: '127.0.0.1', dataDir: dir, logRequests: false, rateLimitScale: 0 }, silentLogger());
}

async function status(server: RunningServer, key: string): Promise<number> {
  return (await fetch(`${server.url}/v1/beacons`, { headers: { authorization: key } })).status;
}

beforeAll(async () => {
  // Other parts of the tree may be mid-edit and fail the type check; tsc still emits, so the exit status is
  // not the test: the entry point must exist.
  await new Promise<void>((resolve) => {
    execFile(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR], { cwd: REPO }, () => resolve());
  });
  expect(fs.existsSync(MAIN)).toBe(true);
}, 180_000);

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('project create, list, keys', () => {
  const dir = dataDir();
  let created: { id: string; name: string; keys: Record<string, string> };

  beforeAll(async () => {
    created = await json(dir, ['project', 'create', '--name', 'Acme Corp']);
  });

  test('create --json prints the id, the name and the four keys', () => {
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Acme Corp',
      keys: {
        'test publishable': expect.stringMatching(/^prj_test_pk_[0-9a-f]{40}$/),
        'live publishable': expect.stringMatching(/^prj_live_pk_[0-9a-f]{40}$/),
        'test secret': expect.stringMatching(/^prj_test_sk_[0-9a-f]{40}$/),
        'live secret': expect.stringMatching(/^prj_live_sk_[0-9a-f]{40}$/),
      },
    });
  });

  test('list --json', async () => {
    expect(await json(dir, ['project', 'list'])).toEqual([{ id: created.id, name: 'Acme Corp', createdAt: expect.stringMatching(ISO_MS) }]);
  });

  test.each([
    ['no --project (the only one)', [] as string[]],
    ['--project by name', ['--project', 'Acme Corp']],
    ['--project=id', [`--project=${'ID'}`]],
  ])('keys --json, %s: publishable keys in full, secret keys never', async (_name, extra) => {
    const args = extra.map((a) => a.replace('ID', created.id));
    const run = await waymark(dir, ['project', 'keys', ...args, '--json']);
    expect(run.code).toBe(0);
    const keys = JSON.parse(run.stdout) as Array<{ live: boolean; kind: string; key: string | null; prefix: string }>;
    const byLabel = Object.fromEntries(keys.map((k) => [`${k.live ? 'live' : 'test'} ${k.kind}`, k]));
    expect(Object.keys(byLabel).sort()).toEqual(['live publishable', 'live secret', 'test publishable', 'test secret']);
    expect(byLabel['test publishable'].key).toBe(created.keys['test publishable']);
    expect(byLabel['live publishable'].key).toBe(created.keys['live publishable']);
    for (const label of ['test secret', 'live secret']) {
      expect(byLabel[label].key).toBeNull();
      expect(created.keys[label].startsWith(byLabel[label].prefix.replace('…', ''))).toBe(true);
      expect(run.stdout).not.toContain(created.keys[label]);
    }
  });

  test('keys, for people: secret keys shown as a prefix only', async () => {
    const run = await waymark(dir, ['project', 'keys']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(created.keys['test publishable']);
    expect(run.stdout).not.toContain(created.keys['test secret']);
    expect(run.stdout).not.toContain(created.keys['live secret']);
  });

  test('create, for people: the keys once, with the warning to keep them', async () => {
    const other = dataDir();
    const run = await waymark(other, ['project', 'create', '--name=Plain']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created project "Plain" \([0-9a-f]{24}\) with keys:\n/);
    expect(run.stdout).toMatch(/test secret\s+prj_test_sk_[0-9a-f]{40}\n/);
    expect(run.stdout).toContain('Secret keys are stored hashed and cannot be shown again: keep them now.');
  });
});

describe('keys against a server', () => {
  test('the keys create prints work; after rotate-keys of each environment only the new ones do', async () => {
    const dir = dataDir();
    const created = await json(dir, ['project', 'create', '--name', 'Served']);
    let server = await serverOn(dir);
    try {
      expect([await status(server, created.keys['test secret']), await status(server, created.keys['live secret']), await status(server, created.keys['test publishable'])]).toEqual([200, 200, 403]);
    } finally {
      await server.close();
    }

    // One environment at a time, as the API and the dashboard rotate: test by default, then live.
    const rotatedTest = await json(dir, ['project', 'rotate-keys', '--yes']);
    expect(rotatedTest.id).toBe(created.id);
    expect(Object.keys(rotatedTest.keys).sort()).toEqual(['test publishable', 'test secret']);
    const rotatedLive = await json(dir, ['project', 'rotate-keys', '--env', 'live', '--yes']);
    expect(Object.keys(rotatedLive.keys).sort()).toEqual(['live publishable', 'live secret']);
    const rotated = { keys: { ...rotatedTest.keys, ...rotatedLive.keys } as Record<string, string> };
    for (const label of Object.keys(created.keys)) expect(rotated.keys[label]).not.toBe(created.keys[label]);

    server = await serverOn(dir);
    try {
      const rows = Object.keys(created.keys).flatMap((label) => [
        [`old ${label}`, created.keys[label], 401],
        [`new ${label}`, rotated.keys[label], label.endsWith('secret') ? 200 : 403],
      ] as Array<[string, string, number]>);
      const got = [];
      for (const [name, key] of rows) got.push([name, await status(server, key)]);
      expect(got).toEqual(rows.map(([name, , st]) => [name, st]));
    } finally {
      await server.close();
    }
  });
});

describe('project settings', () => {
  const dir = dataDir();
  let testSecret: string;
  beforeAll(async () => {
    testSecret = (await json(dir, ['project', 'create', '--name', 'Settings'])).keys['test secret'];
  });

  test('--set changes settings; they persist and the server sees them', async () => {
    const set = await json(dir, ['project', 'settings', '--set', 'stopDetection=true', '--set', 'tripExpirationHours=48']);
    expect(set).toMatchObject({ stopDetection: true, tripExpirationHours: 48, fraud: false });
    expect(await json(dir, ['project', 'settings'])).toEqual(set);
    const server = await serverOn(dir);
    try {
      const reply = await fetch(`${server.url}/v1/project/settings`, { headers: { authorization: testSecret } });
      expect(((await reply.json()) as { settings: unknown }).settings).toEqual(set);
    } finally {
      await server.close();
    }
  });

  const refused: Array<[string, string[], number, string | RegExp]> = [
    ['a value of the wrong type', ['--set', 'stopDetection=maybe'], 1, 'waymark: stopDetection must be a boolean (true or false)\n'],
    ['an unknown setting', ['--set', 'stopDetecton=true'], 1, /^waymark: stopDetecton is not a project setting/],
    ['a number out of range', ['--set', 'tripApproachingThreshold=5000'], 1, 'waymark: tripApproachingThreshold must be between 0 and 1440\n'],
    ['--set without =', ['--set', 'stopDetection'], 2, 'waymark: --set takes name=value, got "stopDetection"\n'],
    ['--set with an empty name', ['--set', '=true'], 2, 'waymark: --set takes name=value, got "=true"\n'],
  ];
  test.each(refused.map(([name, args, code, message]) => ({ name, args, code, message })))('$name: exit $code, plain message, nothing changed', async ({ args, code, message }) => {
    const before = await json(dir, ['project', 'settings']);
    const run = await waymark(dir, ['project', 'settings', ...args]);
    expect(run.code).toBe(code);
    if (typeof message === 'string') expect(run.stderr).toBe(message);
    else expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(STACK);
    expect(await json(dir, ['project', 'settings'])).toEqual(before);
  });
});

describe('usage errors and failures', () => {
  test('an unknown command: exit 2, a plain message, no data directory made', async () => {
    const dir = path.join(dataDir(), 'not-yet');
    const run = await waymark(dir, ['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^waymark: unknown command "frobnicate"\nUsage:\n/);
    expect(run.stderr).not.toMatch(STACK);
    expect(fs.existsSync(dir)).toBe(false);
  });

  const empty = dataDir();
  const two = dataDir();
  beforeAll(async () => {
    await json(two, ['project', 'create', '--name', 'one']);
    await json(two, ['project', 'create', '--name', 'two']);
  });

  const rows: Array<[string, () => string, string[], number, RegExp]> = [
    ['no command at all', () => empty, [], 2, /^waymark: a command is needed\nUsage:\n/],
    ['help', () => empty, ['help'], 0, /^Usage:\nwaymark serve/],
    ['--help', () => empty, ['--help'], 0, /^Usage:\nwaymark serve/],
    ['help of one command', () => empty, ['help', 'data'], 0, /^Usage:\nwaymark data import[^]*waymark data remove NAME \[--json\][^]*\)\n$/],
    ['a command\'s --help', () => empty, ['project', '--help'], 0, /^Usage:\nwaymark project create --name NAME/],
    ['a subcommand\'s --help', () => empty, ['project', 'keys', '--help'], 0, /^Usage:\nwaymark project keys \[--project ID\|NAME\] \[--json\]\n$/],
    ['project without a subcommand', () => empty, ['project'], 2, /^waymark: project needs a subcommand\nwaymark project create --name NAME/],
    ['an unknown subcommand', () => empty, ['project', 'explode'], 2, /^waymark: Unknown project subcommand "explode"\nwaymark project create --name NAME/],
    ['an option the subcommand does not take', () => empty, ['project', 'list', '--bogus'], 2, /^waymark: unknown option --bogus for "project list"\nUsage:\nwaymark project list \[--json\]\n$/],
    ['serve with an unknown option', () => empty, ['serve', '--port', '80'], 2, /^waymark: unknown option --port for "serve"/],
    ['create without --name', () => empty, ['project', 'create'], 2, /^waymark: project create needs --name NAME\n$/],
    ['create with --name and no value', () => empty, ['project', 'create', '--name', '--json'], 2, /^waymark: project create needs --name NAME\n$/],
    ['keys with no project yet (a failure)', () => empty, ['project', 'keys'], 1, /^waymark: no project exists yet: run waymark project create --name NAME\n$/],
    ['keys with several projects, none "default", no --project', () => two, ['project', 'keys'], 2, /^waymark: several projects exist and none is named "default": choose one with --project ID\|NAME \(one, two\)\n$/],
    ['rotate-keys of a project that does not exist (not found)', () => two, ['project', 'rotate-keys', '--project', 'three', '--yes'], 1, /^waymark: no project "three"/],
    ['rotate-keys without a terminal and without --yes', () => two, ['project', 'rotate-keys', '--project', 'one'], 2, /^waymark: rotate-keys replaces the test publishable and secret keys of "one" and asks first: run it at a terminal, or add --yes\n$/],
    ['a store that does not exist', () => empty, ['project', 'list'], 1, /^waymark: Invalid configuration:\n  WAYMARK_STORE="mongo" is not valid: WAYMARK_STORE must be one of sqlite, postgres\n$/],
  ];
  test.each(rows.map(([name, dir, args, code, output]) => ({ name, dir, args, code, output })))('$name → exit $code', async ({ name, dir, args, code, output }) => {
    const run = await waymark(dir(), args, name.startsWith('a store') ? { WAYMARK_STORE: 'mongo' } : {});
    expect(run.code).toBe(code);
    // Help on stdout; every message on stderr.
    expect(code === 0 ? run.stdout : run.stderr).toMatch(output);
    expect(code === 0 ? run.stderr : run.stdout).toBe('');
    expect(run.stdout + run.stderr).not.toMatch(STACK);
  });

  test('with several projects, commands without --project work on the one named "default"', async () => {
    const dir = dataDir();
    await json(dir, ['project', 'create', '--name', 'shop']);
    const def = await json(dir, ['project', 'create', '--name', 'default']);
    const keys = await json(dir, ['project', 'keys']);
    expect(keys.find((k: { kind: string; live: boolean }) => k.kind === 'publishable' && !k.live).key).toBe(def.keys['test publishable']);
  });

  test('a project name cannot be created twice (whatever its case): exit 1, nothing created', async () => {
    const dir = dataDir();
    const a = await json(dir, ['project', 'create', '--name', 'Twin']);
    const again = await waymark(dir, ['project', 'create', '--name', ' twin ']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`waymark: a project named "Twin" already exists (${a.id})\n`);
    expect((await json(dir, ['project', 'list'])).map((p: { id: string }) => p.id)).toEqual([a.id]);
  });

  test('list on an empty directory', async () => {
    expect(await json(empty, ['project', 'list'])).toEqual([]);
    const run = await waymark(empty, ['project', 'list']);
    expect([run.code, run.stdout]).toEqual([0, 'No projects.\n']);
  });
});

describe('serve', () => {
  test('on a fresh directory: makes a default project, prints its keys, serves them, stops on SIGTERM', async () => {
    const dir = dataDir();
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      env: cliEnv(dir, { PORT: '0', HOST: '127.0.0.1', WAYMARK_LOG_REQUESTS: 'false' }),
      cwd: os.tmpdir(),
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (/Waymark listening on /.test(stdout)) resolve();
        });
        child.on('exit', () => reject(new Error(`serve exited early: ${stdout}${stderr}`)));
      });
      expect(stdout).toMatch(/^First start: created project "default" \([0-9a-f]{24}\) with keys:\n/);
      const url = /Waymark listening on (http:\/\/\S+) \(data: (.+), store: sqlite\)/.exec(stdout);
      const sk = /test secret\s+(prj_test_sk_[0-9a-f]{40})/.exec(stdout);
      expect(url?.[2]).toBe(dir);
      const reply = await fetch(`${url?.[1]}/v1/beacons`, { headers: { authorization: sk?.[1] ?? '' } });
      expect([reply.status, await reply.json()]).toEqual([200, { meta: { code: 200, hasMore: false }, beacons: [] }]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('Shutting down');
    expect(stdout).toMatch(/\n  dashboard: http:\/\/127\.0\.0\.1:\d+\/dashboard\/\n  API docs:  http:\/\/127\.0\.0\.1:\d+\/docs\n/);
  });

  test('on a port another process holds: exit 1 with a plain message, nothing left running', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const dir = dataDir();
      const run = await new Promise<Run>((resolve) => {
        execFile(process.execPath, [MAIN, 'serve'], { env: cliEnv(dir, { PORT: String(port), HOST: '127.0.0.1' }), cwd: os.tmpdir(), timeout: 60_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
        });
      });
      // A hang would end in the timeout's kill (code null), not in exit 1.
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`waymark: port ${port} on 127.0.0.1 is already in use by another process: stop it, or choose another port with PORT=\n`);
      expect(run.stdout).not.toMatch(/listening/);
    } finally {
      holder.close();
    }
  });
});
