// Import benchmark for a region (an extract tiled with ../shared/tools/tile-osm.py, or any extract): the
// whole `waymark data import` (every stage, four modes) in this process, printing per step its wall and
// CPU seconds and the peak RSS so far, per mode the time its worker took, its turns and shortcuts, and the
// size of the network files. The machine is shared: CPU seconds are the steadier figure, and the load
// average at the start and end is printed beside them.
//
// Run: npm run bench:build && node dist/bench/import-region.js /work/scratch/b8.osm.pbf [--memory-budget MiB] [--no-malloc-tunables]
// (without it, the CLI's default budget, a quarter of the machine's memory; `--memory-budget 0`: none)
// Keep what it writes off the repository: the data directory is a temporary folder, removed at the end
// unless KEEP=1 (then its path is printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runImport } from '../importers/osm/import-pipeline';
import { formatBytes, formatDuration, processPeakRss } from '../importers/osm/import-progress';
import { defaultMemoryBudgetBytes } from '../importers/osm/memory-budget';
import { IMPORT_STAGES } from '../importers/osm/stages';
import { stepLines } from '../server/cli/progress';
import { rerunWithMallocTunables, wantsMallocRerun } from '../server/cli/malloc-tunables';

interface Row {
  step: string;
  wall: number;
  cpu: number;
  /** CPU of the importing thread alone (the rest is decoding and graph workers, libuv's pool, the collector's threads). */
  mainCpu: number;
  peakRss: number;
  /** The step's own peak (StepTiming.peakRssBytes). */
  stepPeak: number;
  /** JS heap in use at the step's end (V8's limit is --max-old-space-size: a heap near it spends its time collecting). */
  heap: number;
}

const cpuSeconds = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

/** CPU seconds of this process's main thread (Linux: /proc/self/task/PID/stat, in clock ticks of 1/100 s); NaN elsewhere. */
const mainThreadCpuSeconds = (): number => {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
};

async function main(): Promise<void> {
  // As `waymark data import`: run again once with malloc's tunables (server/cli/malloc-tunables.ts);
  // --no-malloc-tunables measures without them.
  if (!process.argv.includes('--no-malloc-tunables') && wantsMallocRerun()) {
    process.exitCode = await rerunWithMallocTunables(process.argv[1], process.argv.slice(2));
    return;
  }
  const file = process.argv[2];
  if (!file || !fs.existsSync(file)) throw new Error('usage: node dist/bench/import-region.js FILE.osm.pbf [--memory-budget MiB]');
  const budgetAt = process.argv.indexOf('--memory-budget');
  // As the CLI: without --memory-budget, the default (memory-budget.ts); --memory-budget 0 runs without one.
  const givenMiB = budgetAt > 0 ? Number(process.argv[budgetAt + 1]) : undefined;
  const memoryBudgetBytes = givenMiB === undefined ? defaultMemoryBudgetBytes() : givenMiB > 0 ? givenMiB * 2 ** 20 : undefined;
  const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), 'waymark-import-bench-'));
  const name = path.basename(file).replace(/\..*$/, '').toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  const loadBefore = os.loadavg()[0];
  const rows: Row[] = [];
  let stepWall = 0;
  let stepCpu = cpuSeconds();
  let stepMainCpu = mainThreadCpuSeconds();
  const lines = stepLines();
  const started = process.hrtime.bigint();
  // READ_ONLY=1: every stage reads the extract but its finish does nothing, to time and profile the reading alone.
  const stages = IMPORT_STAGES.map((make) => make()).map((s) => (process.env.READ_ONLY === '1' ? Object.assign(s, { finish: async () => ({}) }) : s));
  const result = await runImport({
    file, name, dataDir, stages, memoryBudgetBytes,
    onProgress: (e) => {
      lines(e);
      if (!e.finished) return;
      const cpu = cpuSeconds();
      const mainCpu = mainThreadCpuSeconds();
      rows.push({ step: e.label, wall: e.elapsed - stepWall, cpu: cpu - stepCpu, mainCpu: mainCpu - stepMainCpu, peakRss: processPeakRss(), stepPeak: e.peakRssBytes ?? 0, heap: process.memoryUsage().heapUsed });
      stepWall = e.elapsed;
      stepCpu = cpu;
      stepMainCpu = mainCpu;
    },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const m = result.manifest;
  const routing = m.stages.routing ?? {};
  const files = fs.readdirSync(path.join(result.dir, 'routing')).map((f) => [f, fs.statSync(path.join(result.dir, 'routing', f)).size] as const);
  const out: string[] = [];
  out.push(`\n${file}: GLIBC_TUNABLES ${process.env.GLIBC_TUNABLES ?? 'unset'}; ${m.import?.nodes.toLocaleString('en-US')} nodes, ${m.import?.ways.toLocaleString('en-US')} ways; ${os.availableParallelism()} cores; load average ${loadBefore.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end${memoryBudgetBytes ? `; memory budget ${formatBytes(memoryBudgetBytes)}` : ''}`);
  out.push(`| step | wall | CPU s | main thread CPU s | peak RSS of the step | peak RSS so far | JS heap at its end (limit ${formatBytes(v8.getHeapStatistics().heap_size_limit)}) |`);
  out.push('|---|---|---|---|---|---|---|');
  for (const r of rows) out.push(`| ${r.step} | ${formatDuration(r.wall)} | ${r.cpu.toFixed(1)} | ${r.mainCpu.toFixed(1)} | ${formatBytes(r.stepPeak)} | ${formatBytes(r.peakRss)} | ${formatBytes(r.heap)} |`);
  out.push(`| **all** | **${formatDuration(wall)}** (${wall.toFixed(1)} s; process ${process.uptime().toFixed(1)} s) | **${cpuSeconds().toFixed(1)}** | **${mainThreadCpuSeconds().toFixed(1)}** | | **${formatBytes(result.peakMemoryBytes)}** | |`);
  out.push('');
  out.push(`| mode | worker wall s | turns | shortcuts | worker MiB measured / expected | file |`);
  out.push('|---|---|---|---|---|---|');
  for (const mode of ['car', 'truck', 'bike', 'foot']) {
    const size = files.find(([f]) => f === `${mode}.bin`)?.[1] ?? 0;
    out.push(`| ${mode} | ${routing[`${mode} seconds`] ?? '?'} | ${Number(routing[`${mode} turns`] ?? routing[`${mode} road arcs (node-based)`] ?? 0).toLocaleString('en-US')}${routing[`${mode} road arcs (node-based)`] !== undefined ? ' road arcs (node-based)' : ''} | ${Number(routing[`${mode} shortcuts`] ?? 0).toLocaleString('en-US')} | ${routing[`${mode} worker MiB`] ?? '?'} / ${routing[`${mode} expected MiB`] ?? '?'}${routing[`${mode} worker peak at`] ? ` (at ${routing[`${mode} worker peak at`]})` : ''} | ${formatBytes(size)} |`);
  }
  out.push(`network files: ${formatBytes(files.reduce((s, [, b]) => s + b, 0))} (network.bin ${formatBytes(files.find(([f]) => f === 'network.bin')?.[1] ?? 0)}); graph threads ${routing['graph threads']}`);
  out.push(`the importing thread at the start of the building: RSS ${routing['MiB held at building']} MiB, JS heap in use ${routing['heap MiB at building']} MiB, network ${routing['network MiB']} MiB, the modes' inputs ${routing['mode inputs MiB']} MiB`);
  console.log(out.join('\n'));
  if (process.env.KEEP === '1') console.log(`kept: ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
