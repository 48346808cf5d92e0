// Geocoding as the API answers it: the configured Geocoder's addresses plus their timeZone object. An
// engine that fails (Pelias down, an unreadable index) is a 503 naming it, never a 500.
import type { AutocompleteQuery, ForwardQuery, GeocodedAddress, Geocoder, ReverseQuery } from '../../../ports/geocoder';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import type { TimeZoneObject } from '../../../core/time-zone';
import { EngineUnavailable } from '../../http/errors';
import { addressTimeZone } from './address-time-zone';

export type ApiAddress = GeocodedAddress & { timeZone?: TimeZoneObject };

export class GeocodeService {
  constructor(
    readonly geocoder: Geocoder,
    private readonly zones: TimeZoneLookup,
  ) {}

  forward(q: ForwardQuery, now: Date): Promise<ApiAddress[]> {
    return this.run(() => this.geocoder.forward(q), now, true);
  }

  reverse(q: ReverseQuery, now: Date): Promise<ApiAddress[]> {
    return this.run(() => this.geocoder.reverse(q), now, true);
  }

  /** Autocomplete answers carry no timeZone in Radar's, and skip the zone lookup per suggestion. */
  autocomplete(q: AutocompleteQuery, now: Date): Promise<ApiAddress[]> {
    return this.run(() => this.geocoder.autocomplete(q), now, false);
  }

  private async run(call: () => Promise<GeocodedAddress[]>, now: Date, withZone: boolean): Promise<ApiAddress[]> {
    let found: GeocodedAddress[];
    try {
      found = await call();
    } catch (err) {
      throw new EngineUnavailable(`geocoder (${this.geocoder.name})`, err instanceof Error ? err.message : String(err));
    }
    if (!withZone) return found;
    return found.map((a) => {
      const timeZone = addressTimeZone(this.zones, [a.longitude, a.latitude], now);
      return timeZone === undefined ? a : { ...a, timeZone };
    });
  }
}
