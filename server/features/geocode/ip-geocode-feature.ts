// IP geocoding as a gateway feature: GET /v1/geocode/ip over the IP locator the composition root built
// (databases from WAYMARK_IP_CITY_DATABASES / WAYMARK_IP_ANONYMOUS_DATABASE, docs/data-regions.md).
import type { Feature } from '../../feature';
import type { IpLocator } from '../../../ports/ip-locator';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import { ipGeocodeRoutes } from './ip-geocode-routes';

export const ipGeocodeFeature: Feature<{ ipLocator: IpLocator; timeZones: TimeZoneLookup }> = {
  name: 'ip-geocode',
  setup(context) {
    return { routes: ipGeocodeRoutes(context.ipLocator, context.timeZones) };
  },
};
