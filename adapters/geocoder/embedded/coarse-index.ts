// Worldwide coarse answers bundled with Waymark, needing no import: countries, US states and Canadian
// provinces, GeoNames cities (importers/cities), US ZIP and Canadian FSA centroids (the `zipcodes`
// package). "Paris", "Ontario" and "10001" are answered on a fresh install.
import type { GeocodedAddress, GeocodeLayer } from '../../../ports/geocoder';
import { allCaProvinces, caProvinceByCode } from '../../../core/facts/ca-provinces';
import { allCountries } from '../../../core/facts/iso-countries';
import { allUsStates, usStateByCode } from '../../../core/facts/us-states';
import { CA_ADMIN1, geonamesCities, type GeonamesCities } from './geonames-cities';
import { normalizeName } from '../../../core/geocoding/normalize';
import type { ParsedQuery } from '../../../core/geocoding/parse-query';
import { PointGrid } from '../../../core/geocoding/point-grid';
import { compact, point, type Candidate } from './candidate';

interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}
interface ZipcodesModule {
  lookup(zip: string): ZipcodesEntry | undefined;
  codes: Record<string, ZipcodesEntry>;
}

const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US', 'united states of america': 'US', america: 'US', uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB',
  'south korea': 'KR', korea: 'KR', 'north korea': 'KP', russia: 'RU', 'czech republic': 'CZ', holland: 'NL',
};

const ZIP = /^\d{5}$/;
const CA_POSTAL = /^([a-z]\d[a-z])(?: ?(\d[a-z]\d))?$/;

export interface CoarseQuery {
  parsed: ParsedQuery;
  layers: ReadonlySet<GeocodeLayer>;
  countries?: readonly string[];
  lastIsPrefix: boolean;
  limit: number;
}

export class CoarseIndex {
  private readonly countryByName = new Map<string, string>();
  private readonly stateByName = new Map<string, { code: string; country: string; name: string }>();
  private zipcodes?: ZipcodesModule;
  private cities?: GeonamesCities;
  private cityKeys?: string[];
  private cityGrid?: PointGrid;
  private stateCentres?: Map<string, [number, number]>;

