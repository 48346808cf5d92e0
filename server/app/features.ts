// The installed features, in track-pipeline order (a feature's track steps see the events of those
// before it: webhooks must come last so they deliver every event of the update), each with the context
// the composition root builds for it: exactly the ports and config sections its `Needs` names, picked
// one by one here, never the composition's records.
import type { Collection, DocBase } from '../../ports/store';
import type { Logger } from '../../ports/logger';
import type { GatewayConfig } from '../config';
import type { Feature, FeatureInstance } from '../feature';
import type { Adapters } from './adapters';
import type { SharedServices } from './shared-services';
import { analyticsFeature } from '../features/analytics/analytics-feature';
import { beaconsFeature } from '../features/beacons/beacons-feature';
import { fraudFeature } from '../features/fraud/fraud-feature';
import { geocodeFeature } from '../features/geocode/geocode-feature';
import { ipGeocodeFeature } from '../features/geocode/ip-geocode-feature';
import { placesFeature } from '../features/places/places-feature';
import { geofenceImportFeature } from '../features/geofence-import/geofence-import-feature';
import { historyFeature } from '../features/history/history-feature';
import { regionsFeature } from '../features/regions/regions-feature';
import { tripsFeature } from '../features/trips/trips-feature';
import { webhooksFeature } from '../features/webhooks/webhooks-feature';

/** What the composition root built before the features: where each feature's context is picked from. */
export interface BuiltBeforeFeatures {
  config: GatewayConfig;
  logger: Logger;
  adapters: Adapters;
  shared: SharedServices;
}

/** A feature with the function that builds its context. */
export interface FeatureInstallation {
  name: string;
  collections: ReadonlyArray<Collection<DocBase>>;
  install(built: BuiltBeforeFeatures): FeatureInstance | Promise<FeatureInstance>;
}

/** Pairs a feature with its context; the context's type is the feature's own `Needs`, so a missing or extra part does not compile. */
function withContext<Needs>(feature: Feature<Needs>, context: (built: BuiltBeforeFeatures) => NoInfer<Needs>): FeatureInstallation {
  return { name: feature.name, collections: feature.collections ?? [], install: (built) => feature.setup(context(built)) };
}

export const FEATURES: FeatureInstallation[] = [
  // Before trips and webhooks: region events are part of the update they see.
  withContext(regionsFeature, ({ config, adapters, shared }) => ({
    config: { dataDir: config.dataDir, regions: config.regions },
    regions: adapters.regions,
    geofences: shared.geofences,
    places: shared.places,
  })),
  // Before trips and webhooks, like regions: place events are part of the update they see.
  withContext(placesFeature, ({ logger, adapters, shared }) => ({
    places: shared.places,
    geofences: shared.geofences,
    store: adapters.store,
    logger,
  })),
  // Beacon endpoints and the beacons step; before trips and webhooks, which see its events.
  withContext(beaconsFeature, ({ adapters }) => ({ store: adapters.store })),
  withContext(ipGeocodeFeature, ({ adapters }) => ({ ipLocator: adapters.ipLocator, timeZones: adapters.timeZones })),
  withContext(geocodeFeature, ({ adapters, shared }) => ({
    geocoder: adapters.geocoder,
    timeZones: adapters.timeZones,
    ipLocator: adapters.ipLocator,
    geofences: shared.geofences,
  })),
  withContext(tripsFeature, ({ config, logger, adapters, shared }) => ({
    config: { jobIntervalMs: config.jobIntervalMs },
    store: adapters.store,
    geofences: shared.geofences,
    router: adapters.router,
    projects: shared.projects,
    logger,
    outbox: shared.outbox,
  })),
  withContext(geofenceImportFeature, ({ config, logger, adapters, shared }) => ({
    config: { geofenceImport: config.geofenceImport, dataDir: config.dataDir },
    store: adapters.store,
    logger,
    geofences: shared.geofences,
    mailer: adapters.mailer,
    geofenceSources: adapters.geofenceSources,
    projects: shared.projects,
  })),
  // After every other step but webhooks: a held-back update undoes what the steps before it prepared.
  withContext(fraudFeature, ({ logger, adapters }) => ({ store: adapters.store, ipLocator: adapters.ipLocator, logger })),
  // No track step: counts stored events when asked.
  withContext(analyticsFeature, ({ adapters }) => ({ store: adapters.store })),
  // No track step: track writes the history rows itself (history-feature.ts).
  withContext(historyFeature, ({ config, adapters }) => ({ config: { jobIntervalMs: config.jobIntervalMs }, store: adapters.store })),
  // Last: its track step turns every event of the update into outbox rows.
  withContext(webhooksFeature, ({ config, logger, adapters }) => ({
    store: adapters.store,
    config: { webhooks: config.webhooks },
    logger,
  })),
];
