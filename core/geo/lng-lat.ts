/** A position as GeoJSON orders it: longitude, then latitude, in degrees. */
export type LngLat = [number, number];
