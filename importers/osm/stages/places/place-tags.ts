// Which OSM objects become places: named (or branded) objects whose tags map to a Radar category.
// Unnamed shops, benches, bus stops without a category row and plain buildings are not places.
import type { OsmTags } from '../../stage';
import { categoriesOfPath, categoryPathOf } from './osm-categories';

export interface PlaceTags {
  name: string;
  categories: string[];
  iata?: string;
}

const IATA = /^[A-Z]{3}$/;

export function placeTagsOf(tags: OsmTags | null): PlaceTags | undefined {
  if (tags === null) return undefined;
  const name = tags.name ?? tags.brand;
  if (name === undefined || name.trim() === '') return undefined;
  const path = categoryPathOf(tags);
  if (path === undefined) return undefined;
  const out: PlaceTags = { name: name.trim(), categories: categoriesOfPath(path) };
  const iata = tags.iata?.trim().toUpperCase();
  if (tags.aeroway === 'aerodrome' && iata !== undefined && IATA.test(iata)) out.iata = iata;
  return out;
}
