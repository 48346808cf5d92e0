// waymark geofences import | sync show|set|run|runs|delete
// The CSV import and the nightly sync settings, straight on the data directory: the same services as
// POST /v1/geofences/import and /v1/geofence-sync. A gateway already running on the directory (or the
// database) hears of the imported geofences through the store's change announcements within a second.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Scope } from '../../../ports/store';
import type { StoreCommandParts } from '../store-commands';
import { geofenceImportOf, type GeofenceImportRuntime } from '../../features/geofence-import/geofence-import-feature';
import type { ImportReport } from '../../features/geofence-import/import-service';
import type { SyncSettingsView } from '../../features/geofence-import/sync-service';
import type { SyncRunRecord } from '../../features/geofence-import/sync-store';
import type { EnvironmentOutcome } from '../../../core/geofence-sync/sync-report';
import { apiErrorOf } from '../../http/errors';
import { readNumber } from '../../http/params';
import { cliErrorOf, environmentFlag, flag, unknownSubcommand, UsageError, type ParsedArgs } from '../args';
import type { CliOutput } from '../output';
import { progressBar, type Progress } from '../progress';
import { resolveProject } from './project';

const PROJECT = '[--project ID|NAME]';

export const GEOFENCES_USAGE = `waymark geofences import FILE|- ${PROJECT} [--env test|live] [--json]
waymark geofences import FILE|- --url GATEWAY_URL [--key SECRET_KEY] [--json]   (through a running gateway)
waymark geofences sync show ${PROJECT} [--json]
waymark geofences sync set [--enabled true|false] [--email ADDR,…] [--protocol http|s3]
    [--test-url URL] [--live-url URL]
    [--bucket-region REGION] [--bucket-name NAME] [--test-object-key KEY] [--live-object-key KEY]
    [--access-key-id ID] [--secret-access-key-file FILE | --secret-access-key SECRET] ${PROJECT} [--json]
waymark geofences sync run ${PROJECT} [--json]
waymark geofences sync runs [--limit N] ${PROJECT} [--json]
waymark geofences sync delete ${PROJECT} [--json]
  (import: test environment unless --env live; exit 1 when the file has problems, listing each;
   sync set saves, then runs once when enabled; set and run exit 1 unless the run succeeded)`;

/** `sync set` flags → settings fields, as PATCH /v1/geofence-sync takes them. */
const SET_FLAGS: ReadonlyArray<[string, string]> = [
  ['enabled', 'enabled'], ['email', 'email'], ['protocol', 'protocol'], ['test-url', 'testUrl'], ['live-url', 'liveUrl'],
  ['bucket-region', 'bucketRegion'], ['bucket-name', 'bucketName'], ['test-object-key', 'testObjectKey'],
  ['live-object-key', 'liveObjectKey'], ['access-key-id', 'accessKeyId'], ['secret-access-key', 'secretAccessKey'],
];

function readEnv(args: ParsedArgs): boolean {
  return environmentFlag(args) === 'live';
}

function problemLine(e: { row: number; column: string; message: string }): string {
  return `row ${e.row}${e.column ? `, ${e.column}` : ''}: ${e.message}`;
}

/**
 * Progress of the two phases: a bar while rows are checked, then the write. The write is one atomic
 * transaction (all or nothing), which reports nothing until it commits: rather than a bar that sits at
 * 0%, it gets a line saying what is happening and, at the end, its time and rate.
 */
function importProgress(): { onProgress: (phase: 'validate' | 'write', done: number, total: number) => void; finish(): void } {
  let checking: Progress | undefined = progressBar('Checking rows');
  let writeStarted: number | undefined;
  return {
    onProgress(phase, done, total) {
      if (phase === 'validate') {
        checking?.update(done, total);
        return;
      }
      if (done === 0) {
        checking?.finish(`${total} valid rows`);
        checking = undefined;
        writeStarted = performance.now();
        process.stderr.write(`Writing: ${total} geofences in one transaction (all or nothing)…\n`);
      } else if (writeStarted !== undefined) {
        const seconds = (performance.now() - writeStarted) / 1000;
        process.stderr.write(`Writing: ${total} geofences written in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001))}/s)\n`);
        writeStarted = undefined;
      }
    },
    finish() {
      checking?.finish('done');
    },
  };
}

