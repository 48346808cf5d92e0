/**
 * The Regions port: which country, state, market area (DMA), postal code and any
 * operator-imported boundary contain a point. Radar returns these as region objects
 * on the user (track) and in context.
 */

/** A Radar region object. `flag` is set on countries only. */
export interface Region {
  /** Stable across restarts and machines: derived from type and code (see region-id.ts). */
  _id: string;
  type: string;
  name: string;
  code: string;
  flag?: string;
}

/** Regions containing one point, keyed by region type; types with no region are absent. */
export interface RegionSet {
  country?: Region;
  state?: Region;
  dma?: Region;
  postalCode?: Region;
  [type: string]: Region | undefined;
}

export interface RegionLookup {
  /** `point` is [longitude, latitude]. Synchronous because it runs on every track update. */
  lookup(point: [number, number]): RegionSet;
}
