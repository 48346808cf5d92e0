// Where the place index finds its places: rows it can read a position and an id from without making a
// Place object, and make one from when a query answers it. A region's few hundred thousand places
// then stay in the compact columns they were read into (core/formats/places/places-table.ts) instead of as as
// many JS objects; tests and the bundled airports give plain arrays (arrayPlaceSource).
import type { Place, PlaceKind } from './place';

export interface PlaceSource {
  readonly size: number;
  lngAt(row: number): number;
  latAt(row: number): number;
  idAt(row: number): string;
  /** The row's categories and chain, without making its Place (a filtered search looks at many rows). */
  kindAt(row: number): PlaceKind;
  /** A Place for the row, made on each call (callers keep what they need). */
  placeAt(row: number): Place;
  /** The row of a place _id, or -1. */
  rowOf(id: string): number;
}

export function arrayPlaceSource(places: readonly Place[]): PlaceSource {
  const byId = new Map<string, number>();
  places.forEach((p, i) => {
    if (!byId.has(p._id)) byId.set(p._id, i);
  });
  return {
    size: places.length,
    lngAt: (i) => places[i].lng,
    latAt: (i) => places[i].lat,
    idAt: (i) => places[i]._id,
    kindAt: (i) => places[i],
    placeAt: (i) => places[i],
    rowOf: (id) => byId.get(id) ?? -1,
  };
}
