// An answer on its way to the caller, with the score that orders it. Higher is better.
import type { GeocodedAddress } from '../../../ports/geocoder';
import type { ExtractIndex } from './extract-index';

export interface Candidate {
  address: GeocodedAddress;
  score: number;
  /** The extract index it came from, which knows its names in other languages; none for bundled data. */
  source?: ExtractIndex;
}

export function point(lon: number, lat: number): Pick<GeocodedAddress, 'latitude' | 'longitude' | 'geometry'> {
  const longitude = round6(lon);
  const latitude = round6(lat);
  return { latitude, longitude, geometry: { type: 'Point', coordinates: [longitude, latitude] } };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Drops undefined and null fields: Radar leaves unknown fields out. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) {
    if (value[key] === undefined || value[key] === null) delete value[key];
  }
  return value;
}