function printImport(out: CliOutput, report: ImportReport, file: string, seconds: number, into: string): number {
  if (!report.ok) {
    for (const e of report.errors) out.print(problemLine(e));
    if (report.errorCount > report.errors.length) out.print(`… and ${report.errorCount - report.errors.length} more problems`);
    out.print(`Nothing was imported: ${report.errorCount} problem${report.errorCount === 1 ? '' : 's'} in ${report.dataRows} rows of ${file}.`);
    return 1;
  }
  const rate = seconds > 0 ? Math.round(report.dataRows / seconds) : report.dataRows;
  out.print(
    `Imported ${report.imported} geofences into ${into}: ${report.created} created, ${report.updated} updated, ` +
      `from ${report.dataRows} rows in ${seconds.toFixed(2)} s (${rate} rows/s).`,
  );
  return 0;
}

async function readInput(file: string): Promise<Buffer> {
  if (file !== '-') return fs.promises.readFile(path.resolve(file));
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The same import through POST /v1/geofences/import of a running gateway: its in-memory index is
 * updated at once, which a CLI write to the data directory cannot do. The file travels gzipped.
 */
async function remoteImport(args: ParsedArgs, file: string, url: string, out: CliOutput): Promise<number> {

  const key = flag(args, 'key') ?? process.env.WAYMARK_API_KEY;
  if (!key || key === 'true') throw new UsageError('--url needs a secret key: --key prj_…_sk_… or WAYMARK_API_KEY');
  let endpoint: URL;
  try {
    endpoint = new URL('/v1/geofences/import', url);
  } catch {
    throw new UsageError(`--url must be the gateway's base URL (http://host:8080), got "${url}"`);
  }
  const csv = await readInput(file);
  if (!out.json) process.stderr.write(`Uploading ${csv.length} bytes to ${endpoint.origin} …\n`);
  const started = process.hrtime.bigint();
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'text/csv', 'content-encoding': 'gzip' },
    body: zlib.gzipSync(csv),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const reply = (await res.json().catch(() => ({}))) as { meta?: { message?: string }; import?: ImportReport & { environment: string } };
  if (!reply.import) throw new Error(`${endpoint.origin} answered ${res.status}: ${reply.meta?.message ?? res.statusText}`);
  out.data({ url: endpoint.origin, file, seconds: Math.round(seconds * 1000) / 1000, ...reply.import });
  return printImport(out, reply.import, file, seconds, `the ${reply.import.environment} environment at ${endpoint.origin}`);
}

async function importCommand(s: StoreCommandParts, runtime: GeofenceImportRuntime, args: ParsedArgs, out: CliOutput): Promise<number> {
  const file = args.words[2];
  if (!file) throw new UsageError(`geofences import needs a FILE (or - for standard input)\n${GEOFENCES_USAGE}`);
  const url = flag(args, 'url');
  if (url !== undefined) {
    if (flag(args, 'project') !== undefined || flag(args, 'env') !== undefined) {
      throw new UsageError('with --url the key decides project and environment: leave out --project and --env');
    }
    if (file !== '-' && !fs.existsSync(file)) throw new Error(`cannot read ${file}: no such file`);
    return remoteImport(args, file, url, out);
  }
  // Usage mistakes first, then the file.
  const live = readEnv(args);
  const project = await resolveProject(s, args);
  if (file !== '-' && !fs.existsSync(file)) throw new Error(`cannot read ${file}: no such file`);
  const scope: Scope = { projectId: project._id, live };
  const envName = scope.live ? 'live' : 'test';
  const input = file === '-' ? process.stdin : fs.createReadStream(path.resolve(file));
  const progress = out.json ? undefined : importProgress();
  const started = process.hrtime.bigint();
  let report: ImportReport;
  try {
    report = await runtime.importer.importCsv(scope, input, { onProgress: progress?.onProgress });
  } finally {
    progress?.finish();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  out.data({ project: { id: project._id, name: project.name }, environment: envName, file, seconds: Math.round(seconds * 1000) / 1000, ...report });
  return printImport(out, report, file, seconds, `"${project.name}" (${envName})`);
}

function outcomeLine(o: EnvironmentOutcome): string {
  if (o.ok) return `  ${o.environment}: ${o.source}: ${o.created ?? 0} created, ${o.updated ?? 0} updated from ${o.dataRows ?? 0} rows`;
  return `  ${o.environment}: ${o.source}: FAILED at ${o.stage}: ${o.message ?? ''}`;
}

function printRun(out: CliOutput, run: SyncRunRecord): void {
  out.print(`Run ${run._id} (${run.trigger}) ${run.status} at ${run.finishedAt}`);
  if (run.environments.length === 0) out.print('  no environment has a source');
  for (const o of run.environments) {
    out.print(outcomeLine(o));
    for (const e of o.errors ?? []) out.print(`    ${problemLine(e)}`);
    if ((o.errorCount ?? 0) > (o.errors?.length ?? 0)) out.print(`    … ${(o.errorCount ?? 0) - (o.errors?.length ?? 0)} more problems`);
  }
  out.print(run.mail.sent ? `  mail sent to ${run.mail.to.join(', ')}` : `  no mail sent: ${run.mail.error ?? 'unknown reason'}`);
}

function printSettings(out: CliOutput, view: SyncSettingsView): void {
  for (const [name, value] of Object.entries(view)) {
    if (name === 'lastRun') continue;
    out.print(`${name.padEnd(20)} ${value === null ? '-' : String(value)}`);
  }
  if (view.lastRun) printRun(out, view.lastRun);
}

function setBody(args: ParsedArgs): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of SET_FLAGS) {
    const value = flag(args, name);
    if (value !== undefined) body[field] = value;
  }
  const secretFile = flag(args, 'secret-access-key-file');
  if (secretFile !== undefined) {
    if (body.secretAccessKey !== undefined) throw new UsageError('give --secret-access-key or --secret-access-key-file, not both');
    // A file keeps the secret out of the shell history and the process list.
    body.secretAccessKey = fs.readFileSync(secretFile, 'utf8').trim();
  }
  if (Object.keys(body).length === 0) throw new UsageError(`sync set needs at least one setting\n${GEOFENCES_USAGE}`);
  return body;
}

