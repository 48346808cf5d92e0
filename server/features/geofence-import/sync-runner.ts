// One sync run of a project: for each environment with a source, download its CSV and import it (all
// or nothing per environment), then record the run and mail its outcome. Runs of one project never
// overlap (a Store lock, so also across gateway nodes). The nightly job asks for due projects and
// moves each one's next run to the following night before running it, so a crash mid-run does not
// make it run again in a loop.
import type { CsvSources } from '../../../ports/geofence-sources';
import type { Mailer } from '../../../ports/mailer';
import type { Store } from '../../../ports/store';
import type { GeofenceImportConfig } from '../../config';
import { nextDailyRun } from '../../../core/geofence-sync/schedule';
import { runStatus, syncMail, type EnvironmentOutcome, type SyncTrigger } from '../../../core/geofence-sync/sync-report';
import type { Logger } from '../../../ports/logger';
import type { GeofenceImporter } from './import-service';
import type { SecretBox } from './secret-box';
import { environmentSources, type EnvironmentSource } from './sync-settings';
import { RUN_MAX_ERRORS, type SyncRunRecord, type SyncSettingsDoc, type SyncStore } from './sync-store';

export interface SyncRunnerDeps {
  store: Store;
  syncStore: SyncStore;
  importer: GeofenceImporter;
  mailer: Mailer;
  secrets: SecretBox;
  sources: CsvSources;
  config: GeofenceImportConfig['sync'];
  logger: Logger;
  projectName(projectId: string): Promise<string>;
}

/** Due projects handled per check of the nightly job; the rest wait for the next check. */
const DUE_BATCH = 10;

export class SyncRunner {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: SyncRunnerDeps) {}

  /** Runs the project's sync now and returns its record; undefined when it has no settings. */
  run(projectId: string, trigger: SyncTrigger): Promise<SyncRunRecord | undefined> {
    const running = this.deps.store.withLock(`geofence-sync:${projectId}`, async () => {
      const settings = await this.deps.syncStore.settings(projectId);
      if (!settings) return undefined;
      return this.runLocked(projectId, settings, trigger);
    });
    this.inFlight.add(running);
    const forget = (): void => {
      this.inFlight.delete(running);
    };
    running.then(forget, forget);
    return running;
  }

  /** Starts a run without waiting for it (after a save); failures are logged and recorded by the run. */
  start(projectId: string, trigger: SyncTrigger): void {
    this.run(projectId, trigger).catch((err: unknown) => {
      this.deps.logger.error('geofence sync failed', { projectId, error: err instanceof Error ? err.message : String(err) });
    });
  }

  /** The nightly job: runs every project whose next run is due; returns how many ran. */
  async runDue(now: Date): Promise<number> {
    let ran = 0;
    for (const projectId of await this.deps.syncStore.due(now, DUE_BATCH)) {
      if (this.stopping.signal.aborted) break;
      // Its own lock, not the run's: claiming must not wait behind a long run of the project.
      const claimed = await this.deps.store.withLock(`geofence-sync-claim:${projectId}`, async () => {
        // Another node may have taken it meanwhile: check again under the lock.
        const settings = await this.deps.syncStore.settings(projectId);
        if (!settings?.enabled || settings.nextRunAt === undefined || settings.nextRunAt > now.toISOString()) return false;
        await this.deps.syncStore.saveSettings({ ...settings, nextRunAt: nextDailyRun(now, this.deps.config.at).toISOString() });
        return true;
      });
      if (!claimed) continue;
      await this.run(projectId, 'nightly');
      ran++;
    }
    return ran;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async runLocked(projectId: string, settings: SyncSettingsDoc, trigger: SyncTrigger): Promise<SyncRunRecord> {
    const started = new Date();
    const environments: EnvironmentOutcome[] = [];
    for (const source of environmentSources(settings)) environments.push(await this.syncEnvironment(projectId, settings, source));
    const finished = new Date();
    const run: SyncRunRecord = {
      _id: this.deps.syncStore.newRunId(started),
      trigger,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      status: runStatus(environments),
      environments,
      mail: { to: recipients(settings.email), sent: false },
    };
    run.mail = await this.mail(projectId, run);
    await this.deps.syncStore.recordRun(projectId, run);
    this.deps.logger.info('geofence sync ran', { projectId, trigger, status: run.status, mailSent: run.mail.sent });
    return run;
  }

  private async syncEnvironment(projectId: string, settings: SyncSettingsDoc, source: EnvironmentSource): Promise<EnvironmentOutcome> {
    const t0 = Date.now();
    const base = { environment: source.environment, source: source.shown };
    const failed = (stage: EnvironmentOutcome['stage'], message: string): EnvironmentOutcome => ({ ...base, ok: false, stage, message, durationMs: Date.now() - t0 });
    let fetcher: () => Promise<Buffer>;
    try {
      fetcher = this.fetcher(projectId, settings, source);
    } catch (err) {
      return failed('configuration', err instanceof Error ? err.message : String(err));
    }
    let bytes: Buffer;
    try {
      bytes = await fetcher();
    } catch (err) {
      return failed('download', err instanceof Error ? err.message : String(err));
    }
    try {
      const report = await this.deps.importer.importCsv({ projectId, live: source.environment === 'live' }, bytes, {
        maxErrors: RUN_MAX_ERRORS,
        signal: this.stopping.signal,
      });
      const counts = { bytes: bytes.length, dataRows: report.dataRows, created: report.created, updated: report.updated };
      if (!report.ok) {
        return {
          ...failed('validation', `the file has ${report.errorCount} problem${report.errorCount === 1 ? '' : 's'}; nothing was imported`),
          ...counts, errors: report.errors, errorCount: report.errorCount,
        };
      }
      return { ...base, ok: true, ...counts, errorCount: 0, durationMs: Date.now() - t0 };
    } catch (err) {
      return failed('write', err instanceof Error ? err.message : String(err));
    }
  }

  /** The download of one source, once its credentials are in hand (a failure here is the settings'). */
  private fetcher(projectId: string, settings: SyncSettingsDoc, source: EnvironmentSource): () => Promise<Buffer> {
    const { config } = this.deps;
    const limits = { maxBytes: config.maxBytes, timeoutMs: config.timeoutMs, signal: this.stopping.signal };
    if (source.protocol === 'http') return () => this.deps.sources.http(source.url, limits);
    if (!settings.accessKeyId || !settings.secretAccessKeySealed) throw new Error('no access key is stored for the bucket: set accessKeyId and secretAccessKey');
    const secretAccessKey = this.deps.secrets.open(settings.secretAccessKeySealed, projectId);
    const location = { region: source.region, bucket: source.bucket, key: source.key, accessKeyId: settings.accessKeyId, secretAccessKey };
    return () => this.deps.sources.s3(location, limits);
  }

  private async mail(projectId: string, run: SyncRunRecord): Promise<SyncRunRecord['mail']> {
    const to = run.mail.to;
    if (to.length === 0) return { to, sent: false, error: 'no notification address is set' };
    const message = syncMail({ ...run, projectId, projectName: await this.deps.projectName(projectId) });
    try {
      await this.deps.mailer.send({ to, ...message });
      return { to, sent: true };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn('geofence sync mail not sent', { projectId, error });
      return { to, sent: false, error };
    }
  }
}

export function recipients(email: string | undefined): string[] {
  return (email ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}
