// Runs the compiled gateway as a child process for HTTP benchmarks, so the load generator and the
// server don't share one event loop. Used by every bench/*.ts that speaks HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface GatewayProcess {
  url: string;
  pid: number;
  /** Keys printed on first start, by label ("test publishable", …). */
  keys: Record<string, string>;
  /** Peak resident set size so far, MiB (VmHWM). */
  peakRssMiB(): number;
  /** Resident set size now, MiB (VmRSS). */
  rssMiB(): number;
  /**
   * CPU milliseconds the gateway has used so far (user + system). Per request, the difference over a
   * run: on a loaded machine wall-clock latency mostly measures the wait for a core, this does not.
   */
  cpuMs(): number;
  /** The same for the main thread (the event loop) alone; the rest is the SQLite writer and Node's own threads. */
  mainCpuMs(): number;
  /** CPU milliseconds so far of each of its threads, by thread id (the main thread's id is `pid`). */
  threadCpuMs(): Map<number, number>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The compiled CLI next to this file: bench files are compiled together with the gateway.
 * BENCH_GATEWAY_MAIN runs another build instead (the same bench against an older commit: before/after).
 */
function cliEntry(): string {
  return process.env.BENCH_GATEWAY_MAIN ?? path.resolve(__dirname, '..', '..', 'server', 'cli', 'main.js');
}

function statusKiB(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** Linux's USER_HZ, 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU milliseconds a process (or one of its threads) has used so far, user + system. */
export function processCpuMs(pid: number, thread?: number): number {
  return cpuTicks(pid, thread) * (1000 / CLOCK_TICKS_PER_SECOND);
}

function cpuTicks(pid: number, thread?: number): number {
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14th and 15th.
  const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** entry: the compiled CLI to run (bench/replay runs two builds in one process); default as cliEntry() says. */
export async function startGatewayProcess(dataDir: string, env: Record<string, string> = {}, entry: string = cliEntry()): Promise<GatewayProcess> {
  const port = await freePort();
  // BENCH_NODE_ARGS passes flags to the gateway's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, entry, 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WAYMARK_DATA_DIR: dataDir, WAYMARK_RATE_LIMIT_SCALE: '0', WAYMARK_LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const keys: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const m of out.matchAll(/^\s+(test|live) (publishable|secret)\s+(prj_\S+)/gm)) keys[`${m[1]} ${m[2]}`] = m[3];
      if (out.includes('Waymark listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    keys,
    peakRssMiB: () => statusKiB(child.pid!, 'VmHWM') / 1024,
    rssMiB: () => statusKiB(child.pid!, 'VmRSS') / 1024,
    cpuMs: () => cpuTicks(child.pid!) * (1000 / CLOCK_TICKS_PER_SECOND),
    mainCpuMs: () => cpuTicks(child.pid!, child.pid!) * (1000 / CLOCK_TICKS_PER_SECOND),
    threadCpuMs: () => {
      const out = new Map<number, number>();
      for (const task of fs.readdirSync(`/proc/${child.pid!}/task`)) {
        // A thread may end between the listing and the read.
        try {
          out.set(Number(task), cpuTicks(child.pid!, Number(task)) * (1000 / CLOCK_TICKS_PER_SECOND));
        } catch {
          continue;
        }
      }
      return out;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
