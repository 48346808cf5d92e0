// Places as a gateway feature: GET /v1/search/places and the places step of track. The places
// themselves (services.places) come from the composition root, since context, SDK region sync and
// geofences read them too. Listed before trips and webhooks so place events are delivered.
import type { Feature } from '../../feature';
import { PlacesTrackStep } from './places-track-step';
import { searchPlacesRoutes } from './search-places-routes';

export const placesFeature: Feature = {
  name: 'places',
  setup(services) {
    return {
      routes: searchPlacesRoutes(services.places),
      trackSteps: [new PlacesTrackStep(services.places)],
    };
  },
};
