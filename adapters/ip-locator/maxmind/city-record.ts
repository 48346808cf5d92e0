/**
 * What a city database says about one network, read from either record layout:
 * - MaxMind GeoIP2 / GeoLite2 City: nested objects with localized `names`
 *   (`country.iso_code`, `subdivisions[0].iso_code`, `location.latitude`, ...);
 * - ip-location-db (DB-IP Lite, GeoLite2 re-packs): flat fields `country_code`,
 *   `state1`, `state2`, `city`, `postcode`, `latitude`, `longitude`, `timezone`,
 *   empty strings for unknowns.
 */
export interface CityRecord {
  countryCode?: string;
  countryName?: string;
  stateName?: string;
  /** Only the nested layout carries subdivision codes. */
  stateIsoCode?: string;
  city?: string;
  postalCode?: string;
  latitude?: number;
  longitude?: number;
  accuracyRadius?: number;
  timeZone?: string;
  metroCode?: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const englishName = (v: unknown): string | undefined => (isObject(v) && isObject(v.names) ? text(v.names.en) : undefined);

export function readCityRecord(record: unknown): CityRecord | undefined {
  if (!isObject(record)) return undefined;
  if ('country_code' in record || 'state1' in record) return readFlat(record);
  return readNested(record);
}

function readNested(r: Json): CityRecord {
  const country = isObject(r.country) ? r.country : isObject(r.registered_country) ? r.registered_country : undefined;
  const subdivision = Array.isArray(r.subdivisions) && isObject(r.subdivisions[0]) ? r.subdivisions[0] : undefined;
  const location = isObject(r.location) ? r.location : {};
  const postal = isObject(r.postal) ? r.postal : {};
  const metro = finite(location.metro_code);
  return {
    countryCode: country && text(country.iso_code),
    countryName: englishName(country),
    stateName: englishName(subdivision),
    stateIsoCode: subdivision && text(subdivision.iso_code),
    city: englishName(r.city),
    postalCode: text(postal.code),
    latitude: finite(location.latitude),
    longitude: finite(location.longitude),
    accuracyRadius: finite(location.accuracy_radius),
    timeZone: text(location.time_zone),
    metroCode: metro === undefined ? undefined : String(metro),
  };
}

function readFlat(r: Json): CityRecord {
  return {
    countryCode: text(r.country_code),
    stateName: text(r.state1),
    city: text(r.city),
    postalCode: text(r.postcode),
    latitude: finite(r.latitude),
    longitude: finite(r.longitude),
    timeZone: text(r.timezone),
  };
}
