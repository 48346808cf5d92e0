// Radar's labels for an address: `addressLabel` ("20 Jay St"), `formattedAddress` ("20 Jay St,
// Brooklyn, New York, NY 11201 USA" with borough Brooklyn in the city of New York) and `countryFlag`. Shared by every geocoder adapter so their
// answers read alike.
import { countryByAlpha2, flagEmoji } from '../../core/facts/iso-countries';
import type { GeocodedAddress } from '../../ports/geocoder';

/** Number before the street in North America and in most of the English-speaking world; after it elsewhere. */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'LU', 'MX', 'IL', 'ZA', 'IN', 'SG', 'PH', 'MY', 'JP']);

export function addressLabel(a: Pick<GeocodedAddress, 'number' | 'street' | 'countryCode' | 'unit'>): string | undefined {
  if (a.street === undefined) return undefined;
  const line = a.number === undefined ? a.street : a.countryCode !== undefined && !NUMBER_FIRST.has(a.countryCode) ? `${a.street} ${a.number}` : `${a.number} ${a.street}`;
  return a.unit === undefined ? line : `${line} ${a.unit}`;
}

/** Radar's field order: position first, then the address parts, then labels. */
const FIELD_ORDER: ReadonlyArray<keyof GeocodedAddress> = [
  'latitude', 'longitude', 'geometry', 'country', 'countryCode', 'countryFlag', 'county', 'confidence', 'distance', 'borough', 'city',
  'number', 'unit', 'neighborhood', 'postalCode', 'stateCode', 'state', 'street', 'layer', 'formattedAddress', 'addressLabel', 'placeLabel',
];

/** Fills countryFlag, country, addressLabel and formattedAddress from the other fields; Radar's key order. */
export function completeAddress(a: GeocodedAddress): GeocodedAddress {
  fill(a);
  const out: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (a[key] !== undefined) out[key] = a[key];
  for (const [key, value] of Object.entries(a)) if (!(key in out) && value !== undefined) out[key] = value;
  return out as unknown as GeocodedAddress;
}

function fill(a: GeocodedAddress): void {
  if (a.countryCode !== undefined) {
    a.countryFlag ??= flagEmoji(a.countryCode);
    a.country ??= countryByAlpha2(a.countryCode)?.name;
  }
  const label = addressLabel(a);
  if (label !== undefined) a.addressLabel ??= label;
  a.formattedAddress ??= formatted(a, label);
}

function formatted(a: GeocodedAddress, label: string | undefined): string | undefined {
  const parts: string[] = [];
  if (a.placeLabel !== undefined && a.layer === 'place' && label === undefined) parts.push(a.placeLabel);
  if (label !== undefined) parts.push(label);
  const town = a.borough ?? a.city;
  const usLike = a.countryCode === 'US' || a.countryCode === 'CA';
  if (usLike) {
    // "20 Jay St, Brooklyn, New York, NY 11201 USA": borough, then city when it differs; the state by
    // its code only ("Baltimore, MD 21205 USA", not "Baltimore, Maryland, MD"), unless it is the state.
    const towns = a.layer === 'locality' ? [a.city] : [a.borough, a.city === a.borough ? undefined : a.city];
    for (const t of towns) if (t !== undefined) parts.push(t);
    if (a.layer === 'state' && a.state !== undefined) parts.push(a.state);
    const tail = [a.layer === 'state' ? undefined : a.stateCode, a.postalCode].filter((v) => v !== undefined).join(' ');
    const country = a.countryCode === 'US' ? 'USA' : 'CAN';
    if (tail !== '') parts.push(`${tail} ${country}`);
    else parts.push(a.layer === 'country' ? (a.country ?? country) : country);
  } else {
    const place = [a.postalCode, a.layer === 'postalCode' ? undefined : town].filter((v) => v !== undefined).join(' ');
    if (place !== '') parts.push(place);
    if (a.layer === 'state' && a.state !== undefined) parts.push(a.state);
    if (a.country !== undefined) parts.push(a.country);
  }
  const text = parts.join(', ');
  return text === '' ? undefined : text;
}
