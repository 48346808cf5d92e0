// Where an unmapped house number lies: along an `addr:interpolation` line, or between the two nearest
// known numbers of the same street. Linear in the number, as postal numbering is on average.

/** The point at `fraction` (0…1) of a polyline's length ([lon, lat, …]), lengths measured locally flat. */
export function pointAlong(coords: ArrayLike<number>, fraction: number): [number, number] {
  const n = coords.length / 2;
  if (n === 1) return [coords[0], coords[1]];
  const kx = Math.cos((coords[1] * Math.PI) / 180);
  let total = 0;
  for (let i = 1; i < n; i++) total += Math.hypot((coords[2 * i] - coords[2 * i - 2]) * kx, coords[2 * i + 1] - coords[2 * i - 1]);
  let target = Math.min(1, Math.max(0, fraction)) * total;
  for (let i = 1; i < n; i++) {
    const seg = Math.hypot((coords[2 * i] - coords[2 * i - 2]) * kx, coords[2 * i + 1] - coords[2 * i - 1]);
    if (target <= seg || i === n - 1) {
      const t = seg === 0 ? 0 : Math.min(1, target / seg);
      return [coords[2 * i - 2] + t * (coords[2 * i] - coords[2 * i - 2]), coords[2 * i - 1] + t * (coords[2 * i + 1] - coords[2 * i - 1])];
    }
    target -= seg;
  }
  return [coords[2 * n - 2], coords[2 * n - 1]];
}

/** Whether `value` is one of the numbers an interpolation line from `first` to `last` by `step` stands for. */
export function onInterpolation(value: number, first: number, last: number, step: number): boolean {
  const lo = Math.min(first, last);
  const hi = Math.max(first, last);
  if (value < lo || value > hi) return false;
  return step <= 1 || (value - first) % step === 0;
}

/** Fraction of the way from `first` to `last` at which `value` lies. */
export function numberFraction(value: number, first: number, last: number): number {
  return first === last ? 0 : (value - first) / (last - first);
}

/** Most numbers apart two known addresses may be for a number between them to be interpolated. */
export const MAX_INTERPOLATION_GAP = 200;
