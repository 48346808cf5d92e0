// Geofence CSV import and nightly sync as a gateway feature: the upload endpoint, the sync settings
// and run endpoints, their collections, the nightly job and the mailer. The CLI reaches the same
// services through geofenceImportOf() (the instance's runtime, no state kept beside the gateway).
import { fetchHttpCsv } from '../../../adapters/geofence-sources/http-source';
import { CheckedHttp } from '../../../adapters/outbound-http/checked-http';
import type { CsvSources } from '../../../ports/geofence-sources';
import { fetchS3Csv } from '../../../adapters/geofence-sources/s3-source';
import type { Mailer } from '../../../ports/mailer';
import { SmtpMailer, UnconfiguredMailer } from '../../../adapters/mailer/smtp-mailer';
import { installedRuntime, type Feature, type InstalledFeatures } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Geofences } from '../../../ports/geofences';
import type { Logger } from '../../../ports/logger';
import type { Store } from '../../../ports/store';
import { syncAddressGuard } from './address-guard';
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

function createMailer(smtp: GatewayConfig['geofenceImport']['smtp']): Mailer {
  if (!smtp.host) return new UnconfiguredMailer('mail is not configured on this gateway (WAYMARK_SMTP_HOST is unset)');
  return new SmtpMailer({ ...smtp, host: smtp.host });
}

interface GeofenceImportNeeds {
  config: Pick<GatewayConfig, 'geofenceImport' | 'dataDir'>;
  store: Store;
  logger: Logger;
  geofences: Geofences;
  /** A project's name for the sync report mails. */
  projects: { find(id: string): Promise<{ name: string } | undefined> };
}

export const geofenceImportFeature: Feature<GeofenceImportNeeds> = {
  name: 'geofence-import',
  collections: SYNC_COLLECTIONS,
  setup(services) {
    const { store, config, logger, geofences, projects } = services;
    const c = config.geofenceImport;
    const importer = new GeofenceImporter(store, geofences, c.maxRows);
    const syncStore = new SyncStore(store);
    const secrets = new SecretBox(c.sync.secretKey, config.dataDir);
    const guard = syncAddressGuard({ allowPrivate: c.sync.allowPrivate, allowedNetworks: c.sync.allowedNetworks });
    const mailer = createMailer(c.smtp);
    const outbound = new CheckedHttp({ guard, connectTimeoutMs: c.sync.timeoutMs });
    const settings = new SyncSettingsService(syncStore, secrets, guard, c.sync);
    const sources: CsvSources = {
      // Downloads close their connection when done (keepAlive false): the connector holds nothing between syncs.
      http: (url, limits) => fetchHttpCsv(url, { ...limits, client: outbound }),
      s3: (location, limits) => fetchS3Csv(location, { ...limits, endpoint: c.sync.s3Endpoint, forcePathStyle: c.sync.s3ForcePathStyle }),
    };
    const runner = new SyncRunner({
      store, syncStore, importer, mailer, secrets, sources, logger, config: c.sync,
      projectName: async (id) => (await projects.find(id))?.name ?? id,
    });
    return {
      runtime: new GeofenceImportRuntime(importer, settings, runner, syncStore, mailer),
      routes: [...importRoutes(importer, c.uploadMaxBytes), ...syncRoutes(settings, runner, syncStore)],
      jobs: [{ periodMs: c.sync.checkMs, job: { name: 'geofence-sync', run: (now) => runner.runDue(now) } }],
      stop: async () => {
        await runner.stop();
        await mailer.close();
      },
    };
  },
};
