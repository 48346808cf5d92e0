// What one geofence sync run did, as a status and as the mail that reports it. Pure: plain data in,
// plain data out; the runner does the fetching, writing and sending.

export type SyncEnvironment = 'test' | 'live';

/** Where an environment's sync stopped: no usable settings, the download, the file's rows, or the write. */
export type SyncStage = 'configuration' | 'download' | 'validation' | 'write';

export type SyncTrigger = 'saved' | 'nightly' | 'manual';

export type SyncStatus = 'succeeded' | 'failed' | 'partial';

export interface SyncProblem {
  row: number;
  column: string;
  message: string;
}

export interface EnvironmentOutcome {
  environment: SyncEnvironment;
  /** The URL or s3://bucket/key read. */
  source: string;
  ok: boolean;
  /** Set when not ok. */
  stage?: SyncStage;
  message?: string;
  bytes?: number;
  dataRows?: number;
  created?: number;
  updated?: number;
  /** The file's problems (validation), possibly cut; errorCount has the total. */
  errors?: SyncProblem[];
  errorCount?: number;
  durationMs: number;
}

export interface SyncRunSummary {
  projectId: string;
  projectName: string;
  trigger: SyncTrigger;
  /** ISO 8601 UTC with milliseconds. */
  startedAt: string;
  finishedAt: string;
  status: SyncStatus;
  environments: EnvironmentOutcome[];
}

export interface SyncMail {
  subject: string;
  text: string;
}

/** All environments succeeded, none did, or some. A run with no environment at all has failed. */
export function runStatus(outcomes: readonly EnvironmentOutcome[]): SyncStatus {
  const ok = outcomes.filter((o) => o.ok).length;
  if (outcomes.length > 0 && ok === outcomes.length) return 'succeeded';
  return ok === 0 ? 'failed' : 'partial';
}

const TRIGGER_WORDS: Record<SyncTrigger, string> = {
  saved: 'after the settings were saved',
  nightly: 'nightly',
  manual: 'started by hand',
};

const STAGE_WORDS: Record<SyncStage, string> = {
  configuration: 'settings',
  download: 'download',
  validation: 'file check',
  write: 'write',
};

const STATUS_WORDS: Record<SyncStatus, string> = {
  succeeded: 'succeeded',
  failed: 'FAILED',
  partial: 'partly failed',
};

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function outcomeLines(o: EnvironmentOutcome, maxProblems: number): string[] {
  const head = `${o.environment === 'live' ? 'Live' : 'Test'} environment (${o.source})`;
  if (o.ok) {
    const rows = o.dataRows ?? 0;
    return [`${head}: imported ${count((o.created ?? 0) + (o.updated ?? 0), 'geofence')} from ${count(rows, 'row')}: ${o.created ?? 0} created, ${o.updated ?? 0} updated.`];
  }
  const lines = [`${head}: failed at the ${STAGE_WORDS[o.stage ?? 'download']} stage. Nothing was written to this environment.`];
  if (o.message) lines.push(`  ${o.message}`);
  const errors = o.errors ?? [];
  const shown = errors.slice(0, maxProblems);
  for (const e of shown) lines.push(`  row ${e.row}${e.column ? `, ${e.column}` : ''}: ${e.message}`);
  const total = o.errorCount ?? errors.length;
  if (total > shown.length) lines.push(`  … and ${count(total - shown.length, 'more problem')} (the run record lists up to ${errors.length}).`);
  return lines;
}

/**
 * The notification mail for a finished run: subject with the project and status, a line per
 * environment, and the file's problems (at most `maxProblems` per environment).
 */
export function syncMail(run: SyncRunSummary, maxProblems = 50): SyncMail {
  const subject = `Waymark geofence sync ${STATUS_WORDS[run.status]}: ${run.projectName}`;
  const lines = [
    `Geofence sync of project "${run.projectName}" (${run.projectId}) ${STATUS_WORDS[run.status]}.`,
    `Run ${TRIGGER_WORDS[run.trigger]}, from ${run.startedAt} to ${run.finishedAt}.`,
    '',
  ];
  if (run.environments.length === 0) lines.push('No environment has a source configured: set a URL or an object key for test or live.');
  for (const o of run.environments) lines.push(...outcomeLines(o, maxProblems), '');
  lines.push('Each file is all or nothing: an environment whose file has any problem keeps its geofences as they were.');
  return { subject, text: lines.join('\n') + '\n' };
}
