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
import { PLACE_FILTER_KINDS, type PlaceFilters } from '../../../core/input/places-settings';
import type { Metadata } from '../../../core/types';
import type { PlaceKind } from '../../../core/places/place';
import { SETTINGS } from '../../api/collections';

export type { PlaceFilters };

export const PLACES_SETTINGS_DOC = 'places-settings';

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

/** Settings stored before validation existed are read leniently: wrong inner values are skipped. */
export async function readPlacesSettings(store: Store, scope: Scope): Promise<PlacesSettings> {
  const doc = await store.get(SETTINGS, scope, PLACES_SETTINGS_DOC);
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
    for (const [key, kind] of Object.entries(PLACE_FILTER_KINDS)) {
      const list = pf[key];
      if (Array.isArray(list)) filters[kind].push(...list.filter((s): s is string => typeof s === 'string'));
    }
  }
  return { externalIds, slugsByExternalId, metadata, filters };
}

/** placeFilters: a place makes events when no filter is set, or it is of a listed chain or category. */
export function passesPlaceFilters(place: PlaceKind, filters: PlaceFilters): boolean {
  if (filters.chains.length === 0 && filters.categories.length === 0) return true;
  if (place.chain && filters.chains.includes(place.chain.slug)) return true;
  return place.categories.some((c) => filters.categories.includes(c));
}
