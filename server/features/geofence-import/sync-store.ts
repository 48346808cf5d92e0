// Where sync settings and run records live: two Store collections, in one fixed scope per project
// (settings cover both environments, so they belong to neither; the test scope is used as the
// project's own). The settings' nextRunAt is the collection's due field, so the nightly job finds
// due projects without scanning all of them.
import { collection, put, remove, type DocBase, type Scope, type Store, type WriteOp } from '../../../ports/store';
import { newObjectId } from '../../../core/object-id';
import type { EnvironmentOutcome, SyncStatus, SyncTrigger } from '../../../core/geofence-sync/sync-report';
import type { StoredSyncSettings } from './sync-settings';

/** Run records kept per project; older ones are dropped after each run. */
export const RUNS_KEPT = 100;
/** Problems kept per environment in a run record (errorCount has the total). */
export const RUN_MAX_ERRORS = 1000;
/** Problems per environment repeated in the settings' lastRun. */
const LAST_RUN_MAX_ERRORS = 20;

export interface MailOutcome {
  to: string[];
  sent: boolean;
  error?: string;
}

export interface SyncRunRecord {
  _id: string;
  trigger: SyncTrigger;
  startedAt: string;
  finishedAt: string;
  status: SyncStatus;
  environments: EnvironmentOutcome[];
  mail: MailOutcome;
}

export interface SyncSettingsDoc extends DocBase, StoredSyncSettings {
  /** When the nightly run is due; absent while disabled. */
  nextRunAt?: string;
  lastRun?: SyncRunRecord;
}

/** A run as stored: the record with the Store's dates (createdAt is when it started). */
export interface SyncRunDoc extends DocBase, SyncRunRecord {}

/** One settings document per project, under the project's id; nextRunAt is the nightly job's due field. */
export const SYNC_SETTINGS = collection<SyncSettingsDoc>('geofenceSync', { keys: [], due: 'nextRunAt' });
export const SYNC_RUNS = collection<SyncRunDoc>('geofenceSyncRuns', { keys: ['status'] });
export const SYNC_COLLECTIONS = [SYNC_SETTINGS, SYNC_RUNS] as const;

export function projectScope(projectId: string): Scope {
  return { projectId, live: false };
}

function withErrorsCut(run: SyncRunRecord, max: number): SyncRunRecord {
  return { ...run, environments: run.environments.map((e) => (e.errors && e.errors.length > max ? { ...e, errors: e.errors.slice(0, max) } : e)) };
}

export class SyncStore {
  constructor(private readonly store: Store) {}

  async settings(projectId: string): Promise<SyncSettingsDoc | undefined> {
    return this.store.get(SYNC_SETTINGS, projectScope(projectId), projectId);
  }

  async saveSettings(doc: SyncSettingsDoc): Promise<void> {
    await this.store.write([put(SYNC_SETTINGS, projectScope(doc._id), doc)]);
  }

  async deleteSettings(projectId: string): Promise<void> {
    const scope = projectScope(projectId);
    const ops: WriteOp[] = [remove(SYNC_SETTINGS, scope, projectId)];
    await this.store.scan(SYNC_RUNS, scope, (docs) => {
      for (const d of docs) ops.push(remove(SYNC_RUNS, scope, d._id));
    });
    await this.store.write(ops);
  }

  /** Projects whose nightly run is due at `now`, oldest due first. */
  async due(now: Date, limit: number): Promise<string[]> {
    const due = await this.store.due(SYNC_SETTINGS, now.toISOString(), limit);
    return due.map((d) => d.scope.projectId);
  }

  newRunId(at: Date): string {
    return newObjectId(at);
  }

  /** Stores the run and the settings' lastRun in one write, and trims old runs. */
  async recordRun(projectId: string, run: SyncRunRecord): Promise<void> {
    const scope = projectScope(projectId);
    const record = withErrorsCut(run, RUN_MAX_ERRORS);
    const ops: WriteOp[] = [put(SYNC_RUNS, scope, { ...record, createdAt: run.startedAt, updatedAt: run.finishedAt })];
    // Settings deleted while the run went on stay deleted.
    const settings = await this.settings(projectId);
    if (settings) {
      ops.push(put(SYNC_SETTINGS, scope, { ...settings, lastRun: withErrorsCut(run, LAST_RUN_MAX_ERRORS) }));
    }
    const { docs } = await this.store.list(SYNC_RUNS, scope, { limit: RUNS_KEPT + 50, sortBy: 'createdAt' });
    for (const old of docs.slice(RUNS_KEPT - 1)) ops.push(remove(SYNC_RUNS, scope, old._id));
    await this.store.write(ops);
  }

  async runs(projectId: string, limit: number, before?: string): Promise<{ runs: SyncRunRecord[]; hasMore: boolean }> {
    const { docs, hasMore } = await this.store.list(SYNC_RUNS, projectScope(projectId), {
      limit,
      sortBy: 'createdAt',
      ranges: before ? [{ field: 'createdAt', before }] : undefined,
    });
    return { runs: docs.map((d) => runView(d)), hasMore };
  }
}

/** A run as stored, without Store bookkeeping. */
export function runView(d: SyncRunRecord): SyncRunRecord {
  const { _id, trigger, startedAt, finishedAt, status, environments, mail } = d;
  return { _id, trigger, startedAt, finishedAt, status, environments, mail };
}
