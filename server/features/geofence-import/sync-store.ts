// Where sync settings and run records live: two Store collections, in one fixed scope per project
// (settings cover both environments, so they belong to neither; the test scope is used as the
// project's own). The settings' nextRunAt is the collection's due field, so the nightly job finds
// due projects without scanning all of them.
import type { CollectionSpec, Doc, Scope, Store } from '../../../ports/store';
import { newObjectId } from '../../../core/object-id';
import type { EnvironmentOutcome, SyncStatus, SyncTrigger } from '../../../core/geofence-sync/sync-report';
import type { StoredSyncSettings } from './sync-settings';

export const SYNC_COLLECTIONS = {
  geofenceSync: { keys: [], due: 'nextRunAt' },
  geofenceSyncRuns: { keys: ['status'] },
} as const satisfies Record<string, CollectionSpec>;

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

export interface SyncSettingsDoc extends StoredSyncSettings {
  _id: string;
  createdAt: string;
  updatedAt: string;
  /** When the nightly run is due; absent while disabled. */
  nextRunAt?: string;
  lastRun?: SyncRunRecord;
}

export function projectScope(projectId: string): Scope {
  return { projectId, live: false };
}

function withErrorsCut(run: SyncRunRecord, max: number): SyncRunRecord {
  return { ...run, environments: run.environments.map((e) => (e.errors && e.errors.length > max ? { ...e, errors: e.errors.slice(0, max) } : e)) };
}

export class SyncStore {
  constructor(private readonly store: Store) {}

  async settings(projectId: string): Promise<SyncSettingsDoc | undefined> {
    return (await this.store.get('geofenceSync', projectScope(projectId), projectId)) as SyncSettingsDoc | undefined;
  }

  async saveSettings(doc: SyncSettingsDoc): Promise<void> {
    await this.store.write([{ op: 'put', collection: 'geofenceSync', scope: projectScope(doc._id), doc: doc as unknown as Doc }]);
  }

  async deleteSettings(projectId: string): Promise<void> {
    const scope = projectScope(projectId);
    const ops: Array<{ op: 'delete'; collection: string; scope: Scope; id: string }> = [{ op: 'delete', collection: 'geofenceSync', scope, id: projectId }];
    await this.store.scan('geofenceSyncRuns', scope, (docs) => {
      for (const d of docs) ops.push({ op: 'delete', collection: 'geofenceSyncRuns', scope, id: d._id });
    });
    await this.store.write(ops);
  }

  /** Projects whose nightly run is due at `now`, oldest due first. */
  async due(now: Date, limit: number): Promise<string[]> {
    const due = await this.store.due('geofenceSync', now.toISOString(), limit);
    return due.map((d) => d.scope.projectId);
  }

  newRunId(at: Date): string {
    return newObjectId(at);
  }

  /** Stores the run and the settings' lastRun in one write, and trims old runs. */
  async recordRun(projectId: string, run: SyncRunRecord): Promise<void> {
    const scope = projectScope(projectId);
    const record = withErrorsCut(run, RUN_MAX_ERRORS);
    const ops: Array<{ op: 'put'; collection: string; scope: Scope; doc: Doc } | { op: 'delete'; collection: string; scope: Scope; id: string }> = [
      { op: 'put', collection: 'geofenceSyncRuns', scope, doc: { ...record, createdAt: run.startedAt, updatedAt: run.finishedAt } as unknown as Doc },
    ];
    // Settings deleted while the run went on stay deleted.
    const settings = await this.settings(projectId);
    if (settings) {
      ops.push({ op: 'put', collection: 'geofenceSync', scope, doc: { ...settings, lastRun: withErrorsCut(run, LAST_RUN_MAX_ERRORS) } as unknown as Doc });
    }
    const { docs } = await this.store.list('geofenceSyncRuns', scope, { limit: RUNS_KEPT + 50, sortBy: 'createdAt' });
    for (const old of docs.slice(RUNS_KEPT - 1)) ops.push({ op: 'delete', collection: 'geofenceSyncRuns', scope, id: old._id });
    await this.store.write(ops);
  }

  async runs(projectId: string, limit: number, before?: string): Promise<{ runs: SyncRunRecord[]; hasMore: boolean }> {
    const { docs, hasMore } = await this.store.list('geofenceSyncRuns', projectScope(projectId), {
      limit,
      sortBy: 'createdAt',
      ranges: before ? [{ field: 'createdAt', before }] : undefined,
    });
    return { runs: docs.map((d) => runView(d)), hasMore };
  }
}

/** A run as stored, without Store bookkeeping. */
export function runView(d: Doc | SyncRunRecord): SyncRunRecord {
  const { _id, trigger, startedAt, finishedAt, status, environments, mail } = d as SyncRunRecord;
  return { _id, trigger, startedAt, finishedAt, status, environments, mail };
}
