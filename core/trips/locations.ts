// The trail a trip keeps: one point per location update while it is active, newest last, at most
// `cap` of them (the oldest are dropped first). Pure and generic over the point's form: the API
// stores compact tuples and shows GeoJSON points.

/** Kept per trip; docs/trips.md explains the number. */
export const TRIP_LOCATION_CAP = 500;

export function appendLocation<T>(trail: readonly T[], point: T, cap = TRIP_LOCATION_CAP): T[] {
  const next = trail.length >= cap ? trail.slice(trail.length - cap + 1) : trail.slice();
  next.push(point);
  return next;
}
