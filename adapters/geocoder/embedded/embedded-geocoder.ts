// The embedded geocoder: the imported extracts' indexes for addresses, streets and places, the bundled
// coarse data for postal codes, cities, states and countries, joined by the pure query understanding
// and matching of core/geocoding. Every candidate gets a score; the best `limit` are answered.
//
//   address found with its number            exact          100 + name and town agreement
//   number between known ones / on a line    interpolated    90 + …
//   street without that number               fallback        60 + … (45 + … when no number was asked)
//   named place                              exact           70 + …
//   postal code, city, state, country        exact           40…62 (cities by population)
//   address query, nothing but its town      fallback
//
// Issue 32: places match on part of their name; while typing a house number in European order
// ("Hagstrasse 1") the numbers it begins are offered too, nearest first; when no street is spelt
// right, a second pass forgives one or two letters in longer words (below any exact match); one place
// found twice within PLACE_TWIN_METERS (its node and its building) is answered once. A number mapped
// at many points (a building's shops) answers the one in their middle first when no unit is asked.
//
// `lang`: streets, places and admin areas are found by their names in other languages too (OSM
// name:xx, index version 3) and, when a language is asked, answered in it where the map has the name,
// else as mapped. Bundled coarse data (GeoNames, regions) stays as it is.
import type { AutocompleteQuery, ForwardQuery, GeocodedAddress, Geocoder, GeocodeLanguage, GeocodeLayer, ReverseQuery } from '../../../ports/geocoder';
import { completeAddress } from '../address-format';
import type { RegionLookup } from '../../../ports/regions';
import type { AdminRow } from '../../../core/formats/geocoding-index';
import { MAX_INTERPOLATION_GAP, numberFraction, onInterpolation, pointAlong } from '../../../core/geocoding/interpolate';
import { adminAgreement, matchName, matchPlaceName, type NameMatch } from '../../../core/geocoding/match-name';
import { foldText, houseNumberValue, nameTokens, normalizeName } from '../../../core/geocoding/normalize';
import { parseQuery, type ParsedQuery } from '../../../core/geocoding/parse-query';
import { haversineMeters } from '../../../core/geo/sphere';
import { compact, point, type Candidate } from './candidate';
import type { CoarseIndex } from './coarse-index';
import { ftsAny, ftsTypos, type AddressRow, type ExtractIndex, type NameRow, type StreetRow } from './extract-index';

/** Streets tried per query after scoring: the best few are enough, the rest only cost lookups. */
const STREETS_TRIED = 5;
/**
 * Distinct names whose rows are fetched, best name match first: a region repeats each name in many
 * towns, and the index hands back only the rows of a name in the towns the query names or nearest it.
 */
const NAMES_EXPANDED = 10;
/** Reverse: addresses farther than this are not "at" the point; coarse answers take over. */
const REVERSE_ADDRESS_METERS = 500;
const REVERSE_CITY_METERS = 30_000;
/** An address without a town takes the nearest GeoNames city within this distance. */
const CITY_FILL_METERS = 15_000;
/** Completion (state from regions, town from GeoNames) is cached per cell of this size, about 500 m. */
const FILL_CELL_DEGREES = 0.005;
const FILL_CACHE_MAX = 100_000;
/** The same name this close is one place mapped twice (a node and its building outline). */
const PLACE_TWIN_METERS = 300;
/** House numbers offered for one being typed, per street. */
const NUMBERS_COMPLETED = 20;

interface Fill {
  countryCode?: string;
  state?: string;
  stateCode?: string;
  city?: string;
  cityCountry?: string;
}

export interface EmbeddedGeocoderOptions {
  extracts: { current(): ExtractIndex[] };
  coarse: CoarseIndex;
  regions?: RegionLookup;
}

export class EmbeddedGeocoder implements Geocoder {
  readonly name = 'embedded';

  private readonly fills = new Map<string, Fill>();

  constructor(private readonly opts: EmbeddedGeocoderOptions) {}

  async forward(q: ForwardQuery): Promise<GeocodedAddress[]> {
    return this.search(q, false);
  }