  constructor() {
    for (const c of allCountries()) this.countryByName.set(normalizeName(c.name), c.alpha2);
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) this.countryByName.set(alias, code);
    for (const s of allUsStates()) if (!s.territory) this.stateByName.set(normalizeName(s.name), { code: s.code, country: 'US', name: s.name });
    for (const p of allCaProvinces()) this.stateByName.set(normalizeName(p.name), { code: p.code, country: 'CA', name: p.name });
  }

  /** For the query parser: "md", "maryland", "ontario" → state code. */
  stateCode(folded: string): string | undefined {
    if (folded.length === 2) {
      const code = folded.toUpperCase();
      if (usStateByCode(code) !== undefined || caProvinceByCode(code) !== undefined) return code;
      return undefined;
    }
    return this.stateByName.get(normalizeName(folded))?.code;
  }

  /** For the query parser: "usa", "united states", "liechtenstein" → alpha-2. */
  countryCode(folded: string): string | undefined {
    return this.countryByName.get(normalizeName(folded)) ?? (folded === 'us' ? 'US' : undefined);
  }

  private zips(): ZipcodesModule {
    // CommonJS without type declarations; read once.
    this.zipcodes ??= require('zipcodes') as ZipcodesModule;
    return this.zipcodes;
  }

  private geonames(): GeonamesCities {
    this.cities ??= geonamesCities();
    return this.cities;
  }

  search(q: CoarseQuery): Candidate[] {
    const out: Candidate[] = [];
    const text = q.parsed.tokens.join(' ');
    const allowed = (cc: string | undefined): boolean => q.countries === undefined || (cc !== undefined && q.countries.includes(cc));
    if (q.layers.has('postalCode')) out.push(...this.postal(q.parsed, allowed));
    const onlyPlaceWords = q.parsed.number === undefined;
    if (q.layers.has('country') && onlyPlaceWords && text !== '') {
      const code = this.countryByName.get(text) ?? (text.length === 2 && q.parsed.stateCode === undefined ? text.toUpperCase() : undefined);
      if (code !== undefined && allowed(code)) {
        const found = this.country(code);
        if (found !== undefined) out.push({ address: found, score: 60 });
      }
    }
    if (q.layers.has('state') && onlyPlaceWords) {
      const byName = text === '' ? undefined : this.stateByName.get(text);
      const code = byName?.code ?? (text === '' ? q.parsed.stateCode : undefined);
      if (code !== undefined) {
        const found = this.state(code);
        if (found !== undefined && allowed(found.countryCode)) out.push({ address: found, score: 58 });
      }
    }
    if (q.layers.has('locality') && text !== '') out.push(...this.localities(q, text, allowed));
    return out;
  }

  private postal(parsed: ParsedQuery, allowed: (cc: string | undefined) => boolean): Candidate[] {
    const whole = parsed.tokens.length === 1 && parsed.number === undefined ? parsed.tokens[0] : undefined;
    const code = parsed.postalCode?.toLowerCase() ?? (whole !== undefined && (ZIP.test(whole) || CA_POSTAL.test(whole)) ? whole : undefined);
    if (code === undefined || (parsed.postalCode !== undefined && parsed.tokens.length > 0)) return [];
    const ca = CA_POSTAL.exec(code.replace(/\s+/, ''));
    const entry = this.zips().lookup(ca ? ca[1].toUpperCase() : code);
    if (entry === undefined) return [];
    const countryCode = entry.country === 'Canada' ? 'CA' : 'US';
    if (!allowed(countryCode)) return [];
    const stateCode = countryCode === 'CA' ? allCaProvinces().find((p) => p.name === entry.state)?.code : entry.state;
    const state = countryCode === 'CA' ? entry.state : usStateByCode(entry.state)?.name;
    const postalCode = ca ? (ca[2] ? `${ca[1]} ${ca[2]}`.toUpperCase() : ca[1].toUpperCase()) : entry.zip;
    const city = countryCode === 'US' ? entry.city : undefined;
    return [{ address: compact({ ...point(entry.longitude, entry.latitude), layer: 'postalCode', confidence: 'exact', postalCode, city, stateCode, state, countryCode }), score: 62 }];
  }

  private country(code: string): GeocodedAddress | undefined {
    const cities = this.geonames();
    const capital = cities.capitals.get(code);
    if (capital === undefined) return undefined;
    return { ...point(cities.lons[capital], cities.lats[capital]), layer: 'country', confidence: 'exact', countryCode: code };
  }

  private state(code: string): GeocodedAddress | undefined {
    const us = usStateByCode(code);
    const ca = us === undefined ? caProvinceByCode(code) : undefined;
    if (us === undefined && ca === undefined) return undefined;
    const centre = this.stateCentre(code);
    if (centre === undefined) return undefined;
    return { ...point(centre[0], centre[1]), layer: 'state', confidence: 'exact', stateCode: code, state: us?.name ?? ca!.name, countryCode: us !== undefined ? 'US' : 'CA' };
  }

  /** Mean of a state's ZIP (or a province's FSA) centroids: inside the state for all but odd shapes. */
  private stateCentre(code: string): [number, number] | undefined {
    if (this.stateCentres === undefined) {
      const sums = new Map<string, [number, number, number]>();
      for (const e of Object.values(this.zips().codes)) {
        const key = e.country === 'Canada' ? allCaProvinces().find((p) => p.name === e.state)?.code : e.state;
        if (key === undefined || !Number.isFinite(e.latitude)) continue;
        const s = sums.get(key) ?? [0, 0, 0];
        s[0] += e.longitude;
        s[1] += e.latitude;
        s[2]++;
        sums.set(key, s);
      }
      this.stateCentres = new Map([...sums].map(([k, s]) => [k, [s[0] / s[2], s[1] / s[2]]]));
    }
    return this.stateCentres.get(code);
  }

  private localities(q: CoarseQuery, text: string, allowed: (cc: string | undefined) => boolean): Candidate[] {
    const cities = this.geonames();
    let indexes: readonly number[] = cities.byName.get(text) ?? [];
    let prefix = false;
    if (q.lastIsPrefix && indexes.length < q.limit) {
      indexes = [...indexes, ...this.cityPrefix(text, 200)];
      prefix = true;
    }
    const out: Candidate[] = [];
    const seen = new Set<number>();
    for (const i of indexes) {
      if (seen.has(i)) continue;
      seen.add(i);
      const countryCode = cities.countries[i];
      if (!allowed(countryCode)) continue;
      if (q.parsed.countryCode !== undefined && q.parsed.countryCode !== countryCode) continue;
      const stateCode = countryCode === 'US' ? cities.adminCodes[i] : countryCode === 'CA' ? CA_ADMIN1[cities.adminCodes[i]] : undefined;
      if (q.parsed.stateCode !== undefined && stateCode !== q.parsed.stateCode) continue;
      const state = stateCode === undefined ? undefined : (usStateByCode(stateCode)?.name ?? caProvinceByCode(stateCode)?.name);
      const exactName = normalizeName(cities.names[i]) === text;
      const score = 40 + Math.log10(cities.population[i] + 1) * 2 + (exactName ? 5 : 0) - (prefix && !exactName ? 3 : 0);
      out.push({ address: compact({ ...point(cities.lons[i], cities.lats[i]), layer: 'locality', confidence: 'exact', city: cities.names[i], stateCode, state, countryCode }), score });
      if (out.length >= Math.max(q.limit, 10)) break;
    }
    return out;
  }

  /** City indexes whose name starts with `prefix`, most populous first. */
  private cityPrefix(prefix: string, max: number): number[] {
    const cities = this.geonames();
    this.cityKeys ??= [...cities.byName.keys()].sort();
    const keys = this.cityKeys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let k = lo; k < keys.length && keys[k].startsWith(prefix) && found.length < max * 4; k++) found.push(...cities.byName.get(keys[k])!);
    return found.sort((a, b) => cities.population[b] - cities.population[a]).slice(0, max);
  }

  /**
   * The town a point is in, from GeoNames: among the 10 nearest places within `maxMeters`, the one with
   * the best log10(population) minus half a point per kilometre, so a neighbourhood's own entry
   * ("Butcher's Hill") does not hide the city around it (Baltimore).
   */
  nearestCity(lon: number, lat: number, maxMeters: number): { address: GeocodedAddress; meters: number } | undefined {
    const cities = this.geonames();
    this.cityGrid ??= new PointGrid(cities.lons, cities.lats, 0.25);
    let best: [number, number] | undefined;
    let bestScore = -Infinity;
    for (const hit of this.cityGrid.nearest(lon, lat, maxMeters, 10)) {
      const score = Math.log10(cities.population[hit[0]] + 1) - hit[1] / 2000;
      if (score > bestScore) {
        bestScore = score;
        best = hit;
      }
    }
    if (best === undefined) return undefined;
    const i = best[0];
    const countryCode = cities.countries[i];
    const stateCode = countryCode === 'US' ? cities.adminCodes[i] : countryCode === 'CA' ? CA_ADMIN1[cities.adminCodes[i]] : undefined;
    const state = stateCode === undefined ? undefined : (usStateByCode(stateCode)?.name ?? caProvinceByCode(stateCode)?.name);
    return { address: compact({ ...point(cities.lons[i], cities.lats[i]), layer: 'locality', city: cities.names[i], stateCode, state, countryCode }), meters: best[1] };
  }
}
