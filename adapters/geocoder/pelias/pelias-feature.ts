// A Pelias GeoJSON feature turned into Radar's address shape. Pelias layers map onto Radar's
// (venue → place, region → state, postalcode → postalCode…); `match_type` gives the confidence where
// the Pelias version reports it (exact / interpolated / fallback, the same three words as Radar's).
import { allCountries } from '../../../core/facts/iso-countries';
import { completeAddress } from '../address-format';
import type { Confidence, GeocodedAddress, GeocodeLayer } from '../../../ports/geocoder';

export interface PeliasFeature {
  geometry?: { type?: string; coordinates?: unknown };
  properties?: Record<string, unknown>;
}

const LAYER: Readonly<Record<string, GeocodeLayer>> = {
  venue: 'place', address: 'address', street: 'address', postalcode: 'postalCode',
  neighbourhood: 'locality', borough: 'locality', locality: 'locality', localadmin: 'locality',
  county: 'county', macrocounty: 'county', region: 'state', macroregion: 'state', dependency: 'country', country: 'country',
};

/** Radar layer → the Pelias layers that answer it. */
export const PELIAS_LAYERS: Readonly<Record<GeocodeLayer, readonly string[]>> = {
  place: ['venue'], address: ['address', 'street'], postalCode: ['postalcode'], locality: ['locality', 'localadmin', 'borough', 'neighbourhood'],
  county: ['county', 'macrocounty'], state: ['region', 'macroregion'], country: ['country', 'dependency'],
};

let countryByName: Map<string, string> | undefined;

function alpha2(props: Record<string, unknown>): string | undefined {
  const code = text(props.country_code);
  if (code !== undefined && /^[A-Za-z]{2}$/.test(code)) return code.toUpperCase();
  countryByName ??= new Map(allCountries().map((c) => [c.name.toLowerCase(), c.alpha2]));
  const name = text(props.country)?.toLowerCase();
  return name === undefined ? undefined : countryByName.get(name);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** undefined for a feature without a usable point or with a layer Radar has no name for. */
export function peliasToAddress(f: PeliasFeature): GeocodedAddress | undefined {
  const c = f.geometry?.coordinates;
  if (!Array.isArray(c) || typeof c[0] !== 'number' || typeof c[1] !== 'number' || !Number.isFinite(c[0]) || !Number.isFinite(c[1])) return undefined;
  const p = f.properties ?? {};
  const layer = LAYER[text(p.layer) ?? ''];
  if (layer === undefined) return undefined;
  const [longitude, latitude] = c as [number, number];
  const match = text(p.match_type);
  const confidence: Confidence | undefined = match === 'exact' || match === 'interpolated' || match === 'fallback' ? match : text(p.accuracy) === 'centroid' && layer === 'address' ? 'fallback' : 'exact';
  const countryCode = alpha2(p);
  const region = text(p.region_a);
  const a: GeocodedAddress = {
    latitude, longitude, geometry: { type: 'Point', coordinates: [longitude, latitude] },
    layer, confidence, countryCode, country: text(p.country),
    state: text(p.region), stateCode: region !== undefined && region.length <= 3 ? region : undefined,
    county: text(p.county), city: text(p.locality) ?? text(p.localadmin), borough: text(p.borough), neighborhood: text(p.neighbourhood),
    postalCode: text(p.postalcode), number: text(p.housenumber), street: text(p.street),
  };
  if (layer === 'place') a.placeLabel = text(p.name);
  if (typeof p.distance === 'number' && Number.isFinite(p.distance)) a.distance = Math.round(p.distance * 1000);
  for (const k of Object.keys(a) as Array<keyof GeocodedAddress>) if (a[k] === undefined) delete a[k];
  return completeAddress(a);
}