  async autocomplete(q: AutocompleteQuery): Promise<GeocodedAddress[]> {
    return this.search(q, true);
  }

  async reverse(q: ReverseQuery): Promise<GeocodedAddress[]> {
    const [lon, lat] = q.point;
    const found: Candidate[] = [];
    for (const index of this.opts.extracts.current()) {
      if (q.layers.has('address')) {
        for (const [row, meters] of index.nearestAddresses(lon, lat, REVERSE_ADDRESS_METERS, q.limit)) {
          found.push({ address: { ...addressOf(row, 'exact'), distance: Math.round(meters) }, score: -meters, source: index });
        }
      }
      if (q.layers.has('place')) {
        for (const [row, meters] of index.nearestPlaces(lon, lat, REVERSE_ADDRESS_METERS, q.limit)) {
          found.push({ address: { ...adminOf(row), ...point(row.lon, row.lat), layer: 'place', placeLabel: row.name, number: row.number ?? undefined, street: row.street_name ?? undefined, distance: Math.round(meters) }, score: -meters, source: index });
        }
      }
    }
    found.sort((a, b) => b.score - a.score);
    const out = found.slice(0, q.limit).map((c) => inLanguage(c, q.lang));
    if (out.length === 0) out.push(...this.coarseAt(lon, lat, q.layers));
    return out.map((a) => this.complete(a));
  }

  /** What is known of a point without an address near it: its city, postal code, state and country. */
  private coarseAt(lon: number, lat: number, layers: ReadonlySet<GeocodeLayer>): GeocodedAddress[] {
    const regions = this.opts.regions?.lookup([lon, lat]);
    const base = {
      ...point(lon, lat),
      countryCode: regions?.country?.code,
      country: regions?.country?.name,
      stateCode: regions?.state?.code.includes('-') ? regions.state.code.split('-')[1] : regions?.state?.code,
      state: regions?.state?.name,
      postalCode: regions?.postalCode?.code,
    };
    const city = this.opts.coarse.nearestCity(lon, lat, REVERSE_CITY_METERS);
    const sameCountry = city !== undefined && (base.countryCode === undefined || city.address.countryCode === base.countryCode);
    for (const layer of ['locality', 'postalCode', 'state', 'country'] as const) {
      if (!layers.has(layer)) continue;
      if (layer === 'locality' && sameCountry) return [compact({ ...base, city: city!.address.city, layer, distance: Math.round(city!.meters) })];
      if (layer === 'postalCode' && base.postalCode !== undefined) return [compact({ ...base, city: sameCountry ? city!.address.city : undefined, layer, distance: 0 })];
      if (layer === 'state' && base.state !== undefined) return [compact({ ...base, postalCode: undefined, layer, distance: 0 })];
      if (layer === 'country' && base.countryCode !== undefined) return [compact({ ...base, postalCode: undefined, state: undefined, stateCode: undefined, layer, distance: 0 })];
    }
    return [];
  }

