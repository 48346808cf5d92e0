// Reading and changing a project's sync settings, shared by the endpoint and the CLI. Saving an
// enabled sync schedules the next nightly run; the caller then starts the immediate run.
import type { AddressGuard } from '../../../ports/geofence-sources';
import type { GeofenceImportConfig } from '../../config';
import { formatDailyTime, nextDailyRun } from '../../../core/geofence-sync/schedule';
import { Forbidden } from '../../http/errors';
import type { SecretBox } from './secret-box';
import { feedsLive, publicSettings, readSyncSettings, settingsAsBody, type StoredSyncSettings } from './sync-settings';
import { runView, type SyncRunRecord, type SyncSettingsDoc, type SyncStore } from './sync-store';

/** The settings as GET shows them: every settings field (null when unset), the schedule and the last run. */
export interface SyncSettingsView {
  [field: string]: unknown;
  lastRun: SyncRunRecord | null;
}

export interface SaveOptions {
  /** PATCH: fields left out keep their stored values. PUT (default): the body is the whole settings. */
  merge?: boolean;
  /** Whether the caller may change settings that write to the live environment (a live secret key, or the CLI). */
  mayWriteLive: boolean;
  now: Date;
}

export class SyncSettingsService {
  constructor(
    private readonly syncStore: SyncStore,
    private readonly secrets: SecretBox,
    private readonly guard: AddressGuard,
    private readonly config: GeofenceImportConfig['sync'],
  ) {}

  /**
   * The settings as a key of one environment may see them. The settings are one document per project
   * (one schedule, one e-mail, one S3 bucket and credentials for both CSVs), but a test key must never
   * read live data: the live URL (whose query may be a signature), the live object key, the access key id
   * when it serves live, and the live half of the last run are hidden from it.
   */
  viewFor(doc: SyncSettingsDoc | undefined, live: boolean): SyncSettingsView {
    const view = this.view(doc);
    if (live || !doc) return view;
    const hidden: SyncSettingsView = { ...view, liveUrl: null, liveObjectKey: null, liveHidden: feedsLive(doc) };
    if (feedsLive(doc)) hidden.accessKeyId = null;
    if (doc.lastRun) {
      const run = runView(doc.lastRun);
      hidden.lastRun = { ...run, environments: run.environments.filter((e) => e.environment !== 'live') };
    }
    return hidden;
  }

  /** The settings as GET shows them to a live key (and the CLI), with schedule and last run. */
  view(doc: SyncSettingsDoc | undefined): SyncSettingsView {
    return {
      ...publicSettings(doc),
      schedule: `daily at ${formatDailyTime(this.config.at)}`,
      nextRunAt: doc?.nextRunAt ?? null,
      createdAt: doc?.createdAt ?? null,
      updatedAt: doc?.updatedAt ?? null,
      lastRun: doc?.lastRun ? runView(doc.lastRun) : null,
    };
  }

  get(projectId: string): Promise<SyncSettingsDoc | undefined> {
    return this.syncStore.settings(projectId);
  }

  async save(projectId: string, body: Record<string, unknown>, opts: SaveOptions): Promise<SyncSettingsDoc> {
    const existing = await this.syncStore.settings(projectId);
    const merged = opts.merge ? { ...settingsAsBody(existing), ...body } : body;
    const input = readSyncSettings(merged, this.guard, { accessKeyId: existing?.accessKeyId, hasSecret: existing?.secretAccessKeySealed !== undefined });
    const { secretAccessKey, ...fields } = input;
    const next: StoredSyncSettings = { ...fields };
    if (secretAccessKey !== undefined) next.secretAccessKeySealed = this.secrets.seal(secretAccessKey, projectId);
    else if (input.accessKeyId !== undefined) next.secretAccessKeySealed = existing?.secretAccessKeySealed;
    this.checkLiveAccess(existing, next, opts.mayWriteLive);
    const at = opts.now.toISOString();
    const doc: SyncSettingsDoc = {
      ...next,
      _id: projectId,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      nextRunAt: next.enabled ? nextDailyRun(opts.now, this.config.at).toISOString() : undefined,
      lastRun: existing?.lastRun,
    };
    // JSON drops undefined fields, but not every Store adapter serialises the same way.
    for (const key of Object.keys(doc) as Array<keyof SyncSettingsDoc>) if (doc[key] === undefined) delete doc[key];
    await this.syncStore.saveSettings(doc);
    return doc;
  }

  async remove(projectId: string, mayWriteLive: boolean): Promise<boolean> {
    const existing = await this.syncStore.settings(projectId);
    if (!existing) return false;
    this.checkLiveAccess(existing, undefined, mayWriteLive);
    await this.syncStore.deleteSettings(projectId);
    return true;
  }

  /** Running the stored settings writes where they point. */
  checkRun(existing: SyncSettingsDoc, mayWriteLive: boolean): void {
    this.checkLiveAccess(existing, undefined, mayWriteLive);
  }

  private checkLiveAccess(before: StoredSyncSettings | undefined, after: StoredSyncSettings | undefined, mayWriteLive: boolean): void {
    if (mayWriteLive || (!feedsLive(before) && !feedsLive(after))) return;
    throw new Forbidden('Forbidden: these sync settings write to the live environment; use a live secret key');
  }
}
