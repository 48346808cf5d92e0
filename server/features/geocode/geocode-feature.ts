// Geocoding as a gateway feature: forward, reverse, autocomplete and address validation over the
// geocoder WAYMARK_GEOCODER selects (docs/geocoding.md): the embedded one (imported extracts plus
// bundled coarse data) or a Pelias API.
import type { Geocoder } from '../../../ports/geocoder';
import { PeliasGeocoder } from '../../../adapters/geocoder/pelias/pelias-geocoder';
import type { Feature, Services } from '../../feature';
import { AddressValidator } from './address-validation';
import { CoarseIndex } from '../../../adapters/geocoder/embedded/coarse-index';
import { EmbeddedGeocoder } from '../../../adapters/geocoder/embedded/embedded-geocoder';
import { ExtractIndexes } from '../../../adapters/geocoder/embedded/extract-indexes';
import { geofenceAddressPlacer } from './geofence-address';
import { GeocodeService } from './geocode-service';
import { geocodeRoutes } from './geocode-routes';

export function createGeocoder(services: Pick<Services, 'config' | 'regions' | 'logger' | 'extracts'>): { geocoder: Geocoder; stop(): Promise<void> } {
  const { geocoding } = services.config;
  if (geocoding.engine === 'pelias') {
    const pelias = new PeliasGeocoder({ url: geocoding.peliasUrl!, timeoutMs: geocoding.peliasTimeoutMs });
    return { geocoder: pelias, stop: () => pelias.close() };
  }
  const extracts = new ExtractIndexes(services.extracts, services.logger);
  return {
    geocoder: new EmbeddedGeocoder({ extracts, coarse: new CoarseIndex(), regions: services.regions }),
    stop: async () => extracts.close(),
  };
}

export const geocodeFeature: Feature = {
  name: 'geocode',
  setup(services) {
    const { geocoder, stop } = createGeocoder(services);
    const service = new GeocodeService(geocoder, services.timeZones);
    services.geofences.placeAddressesWith(geofenceAddressPlacer(geocoder));
    return { routes: geocodeRoutes(service, new AddressValidator(geocoder), services.ipLocator), stop };
  },
};
