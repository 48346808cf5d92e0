// Regions as a gateway feature: GET /v1/context and the regions step of track. Listed before trips and
// webhooks in features.ts, so region events are in the update when those steps run (webhooks deliver
// them). The Regions adapter comes from the composition root (services.regions); this feature adds the
// watch that reloads boundaries imported while the gateway runs.
import type { Feature } from '../../feature';
import { contextRoutes } from './context-routes';
import { CurrentRegions } from './current-regions';
import { RegionsTrackStep } from './regions-track-step';

export const regionsFeature: Feature = {
  name: 'regions',
  setup(services) {
    const regions = new CurrentRegions(services.regions, {
      dataDir: services.config.dataDir,
      reloadCheckMs: services.config.regions.reloadCheckMs,
    });
    return {
      routes: contextRoutes(services.geofences, regions, services.places),
      trackSteps: [new RegionsTrackStep(regions)],
    };
  },
};