  private search(q: ForwardQuery, typing: boolean): GeocodedAddress[] {
    const coarse = this.opts.coarse;
    const parsed = parseQuery(q.query, { stateCode: (t) => coarse.stateCode(t), countryCode: (t) => coarse.countryCode(t) });
    // Typing ends on a partial word only when the last character is not a separator.
    const lastIsPrefix = typing && /[\p{L}\p{N}]$/u.test(q.query);
    const countries = parsed.countryCode !== undefined ? [...(q.countries ?? [parsed.countryCode])].filter((c) => c === parsed.countryCode) : q.countries;
    const cands: Candidate[] = [];
    // The house number is still being typed when it ends the query ("Hagstrasse 1" → 1, 10, 11…).
    const numberTyped = lastIsPrefix && parsed.number !== undefined && foldText(q.query).endsWith(` ${parsed.number}`);
    const extracts = this.opts.extracts.current();
    // Places are looked up last, once everything else is known, so that they can be skipped when the
    // answer is already full of better candidates; the order of the candidates stays that of an index
    // after another (addresses, places, areas), which decides between equal scores.
    const found = extracts.map((index) => ({
      index,
      addresses: q.layers.has('address') && parsed.tokens.length > 0 ? from(index, this.addresses(index, parsed, lastIsPrefix, numberTyped, false, q.near)) : [],
      places: [] as Candidate[],
      areas: from(index, this.areas(index, parsed, q.layers, lastIsPrefix)),
    }));
    const later: Candidate[] = [];
    if (q.layers.has('address') && parsed.tokens.length > 0 && !found.some((f) => f.addresses.some((c) => c.address.layer === 'address' && c.address.confidence !== 'fallback'))) {
      for (const index of extracts) later.push(...from(index, this.addresses(index, parsed, lastIsPrefix, numberTyped, true, q.near)));
    }
    later.push(...coarse.search({ parsed, layers: q.layers, countries, lastIsPrefix, limit: q.limit }));
    if (q.layers.has('place')) {
      // With lang, names are translated after this, and two may become one label: nothing is skipped.
      const floor = q.lang === undefined ? new AnswerFloor(q.limit, q.layers, countries, q.near) : undefined;
      floor?.add(found.flatMap((f) => f.addresses));
      floor?.add(later);
      for (const f of found) f.places = from(f.index, this.places(f.index, q.query, parsed, lastIsPrefix, q.near, floor));
    }
    for (const f of found) cands.push(...f.addresses, ...f.places, ...f.areas);
    cands.push(...later);
    const addressLike = parsed.number !== undefined;
    if (addressLike && !cands.some((c) => c.address.layer === 'address' || c.address.layer === 'place')) {
      // The street is unknown here: answer the town or postal code it names, as a fallback.
      const town: ParsedQuery = { ...parsed, number: undefined, streetTokens: [], tokens: parsed.localityTokens };
      const layers = new Set<GeocodeLayer>([...q.layers].filter((l) => l === 'locality' || l === 'postalCode'));
      const towns = coarse.search({ parsed: town, layers, countries, lastIsPrefix: false, limit: 1 });
      for (const index of this.opts.extracts.current()) towns.push(...from(index, this.areas(index, town, layers, false)));
      for (const t of towns) cands.push({ address: { ...t.address, confidence: 'fallback' }, score: t.score - 30, source: t.source });
    }
    const near = q.near;
    const kept = cands.filter((c) => q.layers.has(c.address.layer) && (countries === undefined || (c.address.countryCode !== undefined && countries.includes(c.address.countryCode))));
    for (const c of kept) {
      if (near === undefined) continue;
      const meters = haversineMeters(near, [c.address.longitude, c.address.latitude]);
      if (typing) c.address.distance = Math.round(meters);
      c.score -= nearnessCost(meters);
    }
    kept.sort((a, b) => b.score - a.score);
    const out: GeocodedAddress[] = [];
    const seen = new Set<string>();
    for (const c of kept) {
      const a = this.complete(inLanguage(c, q.lang));
      const key = `${a.layer}|${a.formattedAddress}|${a.placeLabel ?? ''}`;
      if (seen.has(key)) continue;
      if (a.layer === 'place' && out.some((o) => o.layer === 'place' && o.placeLabel === a.placeLabel && haversineMeters([o.longitude, o.latitude], [a.longitude, a.latitude]) <= PLACE_TWIN_METERS)) continue;
      seen.add(key);
      out.push(a);
      if (out.length >= q.limit) break;
    }
    return out;
  }

