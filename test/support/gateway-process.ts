// The gateway as a real child process (compiled with tsc into a temporary directory), for tests that need
// separate processes: crashes (SIGKILL) and several nodes on one database.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');

export interface GatewayProcess {
  child: ChildProcess;
  exited: Promise<void>;
  output: string[];
}

export interface GatewayBuild {
  /** The compiled CLI entry (`node MAIN serve`). */
  main: string;
  remove(): void;
}

/** Compiles the gateway once for a test file. */
export function buildGateway(): GatewayBuild {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-build-'));
  const main = path.join(dir, 'server/cli/main.js');
  const build = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', dir], { cwd: REPO, encoding: 'utf8' });
  // Type errors elsewhere in a shared tree still emit JavaScript; only a missing entry point stops the test.
  if (!fs.existsSync(main)) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  return { main, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function childEnv(port: number | undefined, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // The build lives outside the repository; its require() calls find the dependencies here.
    NODE_PATH: path.join(REPO, 'node_modules'),
    ...(port === undefined ? {} : { PORT: String(port), HOST: '127.0.0.1' }),
    WAYMARK_RATE_LIMIT_SCALE: '0',
    WAYMARK_LOG_REQUESTS: 'false',
    ...env,
  };
}

/** Starts `serve` and resolves once it listens. */
export async function startGateway(build: GatewayBuild, port: number, env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [build.main, 'serve'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(port, env) });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output.push(chunk.toString('utf8'));
      if (output.join('').includes('Waymark listening on')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}) before listening:\n${output.join('')}`)));
  });
  await listening;
  return { child, exited, output };
}

/** Runs one CLI command to completion (e.g. `project rotate-keys`). */
export function runCli(build: GatewayBuild, args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [build.main, ...args], { cwd: REPO, encoding: 'utf8', env: childEnv(undefined, env) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function killGateway(g: GatewayProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (g.child.exitCode !== null || g.child.signalCode !== null) return;
  g.child.kill(signal);
  await g.exited;
}

/** The test environment's keys printed by a first start. */
export function parseTestKeys(text: string): { pk: string; sk: string } {
  const pk = /prj_test_pk_[0-9a-f]+/.exec(text)?.[0];
  const sk = /prj_test_sk_[0-9a-f]+/.exec(text)?.[0];
  if (!pk || !sk) throw new Error(`no keys in the first start's output:\n${text}`);
  return { pk, sk };
}
