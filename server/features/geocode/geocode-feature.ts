// Geocoding as a gateway feature: forward, reverse, autocomplete and address validation over the
// geocoder WAYMARK_GEOCODER selects (docs/geocoding.md): the embedded one (imported extracts plus
// bundled coarse data) or a Pelias API.
import type { Geocoder } from '../../../ports/geocoder';
import { PeliasGeocoder } from '../../../adapters/geocoder/pelias/pelias-geocoder';
import type { Feature } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Geofences } from '../../../ports/geofences';
import type { IpLocator } from '../../../ports/ip-locator';
import type { Logger } from '../../../ports/logger';
import type { RegionLookup } from '../../../ports/regions';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import type { ExtractCatalog } from '../../../adapters/extracts/extract-catalog';
import { AddressValidator } from './address-validation';
import { CoarseIndex } from '../../../adapters/geocoder/embedded/coarse-index';
import { EmbeddedGeocoder } from '../../../adapters/geocoder/embedded/embedded-geocoder';
import { ExtractIndexes } from '../../../adapters/geocoder/embedded/extract-indexes';
import { geofenceAddressPlacer } from './geofence-address';
import { GeocodeService } from './geocode-service';
import { geocodeRoutes } from './geocode-routes';

interface GeocoderNeeds {
  config: Pick<GatewayConfig, 'geocoding'>;
  regions: RegionLookup;
  logger: Logger;
  extracts: ExtractCatalog;
}

interface GeocodeNeeds extends GeocoderNeeds {
  timeZones: TimeZoneLookup;
  ipLocator: IpLocator;
  geofences: Geofences;
}

export function createGeocoder(services: GeocoderNeeds): { geocoder: Geocoder; stop(): Promise<void> } {
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

export const geocodeFeature: Feature<GeocodeNeeds> = {
  name: 'geocode',
  setup(services) {
    const { geocoder, stop } = createGeocoder(services);
    const service = new GeocodeService(geocoder, services.timeZones);
    services.geofences.placeAddressesWith(geofenceAddressPlacer(geocoder));
    return { routes: geocodeRoutes(service, new AddressValidator(geocoder), services.ipLocator), stop };
  },
};
