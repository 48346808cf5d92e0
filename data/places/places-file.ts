// The places stage's output, one file per extract: `<extract>/places/places.json`. Plain JSON, read
// whole at load: an extract's places are thousands to a few hundred thousand small records, which the
// gateway turns into typed arrays and a grid (gateway/engine/places/place-index.ts) anyway.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Place } from '../../gateway/engine/places/place';

export type { PlaceChain } from '../../gateway/engine/places/place';
/** Records are the engine's Place, so the gateway loads them without copying. */
export type PlaceRecord = Place;

export const PLACES_FILE = 'places.json';
export const PLACES_FORMAT = 'waymark-places';
export const PLACES_VERSION = 1;

export interface PlacesFile {
  format: typeof PLACES_FORMAT;
  version: typeof PLACES_VERSION;
  extract: string;
  /** name-suggestion-index version the chains were matched with. */
  brands: string;
  places: PlaceRecord[];
}

const OSM_TYPE_CODE = { n: 1, w: 2, r: 3 } as const;

/**
 * A place's _id from its OSM object: type code then id, in 24 hex digits. Re-importing the same data
 * keeps the same ids, so geofences made from a place (placeId) and stored events still find it.
 */
export function placeIdOf(type: keyof typeof OSM_TYPE_CODE, id: number): string {
  return OSM_TYPE_CODE[type].toString(16).padStart(2, '0') + Math.trunc(Math.abs(id)).toString(16).padStart(22, '0');
}

export function writePlacesFile(dir: string, file: PlacesFile): void {
  writeFileSync(path.join(dir, PLACES_FILE), JSON.stringify(file));
}

export function readPlacesFile(dir: string): PlacesFile {
  const file = JSON.parse(readFileSync(path.join(dir, PLACES_FILE), 'utf8')) as PlacesFile;
  if (file.format !== PLACES_FORMAT || file.version !== PLACES_VERSION) {
    throw new Error(`${path.join(dir, PLACES_FILE)} is not a ${PLACES_FORMAT} v${PLACES_VERSION} file; re-import the extract`);
  }
  return file;
}

/** Calls `each` with every place of the file, in order. */
export function eachPlaceRecord(dir: string, each: (place: PlaceRecord) => void): void {
  for (const p of readPlacesFile(dir).places) each(p);
}
