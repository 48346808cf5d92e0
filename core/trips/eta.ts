// A trip's ETA as Radar shows it (its trip objects: `"eta": {"duration": 5.5, "distance": 1331}`):
// minutes to one decimal, metres whole. Routers answer exact figures; these are what is stored, shown
// and compared with the approaching threshold.

export interface TripEta {
  /** Minutes. */
  duration: number;
  /** Metres. */
  distance: number;
}

export function tripEta(durationMinutes: number, distanceMeters: number): TripEta {
  return { duration: Math.round(durationMinutes * 10) / 10, distance: Math.round(distanceMeters) };
}
