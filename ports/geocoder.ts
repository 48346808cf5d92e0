// The Geocoder port: forward, reverse and autocomplete geocoding answered in Radar's address shape.
// Implementations: the embedded index built by `waymark data import` plus bundled coarse data
// (adapters/geocoder/embedded/), and a Pelias HTTP client (pelias/). The gateway adds what needs no
// geocoder (timeZone) and filters nothing further: layers, countries and limits are the adapter's job.

/** Radar's layers; `coarse` and `fine` are expanded by the caller. */
export const GEOCODE_LAYERS = ['place', 'address', 'postalCode', 'locality', 'county', 'state', 'country'] as const;
export type GeocodeLayer = (typeof GEOCODE_LAYERS)[number];

/** Radar's `lang` values (spec "Geocoding"): the languages an answer can be asked in. */
export const GEOCODE_LANGUAGES = ['ar', 'de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru', 'zh'] as const;
export type GeocodeLanguage = (typeof GEOCODE_LANGUAGES)[number];

export type Confidence = 'exact' | 'interpolated' | 'fallback';

/** One answer, Radar's address fields (timeZone excepted). Absent fields are left out, never null. */
export interface GeocodedAddress {
  latitude: number;
  longitude: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  country?: string;
  countryCode?: string;
  countryFlag?: string;
  county?: string;
  confidence?: Confidence;
  borough?: string;
  city?: string;
  number?: string;
  unit?: string;
  neighborhood?: string;
  postalCode?: string;
  stateCode?: string;
  state?: string;
  street?: string;
  layer: GeocodeLayer;
  formattedAddress?: string;
  addressLabel?: string;
  placeLabel?: string;
  /** Metres from the reverse point or the autocomplete `near`. */
  distance?: number;
}

export interface ForwardQuery {
  query: string;
  layers: ReadonlySet<GeocodeLayer>;
  /** ISO alpha-2 codes, upper case; undefined: anywhere. */
  countries?: readonly string[];
  /**
   * Answer language (ar, de, en, …): names in it where the data has them (OSM `name:xx`), else as
   * mapped. Undefined: names as mapped.
   */
  lang?: GeocodeLanguage;
  limit: number;
  /** [lng, lat] to prefer nearer answers. */
  near?: [number, number];
}

export interface AutocompleteQuery extends ForwardQuery {}

export interface ReverseQuery {
  point: [number, number];
  layers: ReadonlySet<GeocodeLayer>;
  lang?: GeocodeLanguage;
  limit: number;
}

export interface Geocoder {
  readonly name: string;
  forward(q: ForwardQuery): Promise<GeocodedAddress[]>;
  reverse(q: ReverseQuery): Promise<GeocodedAddress[]>;
  autocomplete(q: AutocompleteQuery): Promise<GeocodedAddress[]>;
  close?(): Promise<void>;
}
