// Replays one script of a few hundred API requests against two builds of the gateway and compares the
// answers pair by pair: the proof that a refactoring (issue 34's re-layering) changed no answer. Each
// build is the compiled dist of a worktree, started as `serve` on a fresh SQLite data directory with
// the same OSM extract imported by that build's own importer. Ids, keys, tokens and the server's clock
// are normalised (normalise.ts); everything else must be equal.
//
// Run (after `npm run bench:build` here and `npx tsc -p tsconfig.build.json` in each worktree):
//   node dist/bench/replay/replay.js --before DIR --after DIR --extract FILE.osm.pbf [--save DIR] [--keep]
// --before/--after take a worktree or a recording saved earlier with --save (a .json file). The same
// worktree on both sides checks the harness itself: two runs of one build must be identical.
// Exit status: 0 when every pair is identical, 1 when some differ, 2 on a usage error or a failed run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startGatewayProcess } from '../http/gateway-process';
import { comparePairs } from './compare';
import { cliOf, importExtract } from './gateway-build';
import { normaliseRecording } from './normalise';
import { Recorder, type Recording } from './recorder';
import { runScript, type ProjectKeys } from './script';

const USAGE = 'usage: node dist/bench/replay/replay.js --before DIR|FILE.json --after DIR|FILE.json [--extract FILE.osm.pbf] [--save DIR] [--keep]';
const EXTRACT_NAME = 'replay';

class UsageError extends Error {}

function options(): { before: string; after: string; extract?: string; save?: string; keep: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      options: { before: { type: 'string' }, after: { type: 'string' }, extract: { type: 'string' }, save: { type: 'string' }, keep: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!values.before || !values.after) throw new UsageError('both --before and --after are needed');
  const isRecording = (s: string): boolean => s.endsWith('.json');
  if ((!isRecording(values.before) || !isRecording(values.after)) && !values.extract) throw new UsageError('--extract FILE.osm.pbf is needed to run a build (routing, geocoding and places answer from it)');
  if (values.extract && !fs.existsSync(values.extract)) throw new UsageError(`--extract ${values.extract}: no such file`);
  return { before: values.before, after: values.after, extract: values.extract, save: values.save, keep: values.keep ?? false };
}

function keysOf(printed: Record<string, string>): ProjectKeys {
  const get = (label: string): string => {
    const key = printed[label];
    if (!key) throw new Error(`the gateway printed no ${label} key on its first start`);
    return key;
  };
  return { testPk: get('test publishable'), testSk: get('test secret'), livePk: get('live publishable'), liveSk: get('live secret') };
}

/** Imports the extract once per build; each run copies the imported files into a fresh data directory. */
const imported = new Map<string, string>();

async function record(worktree: string, extract: string, work: string, label: string): Promise<Recording> {
  const cli = cliOf(worktree);
  let importDir = imported.get(cli);
  if (!importDir) {
    importDir = fs.mkdtempSync(path.join(work, 'import-'));
    process.stderr.write(`[${label}] importing ${path.basename(extract)} with ${cli}\n`);
    await importExtract(cli, importDir, extract, EXTRACT_NAME);
    imported.set(cli, importDir);
  }
  const dataDir = fs.mkdtempSync(path.join(work, `${label}-`));
  fs.cpSync(path.join(importDir, 'extracts'), path.join(dataDir, 'extracts'), { recursive: true });
  const gateway = await startGatewayProcess(dataDir, { WAYMARK_JOB_INTERVAL_MS: '0', WAYMARK_LOG_REQUESTS: 'false', WAYMARK_STORE: 'sqlite' }, cli);
  const started = Date.now();
  let done = 0;
  const timer = setInterval(() => {
    const s = (Date.now() - started) / 1000;
    process.stderr.write(`[${label}] ${done} requests answered in ${s.toFixed(0)} s (${(done / s).toFixed(1)}/s)\n`);
  }, 10_000);
  try {
    const recorder = new Recorder(gateway.url, (n) => (done = n));
    await runScript(recorder, keysOf(gateway.keys));
    const s = (Date.now() - started) / 1000;
    process.stderr.write(`[${label}] ${recorder.pairs.length} requests answered in ${s.toFixed(1)} s by ${cli}\n`);
    return { source: path.resolve(worktree), dataDir, base: recorder.base, pairs: recorder.pairs };
  } finally {
    clearInterval(timer);
    await gateway.stop();
  }
}

async function recordingOf(side: string, label: string, extract: string | undefined, work: string, save: string | undefined): Promise<Recording> {
  if (side.endsWith('.json')) return JSON.parse(fs.readFileSync(side, 'utf8')) as Recording;
  const recording = await record(side, extract!, work, label);
  if (save) {
    fs.mkdirSync(save, { recursive: true });
    const file = path.join(save, `${label}.json`);
    fs.writeFileSync(file, JSON.stringify(recording, null, 1));
    process.stderr.write(`[${label}] recording saved to ${file}\n`);
  }
  return recording;
}

async function main(): Promise<number> {
  const opts = options();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-replay-'));
  try {
    const before = await recordingOf(opts.before, 'before', opts.extract, work, opts.save);
    const after = await recordingOf(opts.after, 'after', opts.extract, work, opts.save);
    const { same, differing } = comparePairs(normaliseRecording(before, before.dataDir), normaliseRecording(after, after.dataDir));
    const total = Math.max(before.pairs.length, after.pairs.length);
    for (const d of differing) {
      console.log(`#${d.n} ${d.label}: ${d.request}`);
      for (const line of d.details) console.log(`    ${line}`);
    }
    console.log(`${same}/${total} request/response pairs identical (before: ${before.source}, after: ${after.source})`);
    return differing.length === 0 ? 0 : 1;
  } finally {
    if (opts.keep) process.stderr.write(`data directories kept in ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`replay: ${err.message}\n${USAGE}\n`);
    else process.stderr.write(`replay: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(2);
  },
);
