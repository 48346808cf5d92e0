// Places as a gateway feature: GET /v1/search/places, the places step of track, geofences made from a
// placeId (their geometry at write time, and again after every reload of the places). The places
// themselves (context.places) come from the composition root, since context, SDK region sync and
// geofences read them too. Listed before trips and webhooks so place events are delivered.
import type { Feature } from '../../feature';
import type { Store } from '../../../ports/store';
import type { Logger } from '../../../ports/logger';
import type { Geofences } from '../../../ports/geofences';
import type { PlacesService } from './places-service';
import { placeGeofenceShape } from '../../../core/places/place-area';
import { followPlaces } from './place-geofences';
import { PlacesTrackStep } from './places-track-step';
import { searchPlacesRoutes } from './search-places-routes';

export const placesFeature: Feature<{ places: PlacesService; geofences: Geofences; store: Store; logger: Logger }> = {
  name: 'places',
  setup(context) {
    const { places, geofences, store, logger } = context;
    geofences.placeShape = (placeId) => {
      const place = places.get(placeId, new Date());
      return place ? placeGeofenceShape(place) : undefined;
    };
    let following: Promise<void> = Promise.resolve();
    places.current.onReload((index) => {
      // No places: nothing to follow (geofences whose place is gone keep their geometry).
      if (index.size === 0) return;
      // One pass at a time, in reload order; a failure is logged and the next reload tries again.
      following = following.then(async () => {
        try {
          const n = await followPlaces(store, geofences, index, new Date());
          if (n > 0) logger.info('place geofences follow their places', { updated: n });
        } catch (err) {
          logger.warn('place geofences not updated', { error: (err as Error).message });
        }
      });
    });
    return {
      routes: searchPlacesRoutes(places),
      trackSteps: [new PlacesTrackStep(places)],
      stop: () => following,
    };
  },
};