async function syncCommand(s: StoreCommandParts, runtime: GeofenceImportRuntime, args: ParsedArgs, out: CliOutput): Promise<number> {
  const { settings, runner, syncStore } = runtime;
  const sub = args.words[2];
  switch (sub) {
    case 'show': {
      const project = await resolveProject(s, args);
      const view = settings.view(await settings.get(project._id));
      out.data(view);
      printSettings(out, view);
      return 0;
    }
    case 'set': {
      const body = setBody(args);
      const project = await resolveProject(s, args);
      // The CLI is the operator's: it may change live sources like a live secret key.
      const doc = await settings.save(project._id, body, { merge: true, mayWriteLive: true, now: new Date() });
      if (!doc.enabled) {
        out.data({ sync: settings.view(doc), run: null });
        out.print(`Saved the sync settings of "${project.name}" (disabled: no run).`);
        return 0;
      }
      out.print(`Saved the sync settings of "${project.name}"; running once now…`);
      const run = await runner.run(project._id, 'saved');
      out.data({ sync: settings.view(await settings.get(project._id)), run: run ?? null });
      if (run) printRun(out, run);
      return run?.status === 'succeeded' ? 0 : 1;
    }
    case 'run': {
      const project = await resolveProject(s, args);
      if (!(await settings.get(project._id))) throw new UsageError(`Project "${project.name}" has no sync settings: waymark geofences sync set …`);
      const run = await runner.run(project._id, 'manual');
      out.data({ run: run ?? null });
      if (run) printRun(out, run);
      return run?.status === 'succeeded' ? 0 : 1;
    }
    case 'runs': {
      const project = await resolveProject(s, args);
      const limit = readNumber(flag(args, 'limit'), 'limit', { min: 1, max: 100, integer: true }) ?? 10;
      const { runs, hasMore } = await syncStore.runs(project._id, limit);
      out.data({ runs, hasMore });
      if (runs.length === 0) out.print('No sync runs yet.');
      for (const run of runs) printRun(out, run);
      return 0;
    }
    case 'delete': {
      const project = await resolveProject(s, args);
      const removed = await settings.remove(project._id, true);
      out.data({ deleted: removed });
      if (!removed) {
        // Nothing was deleted: a script that expected settings there must learn it (exit 1).
        process.stderr.write(`waymark: project "${project.name}" has no sync settings: nothing deleted\n`);
        return 1;
      }
      out.print(`Deleted the sync settings and run history of "${project.name}".`);
      return 0;
    }
    default:
      throw unknownSubcommand('geofences sync', args.words[2], GEOFENCES_USAGE);
  }
}

export async function geofencesCommand(s: StoreCommandParts, args: ParsedArgs, out: CliOutput): Promise<number> {
  const runtime = geofenceImportOf(s.installed);
  if (!runtime) throw new UsageError('The geofence import feature is not installed in this build');
  try {
    if (args.words[1] === 'import') return await importCommand(s, runtime, args, out);
    if (args.words[1] === 'sync') return await syncCommand(s, runtime, args, out);
    throw unknownSubcommand('geofences', args.words[1], GEOFENCES_USAGE);
  } catch (err) {
    // Validation errors read the same as over HTTP, minus the status code.
    const known = apiErrorOf(err);
    if (known) throw cliErrorOf(known);
    throw err;
  } finally {
    // The CLI never starts the gateway's jobs or stop hooks; close what a run may have opened (SMTP pool).
    await runtime.runner.stop();
    await runtime.mailer.close();
  }
}
