// Geocoding as a gateway feature: forward, reverse, autocomplete and address validation over the
// geocoder the composition root chose (WAYMARK_GEOCODER, docs/geocoding.md; server/app/adapters.ts).
import type { Geocoder } from '../../../ports/geocoder';
import type { Feature } from '../../feature';
import type { Geofences } from '../../../ports/geofences';
import type { IpLocator } from '../../../ports/ip-locator';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import { AddressValidator } from './address-validation';
import { geofenceAddressPlacer } from './geofence-address';
import { GeocodeService } from './geocode-service';
import { geocodeRoutes } from './geocode-routes';

interface GeocodeNeeds {
  geocoder: Geocoder;
  timeZones: TimeZoneLookup;
  ipLocator: IpLocator;
  geofences: Geofences;
}

export const geocodeFeature: Feature<GeocodeNeeds> = {
  name: 'geocode',
  setup({ geocoder, timeZones, ipLocator, geofences }) {
    const service = new GeocodeService(geocoder, timeZones);
    geofences.placeAddressesWith(geofenceAddressPlacer(geocoder));
    return { routes: geocodeRoutes(service, new AddressValidator(geocoder), ipLocator) };
  },
};
