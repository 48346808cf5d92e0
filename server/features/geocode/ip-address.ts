// An IP locator's answer as a Radar address (IP geocode's `address`): the fields the database has,
// named as Radar names them, plus geometry and the timeZone object. Fields the database lacks are
// absent rather than null or empty (DB-IP Lite has no postal codes, for one).
import type { IpLocation } from '../../../ports/ip-locator';
import type { TimeZoneObject } from '../../../core/time-zone';

const TEXT_FIELDS = ['country', 'countryCode', 'countryFlag', 'state', 'stateCode', 'city', 'postalCode', 'dmaCode'] as const;

export function ipAddress(location: IpLocation, timeZone: TimeZoneObject | undefined): Record<string, unknown> {
  const { latitude, longitude } = location;
  const out: Record<string, unknown> = { latitude, longitude, geometry: { type: 'Point', coordinates: [longitude, latitude] } };
  for (const field of TEXT_FIELDS) {
    const value = location[field];
    if (value !== undefined && value !== '') out[field] = value;
  }
  if (timeZone !== undefined) out.timeZone = timeZone;
  return out;
}
