// An isochrone outline too small to be anyone's reach. Issue 32: walking and cycling isochrones whose
// centre lay 100 m from the nearest road came out as the 60 m square drawn around the centre alone
// (five points), and were stored as geofences nobody could enter by moving. Even a one-minute walk
// covers about 80 m each way along its road, so an outline narrower than MIN_SPAN_M is refused with
// the reason rather than stored.

export type LngLat = [number, number];

/** Narrowest outline accepted, metres across its longer side. */
export const MIN_SPAN_M = 100;

const METERS_PER_DEGREE = 111_320;

/** Why `ring` (closed, [lng, lat]) is not a usable isochrone, or undefined when it is. */
export function degenerateRing(ring: readonly LngLat[]): string | undefined {
  const corners = new Set(ring.map(([lng, lat]) => `${lng},${lat}`));
  if (corners.size < 3) return `its outline has ${corners.size} distinct corners`;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  const kx = METERS_PER_DEGREE * Math.cos((ring[0][1] * Math.PI) / 180);
  for (const [lng, lat] of ring) {
    const x = lng * kx, y = lat * METERS_PER_DEGREE;
    if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y;
  }
  const span = Math.max(maxX - minX, maxY - minY);
  if (span < MIN_SPAN_M) return `its outline spans only ${Math.round(span)} m (at least ${MIN_SPAN_M} m expected)`;
  return undefined;
}
