// The `timeZone` object of an address result (spec "Geocoding": id, name, code, currentTime,
// utcOffset, dstOffset). One builder for every address Waymark returns (IP geocode now; forward and
// reverse geocoding reuse it), so they agree on zones and offsets.
import type { TimeZoneLookup } from '../../../ports/time-zones';
import { timeZoneObject, type TimeZoneObject } from '../../../core/time-zone';
import type { LngLat } from '../../../core/types';

/**
 * Radar's timeZone object for an address at `point` ([lng, lat]) at instant `now`. `knownZone` is a
 * zone the source already gave (an IP database's); one Intl does not know is replaced by the zone at
 * the point. undefined when neither gives a zone.
 */
export function addressTimeZone(zones: TimeZoneLookup, point: LngLat, now: Date, knownZone?: string): TimeZoneObject | undefined {
  const known = knownZone === undefined ? undefined : timeZoneObject(knownZone, now);
  if (known !== undefined) return known;
  const id = zones.zoneAt(point);
  return id === undefined ? undefined : timeZoneObject(id, now);
}
