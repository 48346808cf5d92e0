// Readers for the geocoding parameters (spec "Geocoding" and "Search"): layers, country codes, lang.
import { GEOCODE_LANGUAGES, GEOCODE_LAYERS, type GeocodeLanguage, type GeocodeLayer } from '../../../ports/geocoder';
import { BadRequest } from '../errors';
import { field, listOf, type Field } from './param-spec';
import { readList } from '../../../core/input/scalars';

const COARSE: readonly GeocodeLayer[] = ['postalCode', 'locality', 'county', 'state', 'country'];
const FINE: readonly GeocodeLayer[] = ['address', 'place'];
export const DEFAULT_LAYERS: ReadonlySet<GeocodeLayer> = new Set<GeocodeLayer>(['address', ...COARSE]);
/** Autocomplete's default also holds places: people type "johns hop" as often as an address. */
export const AUTOCOMPLETE_DEFAULT_LAYERS: ReadonlySet<GeocodeLayer> = new Set<GeocodeLayer>(['address', 'place', ...COARSE]);
export { GEOCODE_LANGUAGES };

/** `layers`: comma-separated names, `coarse` and `fine` expanded; absent: address and coarse. */
export function readLayers(raw: unknown, param = 'layers', defaults: ReadonlySet<GeocodeLayer> = DEFAULT_LAYERS): ReadonlySet<GeocodeLayer> {
  const list = readList(raw, param);
  if (list === undefined) return defaults;
  if (list.length > 20) throw new BadRequest(param, `${param} lists too many layers`);
  const out = new Set<GeocodeLayer>();
  for (const name of list) {
    if (name === 'coarse') COARSE.forEach((l) => out.add(l));
    else if (name === 'fine') FINE.forEach((l) => out.add(l));
    else if ((GEOCODE_LAYERS as readonly string[]).includes(name)) out.add(name as GeocodeLayer);
    else throw new BadRequest(param, `${param} must be a comma-separated list of ${[...GEOCODE_LAYERS, 'coarse', 'fine'].join(', ')}; "${name.slice(0, 40)}" is not one`);
  }
  return out;
}

/** Comma-separated ISO 3166-1 alpha-2 codes, upper-cased. */
export function readCountryCodes(raw: unknown, param: string): string[] | undefined {
  const list = readList(raw, param);
  if (list === undefined) return undefined;
  if (list.length > 50) throw new BadRequest(param, `${param} can list at most 50 countries`);
  for (const code of list) {
    if (!/^[A-Za-z]{2}$/.test(code)) throw new BadRequest(param, `${param} must be comma-separated 2-letter country codes; "${code.slice(0, 40)}" is not one`);
  }
  return list.map((c) => c.toUpperCase());
}

/** `lang`; undefined when absent: names as mapped (see docs/geocoding.md, "Languages"). */
export function readLang(raw: unknown, param = 'lang'): GeocodeLanguage | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && (GEOCODE_LANGUAGES as readonly string[]).includes(raw.toLowerCase())) return raw.toLowerCase() as GeocodeLanguage;
  throw new BadRequest(param, `${param} must be one of ${GEOCODE_LANGUAGES.join(', ')}`);
}

/** A free-text geocoding query: required, at most 512 characters, no control characters. */
export function readGeocodeQuery(raw: unknown, param = 'query'): string {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) throw new BadRequest(param, `${param} is required`);
  if (typeof raw !== 'string') throw new BadRequest(param, `${param} must be a string`);
  if (raw.length > 512) throw new BadRequest(param, `${param} must be at most 512 characters`);
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(raw)) throw new BadRequest(param, `${param} must not contain control characters`);
  return raw.trim();
}

// The same readers as param-spec fields, for the routes' parameter specs.

export function layersField(defaults: ReadonlySet<GeocodeLayer> = DEFAULT_LAYERS): Field<ReadonlySet<GeocodeLayer>, true> {
  const absent = defaults.has('place') ? 'address, place and coarse' : 'address and coarse';
  return listOf((raw, name) => readLayers(raw, name, defaults), { enum: [...GEOCODE_LAYERS, 'coarse', 'fine'] }).default(defaults)
    .describe(`layers to search; coarse = postalCode, locality, county, state, country; fine = address, place; absent: ${absent}`);
}

export function countryCodesField(): Field<string[]> {
  return listOf(readCountryCodes, { type: 'string', pattern: '^[A-Za-z]{2}$' }).describe('ISO 3166-1 alpha-2 codes, at most 50');
}

export function langField(): Field<GeocodeLanguage> {
  return field((raw, name) => readLang(raw, name), { type: 'string', enum: [...GEOCODE_LANGUAGES] })
    .describe('names in this language where the map has them (OSM name:xx), else as mapped; absent: as mapped');
}

export function geocodeQueryField(): Field<string, true> {
  return field((raw, name) => readGeocodeQuery(raw, name), { type: 'string', minLength: 1, maxLength: 512 }).required();
}
