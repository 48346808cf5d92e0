// The Places settings (GET/PATCH /v1/settings) as Places reads them. The spec leaves their inner shape
// open; Waymark's (docs/places.md):
//   chainMappings  { "<chain slug>": "<your ID for the chain>" }   → chain.externalId; `chains` in search
//                                                                    accepts your IDs as well as slugs
//   chainMetadata  { "<chain slug>": { key: string|number|boolean } } → chain.metadata; chainMetadata[key]
//                                                                    filters in search
//   placeFilters   { "chain": ["<slug>", …], "category": ["<slug>", …] } → only places of one of those
//                                                                    chains or categories make place events
//                                                                    and user.place; both absent or empty:
//                                                                    every place. Radar's documented keys are
//                                                                    the singular ones; the plural "chains" /
//                                                                    "categories" Waymark took first are
//                                                                    still read. Stored and echoed as given.
import type { Scope, Store } from '../../../ports/store';
import { BadRequest } from '../../http/errors';
import { readMetadata } from '../../http/params';
import type { Metadata } from '../../../core/types';
import type { Place } from '../../../core/places/place';

export const PLACES_SETTINGS_DOC = 'places-settings';
const SLUG = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const MAX_EXTERNAL_ID_LENGTH = 256;
const MAX_FILTER_ENTRIES = 1000;
const MAX_CHAIN_METADATA_KEYS = 16;

/** placeFilters keys → the filter they fill: Radar's singular keys, and the plural ones Waymark took first. */
const FILTER_KINDS: Readonly<Record<string, keyof PlaceFilters>> = { chain: 'chains', category: 'categories', chains: 'chains', categories: 'categories' };

export interface PlaceFilters {
  chains: string[];
  categories: string[];
}

export interface PlacesSettings {
  /** slug → caller's ID. */
  externalIds: ReadonlyMap<string, string>;
  /** caller's ID → slug. */
  slugsByExternalId: ReadonlyMap<string, string>;
  metadata: ReadonlyMap<string, Metadata>;
  filters: PlaceFilters;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks the inner shape of one Places settings field given to PATCH /v1/settings (already known to be
 * a dictionary) and returns it as stored. Throws BadRequest naming the inner key.
 */
export function validatePlacesSetting(field: string, value: Record<string, unknown>): Record<string, unknown> {
  if (field === 'chainMappings') {
    for (const [slug, id] of Object.entries(value)) {
      if (!SLUG.test(slug)) throw new BadRequest(`chainMappings.${slug}`, `chainMappings keys must be chain slugs (lower-case letters, digits, "-"), got "${slug.slice(0, 64)}"`);
      if (typeof id !== 'string' || id === '' || id.length > MAX_EXTERNAL_ID_LENGTH) {
        throw new BadRequest(`chainMappings.${slug}`, `chainMappings.${slug} must be your ID for the chain: a string of 1 to ${MAX_EXTERNAL_ID_LENGTH} characters`);
      }
    }
    return value;
  }
  if (field === 'chainMetadata') {
    const out: Record<string, unknown> = {};
    for (const [slug, meta] of Object.entries(value)) {
      if (!SLUG.test(slug)) throw new BadRequest(`chainMetadata.${slug}`, `chainMetadata keys must be chain slugs (lower-case letters, digits, "-"), got "${slug.slice(0, 64)}"`);
      if (!isPlainObject(meta)) throw new BadRequest(`chainMetadata.${slug}`, `chainMetadata.${slug} must be a dictionary of metadata`);
      out[slug] = readMetadata(meta, `chainMetadata.${slug}`, MAX_CHAIN_METADATA_KEYS);
    }
    return out;
  }
  if (field === 'placeFilters') {
    for (const key of Object.keys(value)) {
      const kind = Object.hasOwn(FILTER_KINDS, key) ? FILTER_KINDS[key] : undefined;
      if (!kind) throw new BadRequest(`placeFilters.${key}`, `placeFilters takes "chain" and "category" (lists of slugs), not "${key.slice(0, 64)}"`);
      const list = value[key];
      if (!Array.isArray(list) || list.length > MAX_FILTER_ENTRIES || !list.every((s) => typeof s === 'string' && SLUG.test(s))) {
        throw new BadRequest(`placeFilters.${key}`, `placeFilters.${key} must be a list of at most ${MAX_FILTER_ENTRIES} ${kind === 'chains' ? 'chain' : 'category'} slugs`);
      }
    }
    return value;
  }
  return value;
}

/** Settings stored before validation existed are read leniently: wrong inner values are skipped. */
export async function readPlacesSettings(store: Store, scope: Scope): Promise<PlacesSettings> {
  const doc = await store.get('settings', scope, PLACES_SETTINGS_DOC);
  const externalIds = new Map<string, string>();
  const slugsByExternalId = new Map<string, string>();
  const metadata = new Map<string, Metadata>();
  const filters: PlaceFilters = { chains: [], categories: [] };
  const mappings = doc?.chainMappings;
  if (isPlainObject(mappings)) {
    for (const [slug, id] of Object.entries(mappings)) {
      if (typeof id !== 'string') continue;
      externalIds.set(slug, id);
      slugsByExternalId.set(id, slug);
    }
  }
  const meta = doc?.chainMetadata;
  if (isPlainObject(meta)) for (const [slug, m] of Object.entries(meta)) if (isPlainObject(m)) metadata.set(slug, m as Metadata);
  const pf = doc?.placeFilters;
  if (isPlainObject(pf)) {
    for (const [key, kind] of Object.entries(FILTER_KINDS)) {
      const list = pf[key];
      if (Array.isArray(list)) filters[kind].push(...list.filter((s): s is string => typeof s === 'string'));
    }
  }
  return { externalIds, slugsByExternalId, metadata, filters };
}

/** placeFilters: a place makes events when no filter is set, or it is of a listed chain or category. */
export function passesPlaceFilters(place: Place, filters: PlaceFilters): boolean {
  if (filters.chains.length === 0 && filters.categories.length === 0) return true;
  if (place.chain && filters.chains.includes(place.chain.slug)) return true;
  return place.categories.some((c) => filters.categories.includes(c));
}
