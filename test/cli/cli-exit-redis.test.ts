// The CLI's store commands open everything a gateway opens (createGateway: store, rate limiter, router,
// features) and must close all of it, or the process stays up after printing its answer. With Redis as
// the rate limiter an open client kept `waymark project list` alive (issue 34): here the compiled CLI
// runs as a child process and must end by itself with exit code 0.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGateway, REPO, type GatewayBuild } from '../support/gateway-process';
import { envVar, requires } from '../support/requires';

const d = requires('CLI exit with Redis configured', envVar('REDIS_URL', 'redis://127.0.0.1:6379'));

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; a process still alive after `patienceMs` is killed and reported as such. */
function run(main: string, args: string[], env: Record<string, string>, patienceMs: number): Promise<Ended & { killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], { cwd: REPO, env: { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_PATH: path.join(REPO, 'node_modules'), ...env } });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const guard = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, patienceMs);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

d('waymark with WAYMARK_RATE_LIMITER=redis', () => {
  let build: GatewayBuild;
  let dataDir: string;
  beforeAll(() => {
    build = buildGateway();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-cli-exit-'));
  }, 180_000);
  afterAll(() => {
    build?.remove();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test.each([
    ['project create', ['project', 'create', '--name', 'default', '--json']],
    ['project list', ['project', 'list', '--json']],
    ['webhooks list', ['webhooks', 'list']],
    ['geofences sync show', ['geofences', 'sync', 'show', '--json']],
  ])('%s prints its answer and exits', async (_name, args) => {
    const env = { WAYMARK_DATA_DIR: dataDir, WAYMARK_RATE_LIMITER: 'redis', REDIS_URL: process.env.REDIS_URL! };
    // Not a timing assertion: a generous bound on a process that otherwise never ends (the bug).
    const ended = await run(build.main, args, env, 25_000);
    expect({ killed: ended.killed, code: ended.code, stderr: ended.stderr }).toEqual({ killed: false, code: 0, stderr: '' });
  }, 40_000);
});
