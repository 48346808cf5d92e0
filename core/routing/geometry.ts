// Small spherical helpers for the route builder: bearings and distances between [lng, lat] points.
const RAD = Math.PI / 180;
const EARTH_RADIUS_M = 6371008.8;

/** Initial bearing from a to b, degrees clockwise from north, 0–359. */
export function bearing(aLon: number, aLat: number, bLon: number, bLat: number): number {
  const φ1 = aLat * RAD, φ2 = bLat * RAD, Δλ = (bLon - aLon) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (Math.round(Math.atan2(y, x) / RAD) + 360) % 360;
}

export function metresBetween(aLon: number, aLat: number, bLon: number, bLat: number): number {
  const dLat = (bLat - aLat) * RAD, dLon = (bLon - aLon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Signed turn from bearing `before` to `after`, in (-180, 180]: positive is right. */
export function turnAngle(before: number, after: number): number {
  let d = (after - before) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

/** OSRM's direction modifier of a turn by its angle (degrees, negative to the left). */
export function modifierOf(angle: number): string {
  const a = Math.abs(angle);
  if (a < 20) return 'straight';
  if (a > 170) return 'uturn';
  const side = angle > 0 ? 'right' : 'left';
  if (a < 60) return `slight ${side}`;
  if (a < 130) return side;
  return `sharp ${side}`;
}