  /**
   * Addresses on the streets the query names. `typos`: the second pass, for queries no street matched
   * as spelt: streets sharing a word's first letters, matched forgiving a letter or two.
   */
  private addresses(index: ExtractIndex, parsed: ParsedQuery, lastIsPrefix: boolean, numberTyped: boolean, typos: boolean, near: readonly [number, number] | undefined): Candidate[] {
    // Exact spellings from the names in memory; the typo pass (and a vague prefix) by FTS.
    const names = typos ? undefined : index.streetNamesFor(parsed.tokens, lastIsPrefix);
    const match = names !== undefined ? '' : typos ? ftsTypos(parsed.tokens) : ftsAny(parsed.tokens, lastIsPrefix);
    if (match === undefined) return [];
    const scored: Array<{ street: StreetRow; score: number }> = [];
    const agreeing = agreementAtMost(parsed);
    for (const { id, m } of bestNames(names ?? index.streetNames(match), (norm) => matchName(norm.split(' '), parsed.tokens, lastIsPrefix, typos))) {
      // A name whose best street cannot enter the streets tried is not expanded (its rows cost two
      // lookups); a street that would only tie comes after those already found, so it is out too.
      if (scored.length >= STREETS_TRIED && m.score * 2 + m.leftover.length + agreeing <= nthBest(scored, STREETS_TRIED)) continue;
      for (const street of index.streetsNamed(id, { areaWords: areaWords(m.leftover, parsed), near })) {
        scored.push({ street, score: m.score * 2 + adminAgreement(m.leftover, adminTokens(street), lastIsPrefix) + agreement(street, parsed) });
      }
    }
    scored.sort((a, b) => b.score - a.score);
    const out: Candidate[] = [];
    for (const { street, score } of scored.slice(0, STREETS_TRIED)) {
      if (parsed.number === undefined) {
        // A bare name ("Ontario", "Baltimore") is more often a region than a street.
        out.push({ address: { ...adminOf(street), ...point(street.lon, street.lat), street: street.name, layer: 'address', confidence: 'fallback' }, score: 45 + score });
        continue;
      }
      const rows = index.address(street.id, parsed.number);
      if (numberTyped) {
        // Numbers the typed digits begin, a point below the number as typed; the user's nearness sorts them.
        for (const row of index.addressesNumbered(street.id, parsed.number, NUMBERS_COMPLETED)) {
          if (row.number === parsed.number) continue;
          out.push({ address: { ...addressOf(row, 'exact'), unit: row.unit ?? undefined }, score: 99 + score + agreement(row, parsed) - agreement(street, parsed) });
        }
      }
      if (rows.length > 0) {
        // Without a unit, a number mapped at many points (a building's shops and flats) answers its middle first.
        const middle = parsed.unit === undefined ? middleOf(rows) : -1;
        rows.forEach((row, i) => {
          const unitAgrees = parsed.unit !== undefined && row.unit !== null && foldText(row.unit) === foldText(parsed.unit.replace(/^#/, '')) ? 1 : 0;
          const central = i === middle ? 0.5 : 0;
          out.push({ address: { ...addressOf(row, 'exact'), unit: row.unit ?? undefined }, score: 100 + score + agreement(row, parsed) - agreement(street, parsed) + unitAgrees + central });
        });
        continue;
      }
      const interpolated = interpolate(index, street, parsed.number);
      if (interpolated !== undefined) {
        out.push({ address: { ...adminOf(interpolated.admin), ...point(interpolated.lon, interpolated.lat), number: parsed.number.toUpperCase(), street: street.name, layer: 'address', confidence: 'interpolated' }, score: 90 + score });
      } else {
        out.push({ address: { ...adminOf(street), ...point(street.lon, street.lat), street: street.name, layer: 'address', confidence: 'fallback' }, score: 60 + score });
      }
    }
    return out;
  }

  /**
   * Places named by the query. `floor`: the score an answer must beat to be among the first `limit`,
   * raised by the places found; a name whose places cannot reach it is not expanded (its rows cost
   * two lookups), and when no place can, the names are not even looked up.
   */
  private places(index: ExtractIndex, query: string, parsed: ParsedQuery, lastIsPrefix: boolean, near: readonly [number, number] | undefined, floor: AnswerFloor | undefined): Candidate[] {
    // A place's name may hold digits ("Public School 134"): match the whole query's words.
    const words = nameTokens(query).filter((w) => w !== parsed.postalCode?.toLowerCase());
    // Each query word is worth at most 1 to the name (twice) or 1 to the town: 70 + 2 per word at most.
    const agreeing = agreementAtMost(parsed);
    if (floor !== undefined && 70 + 2 * words.length + agreeing < floor.value()) return [];
    const names = index.placeNamesFor(words, lastIsPrefix);
    const match = names !== undefined ? '' : ftsAny(words, lastIsPrefix);
    if (match === undefined) return [];
    const out: Candidate[] = [];
    const named = bestNames(names ?? index.placeNames(match), (written) => {
      const name = index.placeNameTokens(written);
      const m = matchPlaceName(name, words, lastIsPrefix);
      // At least half the query's words must be in the name; the rest may name its town.
      return m === undefined || (words.length - m.leftover.length) * 2 < words.length ? undefined : m;
    });
    for (const { id, m } of named) {
      if (floor !== undefined && 70 + m.score * 2 + m.leftover.length + agreeing < floor.value()) continue;
      const rows: Candidate[] = [];
      for (const row of index.placesNamed(id, { areaWords: areaWords(m.leftover, parsed), near })) {
        const score = 70 + m.score * 2 + adminAgreement(m.leftover, adminTokens(row), lastIsPrefix) + agreement(row, parsed);
        rows.push({ address: { ...adminOf(row), ...point(row.lon, row.lat), layer: 'place', confidence: 'exact', placeLabel: row.name, number: row.number ?? undefined, street: row.street_name ?? undefined }, score });
      }
      floor?.add(rows);
      out.push(...rows);
    }
    return out;
  }

  private areas(index: ExtractIndex, parsed: ParsedQuery, layers: ReadonlySet<GeocodeLayer>, lastIsPrefix: boolean): Candidate[] {
    if (parsed.number !== undefined) return [];
    const words = parsed.tokens.length > 0 ? parsed.tokens : parsed.postalCode !== undefined ? [parsed.postalCode.toLowerCase()] : [];
    const match = ftsAny(words, lastIsPrefix);
    if (match === undefined) return [];
    const out: Candidate[] = [];
    for (const row of index.areas(match)) {
      const layer = (row.layer === 'neighborhood' ? 'locality' : row.layer) as GeocodeLayer;
      if (!layers.has(layer)) continue;
      const m = matchName(nameTokens(row.name), words, lastIsPrefix);
      if (m === undefined) continue;
      const score = (layer === 'postalCode' ? 61 : 52) + m.score + adminAgreement(m.leftover, adminTokens(row), lastIsPrefix) + agreement(row, parsed);
      out.push({ address: { ...adminOf(row), ...point(row.lon, row.lat), layer, confidence: 'exact' }, score });
    }
    return out;
  }

  /** Fills what the index lacks (country and state from the bundled regions, a town from GeoNames) and the labels. */
  private complete(a: GeocodedAddress): GeocodedAddress {
    const wantsCity = a.city === undefined && (a.layer === 'address' || a.layer === 'place');
    if (a.countryCode === undefined || a.state === undefined || wantsCity) {
      const fill = this.fillAt(a.longitude, a.latitude);
      a.countryCode ??= fill.countryCode;
      if (a.layer !== 'country' && fill.state !== undefined && (a.stateCode === undefined || a.stateCode === fill.stateCode)) {
        a.state ??= fill.state;
        a.stateCode ??= fill.stateCode;
      }
      if (wantsCity && fill.city !== undefined && fill.cityCountry === a.countryCode) a.city = fill.city;
    }
    return completeAddress(compact(a));
  }

  /** Regions and town around a point, cached per ~500 m cell: neighbouring answers share them. */
  private fillAt(lon: number, lat: number): Fill {
    const key = `${Math.round(lon / FILL_CELL_DEGREES)},${Math.round(lat / FILL_CELL_DEGREES)}`;
    const cached = this.fills.get(key);
    if (cached !== undefined) return cached;
    const regions = this.opts.regions?.lookup([lon, lat]);
    const stateCode = regions?.state?.code;
    const city = this.opts.coarse.nearestCity(lon, lat, CITY_FILL_METERS);
    const fill: Fill = {
      countryCode: regions?.country?.code,
      state: regions?.state?.name,
      stateCode: stateCode?.includes('-') ? stateCode.split('-')[1] : stateCode,
      city: city?.address.city,
      cityCountry: city?.address.countryCode,
    };
    if (this.fills.size >= FILL_CACHE_MAX) this.fills.clear();
    this.fills.set(key, fill);
    return fill;
  }
}

/** Nearer answers first among equals: up to 10 points off over 0–500 km. */
function nearnessCost(meters: number): number {
  return Math.min(10, meters / 50_000);
}

/**
 * The score a candidate must beat to be among the first `limit` answers: the limit-th best of those
 * found so far, after the nearness cost, each answer counted once. An answer is kept once per label
 * (and a place once per name nearby), so addresses count once per number, street and postal code and
 * places once per name: the answer has at least as many different labels as counted. Other layers are
 * not counted. -Infinity until `limit` are found.
 */
class AnswerFloor {
  private readonly best = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly layers: ReadonlySet<GeocodeLayer>,
    private readonly countries: readonly string[] | undefined,
    private readonly near: readonly [number, number] | undefined,
  ) {}

  add(cands: readonly Candidate[]): void {
    for (const c of cands) {
      const a = c.address;
      if (!this.layers.has(a.layer)) continue;
      if (this.countries !== undefined && (a.countryCode === undefined || !this.countries.includes(a.countryCode))) continue;
      let key: string;
      if (a.layer === 'address' && a.street !== undefined) key = `a|${a.number ?? ''}|${a.street}|${a.postalCode ?? ''}`;
      else if (a.layer === 'place' && a.placeLabel !== undefined) key = `p|${a.placeLabel}`;
      else continue;
      const near = this.near;
      const score = near === undefined ? c.score : c.score - nearnessCost(haversineMeters([near[0], near[1]], [a.longitude, a.latitude]));
      if (!(score <= (this.best.get(key) ?? -Infinity))) this.best.set(key, score);
    }
  }

  value(): number {
    if (this.best.size < this.limit) return -Infinity;
    return [...this.best.values()].sort((a, b) => b - a)[this.limit - 1];
  }
}

/** The most agreement() can give: 2 for each of postal code, state and country the query names. */
function agreementAtMost(parsed: ParsedQuery): number {
  return 2 * [parsed.postalCode, parsed.stateCode, parsed.countryCode].filter((v) => v !== undefined).length;
}

/** The n-th best score of a list (n ≥ 1, list at least n long). */
function nthBest(scored: ReadonlyArray<{ score: number }>, n: number): number {
  return scored.map((s) => s.score).sort((a, b) => b - a)[n - 1];
}

/**
 * The names that match, best match first, at most NAMES_EXPANDED (ties keep the index's order). A name
 * in another language stands for the name whose rows carry it; each of those names once, at its best.
 */
function bestNames(names: readonly NameRow[], match: (name: string) => NameMatch | undefined): Array<{ id: number; m: NameMatch }> {
  const best = new Map<number, NameMatch>();
  for (const n of names) {
    const m = match(n.name);
    const id = n.of ?? n.id;
    if (m !== undefined && !(m.score <= (best.get(id)?.score ?? -Infinity))) best.set(id, m);
  }
  const out = [...best].map(([id, m]) => ({ id, m }));
  out.sort((a, b) => b.m.score - a.m.score);
  return out.slice(0, NAMES_EXPANDED);
}

/** Marks candidates with the index they came from (their names in other languages live there). */
function from(index: ExtractIndex, cands: Candidate[]): Candidate[] {
  for (const c of cands) c.source = index;
  return cands;
}

const ADMIN_NAMES = ['country', 'state', 'county', 'city', 'borough', 'neighborhood'] as const;

/** The candidate's address with its street, place and admin names in `lang` where its index has them. */
function inLanguage(c: Candidate, lang: GeocodeLanguage | undefined): GeocodedAddress {
  const a = c.address;
  const index = c.source;
  if (lang === undefined || index === undefined || index.version < 3) return a;
  if (a.street !== undefined) a.street = index.translate('street', normalizeName(a.street), lang) ?? a.street;
  if (a.placeLabel !== undefined) a.placeLabel = index.translate('place', a.placeLabel, lang) ?? a.placeLabel;
  for (const f of ADMIN_NAMES) {
    const v = a[f];
    if (v !== undefined) a[f] = index.translate('area', v, lang) ?? v;
  }
  return a;
}

/** Words that choose among a name's towns: those the name did not use, and the postal code. */
function areaWords(leftover: readonly string[], parsed: ParsedQuery): string[] {
  return parsed.postalCode === undefined ? [...leftover] : [...leftover, parsed.postalCode.toLowerCase()];
}

function interpolate(index: ExtractIndex, street: StreetRow, number: string): { lon: number; lat: number; admin: AdminRow } | undefined {
  const value = houseNumberValue(number);
  if (Number.isNaN(value)) return undefined;
  for (const line of index.interpolations(street.id)) {
    if (!onInterpolation(value, line.first, line.last, line.step)) continue;
    const [lon, lat] = pointAlong(JSON.parse(line.coords) as number[], numberFraction(value, line.first, line.last));
    return { lon, lat, admin: street };
  }
  const [below, above] = index.neighbours(street.id, value);
  if (below === undefined || above === undefined || below.num === null || above.num === null) return undefined;
  if (above.num - below.num > MAX_INTERPOLATION_GAP) return undefined;
  const t = numberFraction(value, below.num, above.num);
  return { lon: below.lon + t * (above.lon - below.lon), lat: below.lat + t * (above.lat - below.lat), admin: below };
}

/**
 * The row nearest all the others (least summed distance): the middle of one number's points, itself a
 * mapped point. -1 for fewer than two rows. Quadratic, and one number holds a building's few dozen rows.
 */
function middleOf(rows: readonly AddressRow[]): number {
  if (rows.length < 2) return -1;
  let best = -1;
  let bestSum = Infinity;
  rows.forEach((r, i) => {
    let sum = 0;
    for (const o of rows) sum += haversineMeters([r.lon, r.lat], [o.lon, o.lat]);
    if (sum < bestSum) [best, bestSum] = [i, sum];
  });
  return best;
}

function addressOf(row: AddressRow, confidence: 'exact' | 'interpolated'): GeocodedAddress {
  return { ...adminOf(row), ...point(row.lon, row.lat), number: row.number.toUpperCase(), street: row.street_name, layer: 'address', confidence };
}

function adminOf(row: AdminRow): Partial<GeocodedAddress> {
  return compact({
    countryCode: row.country_code ?? undefined,
    country: row.country ?? undefined,
    state: row.state ?? undefined,
    stateCode: row.state_code ?? undefined,
    county: row.county ?? undefined,
    city: row.city ?? undefined,
    borough: row.borough ?? undefined,
    neighborhood: row.neighborhood ?? undefined,
    postalCode: row.postal_code ?? undefined,
  });
}

function adminTokens(row: AdminRow): Set<string> {
  const words = new Set<string>();
  for (const v of [row.city, row.county, row.borough, row.neighborhood, row.state, row.country]) if (v) for (const w of nameTokens(v)) words.add(w);
  for (const v of [row.state_code, row.postal_code, row.country_code]) if (v) words.add(v.toLowerCase());
  return words;
}

/** Postal code, state and country written in the query against a row: +2 each agreeing, -2 each not. */
function agreement(row: AdminRow, parsed: ParsedQuery): number {
  let score = 0;
  if (parsed.postalCode !== undefined && row.postal_code !== null) score += row.postal_code.toUpperCase().startsWith(parsed.postalCode.toUpperCase()) ? 2 : -2;
  if (parsed.stateCode !== undefined && row.state_code !== null) score += row.state_code === parsed.stateCode ? 2 : -2;
  if (parsed.countryCode !== undefined && row.country_code !== null) score += row.country_code === parsed.countryCode ? 2 : -4;
  return score;
}
