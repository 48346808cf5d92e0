// The fixed parts of places.bin's layout (the layout itself is described in places-file.ts), apart from
// the writer and the reader so both can share them without importing each other.
import type { PlaceChain } from '../../places/place';

export const PLACES_FORMAT = 'waymark-places';
export const PLACES_VERSION = 2;
export const PLACES_MAGIC = 'WMPLACES';
export const OUTLINE_SCALE = 1e7;

/** The JSON header of a version 2 file. */
export interface PlacesHeader {
  format: typeof PLACES_FORMAT;
  version: typeof PLACES_VERSION;
  extract: string;
  brands: string;
  count: number;
  categoryLists: string[][];
  chains: PlaceChain[];
  /** Row → IATA code, for the few airports. */
  iata: Record<string, string>;
  sections: Record<SectionName, [number, number]>;
}

export const SECTIONS = ['lng', 'lat', 'ids', 'byId', 'textStart', 'text', 'categoryList', 'chain', 'outlineStart', 'outline'] as const;
export type SectionName = (typeof SECTIONS)[number];
