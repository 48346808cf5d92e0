// waymark data import | list | remove: OpenStreetMap extracts in <dataDir>/extracts/, built by the
// import pipeline (importers/osm/import-pipeline.ts) with the stages of importers/osm/stages.ts. A gateway on
// the same data directory picks a finished import or a removal up by itself (adapters/extracts/extract-catalog.ts).
import fs from 'node:fs';
import path from 'node:path';
import { EXTRACT_NAME, extractsDir } from '../../../core/formats/extract-layout';
import { ExtractBusy, cleanLeftovers, listExtracts, lockExtract, removeExtract } from '../../../core/formats/extract-folders';
import { downloadToFile, isUrl } from '../../../importers/osm/download';
import { formatBytes, formatDuration } from '../../../importers/osm/import-progress';
import { runImport, type ImportResult } from '../../../importers/osm/import-pipeline';
import { DEFAULT_BUDGET_SHARE, defaultMemoryBudgetBytes } from '../../../importers/osm/memory-budget';
import { IMPORT_STAGES } from '../../../importers/osm/stages';
import type { GatewayConfig } from '../../config';
import { type ParsedArgs, InterruptedError, NotFoundError, UsageError, flag, unknownSubcommand } from '../args';
import type { CliOutput } from '../output';
import { progressBar, stepLines } from '../progress';

export const DATA_USAGE = `waymark data import FILE|URL [FILE|URL…] [--name NAME] [--memory-budget MiB] [--json]
waymark data list [--json]
waymark data remove NAME [--json]
  (import: an OpenStreetMap extract, .osm.pbf or .osm XML, optionally .bz2/.gz compressed; NAME defaults to
   the file name without extensions; re-importing a NAME replaces it once the new import has succeeded.
   Several files are imported as one region with one network (adjacent or overlapping extracts, each
   sorted as osmium writes them; objects on the seams are read once): name it with --name.
   --memory-budget: the routing contraction keeps its finished edges in files and builds fewer modes at once,
   for a region larger than memory allows; the files it writes are the same. Default: a quarter of the
   machine's memory, or of the container's limit)`;

export async function dataCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): Promise<number> {
  const sub = args.words[1];
  switch (sub) {
    case 'import':
      return importCommand(config, args, out);
    case 'list':
      return listCommand(config, out);
    case 'remove':
      return removeCommand(config, args, out);
    default:
      throw unknownSubcommand('data', sub, DATA_USAGE);
  }
}

/** `us-md-baltimore.osm.pbf` → `us-md-baltimore`; null when nothing usable is left. */
export function defaultExtractName(source: string): string | null {
  let base = source;
  if (isUrl(source)) {
    try {
      base = decodeURIComponent(new URL(source).pathname.split('/').pop() ?? '');
    } catch {
      return null;
    }
  }
  base = path.basename(base).toLowerCase();
  base = base.replace(/(\.(bz2|gz))$/, '').replace(/(\.(osm\.pbf|pbf|osm|xml))$/, '').replace(/-latest$/, '');
  const name = base.replace(/[^a-z0-9_-]+/g, '-').replace(/^[-_]+|[-_]+$/g, '').slice(0, 64);
  return EXTRACT_NAME.test(name) ? name : null;
}

function readName(args: ParsedArgs, source: string): string {
  const given = flag(args, 'name');
  if (given === 'true') throw new UsageError('--name needs a value');
  if (given !== undefined) {
    if (!EXTRACT_NAME.test(given)) throw new UsageError(`--name ${JSON.stringify(given)} must be lowercase letters, digits, _ or - (at most 64, starting with a letter or digit)`);
    return given;
  }
  const derived = defaultExtractName(source);
  if (derived === null) throw new UsageError(`no extract name can be made from ${JSON.stringify(source)}: give one with --name`);
  return derived;
}

function readMemoryBudget(args: ParsedArgs): number {
  const given = flag(args, 'memory-budget');
  if (given === undefined) return defaultMemoryBudgetBytes();
  const mib = Number(given);
  if (!Number.isFinite(mib) || mib < 16) throw new UsageError(`--memory-budget ${JSON.stringify(given)} must be a number of MiB, at least 16`);
  return mib * 2 ** 20;
}

