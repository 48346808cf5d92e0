// Geofence CSV import and nightly sync as a gateway feature: the upload endpoint, the sync settings
// and run endpoints, their collections and the nightly job. The mailer and the CSV sources (with their
// address rule) are the composition root's choice (server/app/adapters.ts). The CLI reaches the same
// services through geofenceImportOf() (the instance's runtime, no state kept beside the gateway).
import type { AddressGuard, CsvSources } from '../../../ports/geofence-sources';
import type { Mailer } from '../../../ports/mailer';
import { installedRuntime, type Feature, type InstalledFeatures } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Geofences } from '../../../ports/geofences';
import type { Logger } from '../../../ports/logger';
import type { Store } from '../../../ports/store';
import { importRoutes } from './import-routes';
import { GeofenceImporter } from './import-service';
import { SecretBox } from './secret-box';
import { syncRoutes } from './sync-routes';
import { SyncRunner } from './sync-runner';
import { SyncSettingsService } from './sync-service';
import { SYNC_COLLECTIONS, SyncStore } from './sync-store';

/** What the CLI, benchmarks and tests reach of the feature (its instance's `runtime`). */
export class GeofenceImportRuntime {
  constructor(
    readonly importer: GeofenceImporter,
    readonly settings: SyncSettingsService,
    readonly runner: SyncRunner,
    readonly syncStore: SyncStore,
    readonly mailer: Mailer,
  ) {}
}

/** The import feature of a gateway, when installed. */
export function geofenceImportOf(services: InstalledFeatures): GeofenceImportRuntime | undefined {
  return installedRuntime(services, geofenceImportFeature.name, GeofenceImportRuntime);
}

interface GeofenceImportNeeds {
  config: Pick<GatewayConfig, 'geofenceImport' | 'dataDir'>;
  store: Store;
  logger: Logger;
  geofences: Geofences;
  /** Sends the sync report mails. */
  mailer: Mailer;
  /** Where syncs download their CSVs, and the address rule their URLs must pass. */
  geofenceSources: { guard: AddressGuard; sources: CsvSources };
  /** A project's name for the sync report mails. */
  projects: { find(id: string): Promise<{ name: string } | undefined> };
}

export const geofenceImportFeature: Feature<GeofenceImportNeeds> = {
  name: 'geofence-import',
  collections: SYNC_COLLECTIONS,
  setup(context) {
    const { store, config, logger, geofences, projects, mailer } = context;
    const { guard, sources } = context.geofenceSources;
    const c = config.geofenceImport;
    const importer = new GeofenceImporter(store, geofences, c.maxRows);
    const syncStore = new SyncStore(store);
    const secrets = new SecretBox(c.sync.secretKey, config.dataDir);
    const settings = new SyncSettingsService(syncStore, secrets, guard, c.sync);
    const runner = new SyncRunner({
      store, syncStore, importer, mailer, secrets, sources, logger, config: c.sync,
      projectName: async (id) => (await projects.find(id))?.name ?? id,
    });
    return {
      runtime: new GeofenceImportRuntime(importer, settings, runner, syncStore, mailer),
      routes: [...importRoutes(importer, c.uploadMaxBytes), ...syncRoutes(settings, runner, syncStore)],
      jobs: [{ periodMs: c.sync.checkMs, job: { name: 'geofence-sync', run: (now) => runner.runDue(now) } }],
      stop: () => runner.stop(),
    };
  },
};
