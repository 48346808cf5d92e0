// The limits behind the `jumped` and `inaccurate` fraud flags. Speeds are implied speeds between two
// updates (metres per second) after both positions' accuracy is taken off the distance, so GPS noise
// between close updates never reads as a jump.

/**
 * The fastest a user can plausibly move in each travel mode (the trip's mode when the user is on a
 * trip, or the `tripOptions.mode` of the update). Generous on purpose: a flag should mean "impossible",
 * not "fast". Without a mode the limit is an airliner's cruising speed (~900 km/h), so a phone that
 * reports after a flight does not look spoofed.
 */
export const MAX_SPEED_MPS: Readonly<Record<string, number>> = {
  foot: 12, // a sprint is ~10 m/s
  bike: 25, // 90 km/h, downhill racing
  car: 70, // 252 km/h
  truck: 50, // 180 km/h
  motorbike: 90, // 324 km/h
};
export const DEFAULT_MAX_SPEED_MPS = 250;

/** Accuracy (metres) beyond which a location is `inaccurate`: worse than a cell-tower fix of a city. */
export const INACCURATE_ABOVE_M = 1_000;

/** Time between two updates is floored at this, so two updates in the same second still compare. */
export const MIN_INTERVAL_S = 1;

export function maxSpeedFor(mode: string | undefined): number {
  return (mode !== undefined && Object.hasOwn(MAX_SPEED_MPS, mode) ? MAX_SPEED_MPS[mode] : undefined) ?? DEFAULT_MAX_SPEED_MPS;
}