async function importCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): Promise<number> {
  const sources = args.words.slice(2);
  if (sources.length === 0) throw new UsageError(`data import needs a FILE or URL\n${DATA_USAGE}`);
  if (sources.length > 1 && flag(args, 'name') === undefined) throw new UsageError(`several files make one region: name it with --name\n${DATA_USAGE}`);
  const source = sources.join(' + ');
  const name = readName(args, sources[0]);
  const memoryBudgetBytes = readMemoryBudget(args);
  for (const s of sources) {
    if (isUrl(s)) continue;
    if (!fs.existsSync(s)) throw new Error(`cannot read ${s}: no such file`);
    if (fs.statSync(s).isDirectory()) throw new Error(`cannot read ${s}: it is a directory`);
  }

  // Ctrl-C or a service stop: the staging folder goes, the previous extract stays.
  // The import gives up at once (even a contraction running in worker threads) and the command exits
  // 128 + the signal's number; a second signal ends the process by Node's default, and the next import
  // or list removes the staging folder it leaves.
  const abort = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  let interruptedAt = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (interruptedBy !== undefined) {
      // The same stop twice at once: Ctrl-C reaches a re-run import (malloc-tunables.ts) both from the
      // terminal and from its parent. A later one is a second signal: Node's default ends the process.
      if (Date.now() - interruptedAt < 1_000) return;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.kill(process.pid, sig);
      return;
    }
    interruptedBy = sig;
    interruptedAt = Date.now();
    abort.abort(new Error(`interrupted (${sig}); nothing was changed`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dir = extractsDir(config.dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const downloads: string[] = [];
  try {
    const files: string[] = [];
    for (const [i, s] of sources.entries()) {
      if (!isUrl(s)) {
        files.push(path.resolve(s));
        continue;
      }
      const downloaded = path.join(dir, `.download-${name}-${process.pid}${i === 0 ? '' : `-${i}`}`);
      downloads.push(downloaded);
      const bar = out.json ? undefined : progressBar(`download ${sources.length === 1 ? name : s}`);
      let got = 0;
      try {
        await downloadToFile(s, downloaded, { signal: abort.signal, onProgress: (bytes, total) => {
          got = bytes;
          bar?.update(bytes, total ?? 0, formatBytes(bytes));
        } });
      } catch (err) {
        bar?.finish('failed');
        if (interruptedBy !== undefined) throw new InterruptedError(`download of ${s} stopped: interrupted (${interruptedBy}); nothing was changed`, interruptedBy);
        throw err;
      }
      bar?.finish(`${formatBytes(got)}`);
      files.push(downloaded);
    }
    let result: ImportResult;
    try {
      result = await runImport({
        file: files, source: sources.map((s) => (isUrl(s) ? s : path.resolve(s))).join(' + '), name, dataDir: config.dataDir,
        stages: IMPORT_STAGES.map((make) => make()), signal: abort.signal, onProgress: out.json ? undefined : stepLines(), memoryBudgetBytes,
      });
    } catch (err) {
      if (err instanceof ExtractBusy) throw err;
      const why = err instanceof Error ? err.message : String(err);
      const message = `import of ${source} failed: ${why}${fs.existsSync(path.join(dir, name)) ? ` (the previous "${name}" extract stays)` : ''}`;
      throw interruptedBy === undefined ? new Error(message) : new InterruptedError(message, interruptedBy);
    }
    // Wall time of the whole command, Node's start-up and loading included: what the operator waited.
    const seconds = process.uptime();
    const m = result.manifest;
    out.data({ name, dir: result.dir, seconds: Math.round(seconds * 1000) / 1000, peakMemoryBytes: result.peakMemoryBytes, manifest: m, steps: result.steps });
    out.print(`Imported ${name} from ${source} in ${seconds.toFixed(2)} s (peak memory ${formatBytes(result.peakMemoryBytes)}): ${m.import?.nodes ?? 0} nodes, ${m.import?.ways ?? 0} ways, ${m.import?.relations ?? 0} relations.`);
    const budgetSaid = flag(args, 'memory-budget') === undefined ? ` (default: ${DEFAULT_BUDGET_SHARE * 100} % of this machine's memory)` : '';
    out.print(`  steps (wall, peak memory; budget ${formatBytes(memoryBudgetBytes)}${budgetSaid}): ${result.steps.map((t) => `${t.label} ${formatDuration(t.seconds)}, ${formatBytes(t.peakRssBytes)}`).join('; ')}`);
    for (const [stage, summary] of Object.entries(m.stages)) out.print(`  ${stage}: ${Object.entries(summary).map(([k, v]) => `${v} ${k}`).join(', ')}`);
    out.print(`Written to ${result.dir}; a gateway running on this data directory serves it within WAYMARK_EXTRACTS_RELOAD_CHECK_MS (default 1 s).`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const d of downloads) fs.rmSync(d, { force: true });
  }
}

function listCommand(config: GatewayConfig, out: CliOutput): number {
  cleanLeftovers(config.dataDir);
  const found = listExtracts(config.dataDir);
  out.data({ directory: extractsDir(config.dataDir), extracts: found });
  if (found.length === 0) out.print(`No imported extracts in ${extractsDir(config.dataDir)}.`);
  for (const e of found) {
    if (e.problem) {
      out.print(`${e.name.padEnd(24)} UNUSABLE: ${e.problem}`);
      continue;
    }
    const m = e.manifest!;
    const stages = Object.entries(m.stages).map(([stage, s]) => `${stage} (${Object.entries(s).map(([k, v]) => `${v} ${k}`).join(', ')})`).join('; ');
    out.print(`${e.name.padEnd(24)} ${formatBytes(e.bytes).padStart(10)}  imported ${m.importedAt} from ${m.source}${stages ? `\n${' '.repeat(26)}${stages}` : ''}`);
  }
  return found.some((e) => e.problem !== undefined) ? 1 : 0;
}

function removeCommand(config: GatewayConfig, args: ParsedArgs, out: CliOutput): number {
  const name = args.words[2];
  if (name === undefined) throw new UsageError(`data remove needs a NAME\n${DATA_USAGE}`);
  if (!EXTRACT_NAME.test(name)) throw new UsageError(`${JSON.stringify(name)} is not an extract name (see waymark data list)`);
  cleanLeftovers(config.dataDir);
  const release = lockExtract(config.dataDir, name);
  let removed: boolean;
  try {
    removed = removeExtract(config.dataDir, name);
  } finally {
    release();
  }
  if (!removed) throw new NotFoundError(`no extract named ${name} (see waymark data list)`);
  out.data({ name, removed });
  out.print(`Removed the extract ${name}.`);
  return 0;
}
