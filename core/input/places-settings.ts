// The inner shape of the Places settings fields given to PATCH /v1/settings (docs/places.md): the settings
// feature checks them, the places feature reads them (server/features/places/places-settings.ts).
import { InputError } from './input-error';
import { readMetadata } from './structured';

const SLUG = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const MAX_EXTERNAL_ID_LENGTH = 256;
const MAX_FILTER_ENTRIES = 1000;
const MAX_CHAIN_METADATA_KEYS = 16;

export interface PlaceFilters {
  chains: string[];
  categories: string[];
}

/** placeFilters keys → the filter they fill: Radar's singular keys, and the plural ones Waymark took first. */
export const PLACE_FILTER_KINDS: Readonly<Record<string, keyof PlaceFilters>> = { chain: 'chains', category: 'categories', chains: 'chains', categories: 'categories' };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks the inner shape of one Places settings field given to PATCH /v1/settings (already known to be
 * a dictionary) and returns it as stored. Throws InputError naming the inner key.
 */
export function validatePlacesSetting(field: string, value: Record<string, unknown>): Record<string, unknown> {
  if (field === 'chainMappings') {
    for (const [slug, id] of Object.entries(value)) {
      if (!SLUG.test(slug)) throw new InputError(`chainMappings.${slug}`, `chainMappings keys must be chain slugs (lower-case letters, digits, "-"), got "${slug.slice(0, 64)}"`);
      if (typeof id !== 'string' || id === '' || id.length > MAX_EXTERNAL_ID_LENGTH) {
        throw new InputError(`chainMappings.${slug}`, `chainMappings.${slug} must be your ID for the chain: a string of 1 to ${MAX_EXTERNAL_ID_LENGTH} characters`);
      }
    }
    return value;
  }
  if (field === 'chainMetadata') {
    const out: Record<string, unknown> = {};
    for (const [slug, meta] of Object.entries(value)) {
      if (!SLUG.test(slug)) throw new InputError(`chainMetadata.${slug}`, `chainMetadata keys must be chain slugs (lower-case letters, digits, "-"), got "${slug.slice(0, 64)}"`);
      if (!isPlainObject(meta)) throw new InputError(`chainMetadata.${slug}`, `chainMetadata.${slug} must be a dictionary of metadata`);
      out[slug] = readMetadata(meta, `chainMetadata.${slug}`, MAX_CHAIN_METADATA_KEYS);
    }
    return out;
  }
  if (field === 'placeFilters') {
    for (const key of Object.keys(value)) {
      const kind = Object.hasOwn(PLACE_FILTER_KINDS, key) ? PLACE_FILTER_KINDS[key] : undefined;
      if (!kind) throw new InputError(`placeFilters.${key}`, `placeFilters takes "chain" and "category" (lists of slugs), not "${key.slice(0, 64)}"`);
      const list = value[key];
      if (!Array.isArray(list) || list.length > MAX_FILTER_ENTRIES || !list.every((s) => typeof s === 'string' && SLUG.test(s))) {
        throw new InputError(`placeFilters.${key}`, `placeFilters.${key} must be a list of at most ${MAX_FILTER_ENTRIES} ${kind === 'chains' ? 'chain' : 'category'} slugs`);
      }
    }
    return value;
  }
  return value;
}
