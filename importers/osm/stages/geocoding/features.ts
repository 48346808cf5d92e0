// What the geocoding stage keeps of the extract, before admin lookup and indexing: plain records.
import type { AddressTags } from './address-tags';
import type { Translations } from './name-translations';

export interface AddressPoint extends AddressTags {
  number: string;
  street: string;
  lon: number;
  lat: number;
  /** Name of the POI or building carrying the address, if any. */
  name?: string;
}

export interface NamedStreet {
  name: string;
  /** Its name in Radar's other languages, where mapped (name:xx). */
  names?: Translations;
  /** [lon, lat, lon, lat, …] of the way. */
  coords: Float64Array;
}

export interface NamedPlace extends AddressTags {
  name: string;
  /** Its name in Radar's other languages, where mapped (name:xx). */
  names?: Translations;
  /** The tag that made it a place ("amenity=school"). */
  kind: string;
  lon: number;
  lat: number;
}

export interface InterpolationLine {
  street?: string;
  /** "odd", "even", "all" or a numeric step. */
  scheme: string;
  /** End points' house numbers and the way's coordinates. */
  firstNumber: string;
  lastNumber: string;
  coords: Float64Array;
  postalCode?: string;
  city?: string;
}
