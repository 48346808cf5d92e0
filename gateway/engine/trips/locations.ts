// The trail a trip keeps: the points of its location updates, newest last, at most `cap` of them
// (the oldest are dropped first). Pure.

export interface TripLocation {
  type: 'Point';
  coordinates: [number, number];
  /** Accuracy of the update, metres. */
  locationAccuracy: number;
  /** The update's time, ISO. */
  updatedAt: string;
}

/** Kept per trip; docs/trips.md explains the number. */
export const TRIP_LOCATION_CAP = 500;

export function appendLocation(trail: readonly TripLocation[], point: TripLocation, cap = TRIP_LOCATION_CAP): TripLocation[] {
  const next = trail.length >= cap ? trail.slice(trail.length - cap + 1) : trail.slice();
  next.push(point);
  return next;
}
