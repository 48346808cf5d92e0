// A place as the gateway holds it: what the places stage of an import wrote (core/formats/places/places-file.ts
// stores exactly this shape), or an airport from the bundled airports table.

export interface PlaceChain {
  slug: string;
  name: string;
}

export interface Place {
  /** 24 hex characters, stable across re-imports of the same OSM object. */
  _id: string;
  name: string;
  lng: number;
  lat: number;
  /** Radar category slugs from the top of the taxonomy down: a parent's slug is in its children's lists. */
  categories: string[];
  chain?: PlaceChain;
  /** IATA code of an airport. */
  iata?: string;
  /** Closed outer ring [lng, lat][] of the place's area, when it has one. */
  outline?: Array<[number, number]>;
  /** `n123`, `w456`, `r789` for OSM places; `ourairports:<id>` for bundled airports. */
  osm: string;
}

/** What a search or an event filter asks of a place: its categories and chain, read without making the place. */
export type PlaceKind = Pick<Place, 'categories' | 'chain'>;
