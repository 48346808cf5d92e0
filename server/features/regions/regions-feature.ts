// Regions as a gateway feature: GET /v1/context and the regions step of track. Listed before trips and
// webhooks in features.ts, so region events are in the update when those steps run (webhooks deliver
// them). The Regions adapter comes from the composition root (context.regions); this feature adds the
// watch that reloads boundaries imported while the gateway runs.
import type { Feature } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Geofences } from '../../../ports/geofences';
import type { PlaceViews } from '../../../ports/places';
import { contextRoutes } from './context-routes';
import { CurrentRegions, type ReloadableRegions } from './current-regions';
import { RegionsTrackStep } from './regions-track-step';

interface RegionsNeeds {
  config: Pick<GatewayConfig, 'dataDir' | 'regions'>;
  regions: ReloadableRegions;
  geofences: Geofences;
  places: PlaceViews;
}

export const regionsFeature: Feature<RegionsNeeds> = {
  name: 'regions',
  setup(context) {
    const regions = new CurrentRegions(context.regions, {
      dataDir: context.config.dataDir,
      reloadCheckMs: context.config.regions.reloadCheckMs,
    });
    return {
      routes: contextRoutes(context.geofences, regions, context.places),
      trackSteps: [new RegionsTrackStep(regions)],
    };
  },
};
