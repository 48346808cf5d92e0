// Seeded synthetic data over a ~50 × 50 km metro area around Midtown Manhattan: geofence bodies as a
// client would send them (70 % circles of 50–500 m, 30 % polygons of 5–40 vertices) and device
// positions. Same seed, same data, so runs compare.
import { prng } from './prng';

export { prng };
export type LngLat = [number, number];

export const METRO_CENTER: LngLat = [-73.98, 40.75];
export const METRO_HALF_SIDE_M = 25_000;
const M_PER_DEG_LAT = 111_320;

/** mulberry32: small, fast, good enough for benchmark data. */
export function offset(from: LngLat, eastM: number, northM: number): LngLat {
  const mPerDegLng = M_PER_DEG_LAT * Math.cos((from[1] * Math.PI) / 180);
  return [from[0] + eastM / mPerDegLng, from[1] + northM / M_PER_DEG_LAT];
}

export function randomPoint(rnd: () => number): LngLat {
  return offset(METRO_CENTER, (rnd() * 2 - 1) * METRO_HALF_SIDE_M, (rnd() * 2 - 1) * METRO_HALF_SIDE_M);
}

export function geofenceBody(i: number, rnd: () => number): Record<string, unknown> {
  const center = randomPoint(rnd);
  const base = { description: `Place ${i}`, tag: i % 10 === 0 ? 'store' : 'venue', externalId: `g${i}`, metadata: { n: i, kind: i % 3 === 0 ? 'a' : 'b' } };
  if (rnd() < 0.7) return { ...base, type: 'circle', coordinates: center, radius: Math.round(50 + rnd() * 450) };
  // A star-shaped polygon: vertices at increasing angles, random radii, so it is simple (no crossings).
  const vertices = 5 + Math.floor(rnd() * 36);
  const ring: LngLat[] = [];
  for (let v = 0; v < vertices; v++) {
    const angle = (2 * Math.PI * v) / vertices;
    const r = 60 + rnd() * 340;
    ring.push(offset(center, Math.cos(angle) * r, Math.sin(angle) * r));
  }
  ring.push(ring[0]);
  return { ...base, type: 'polygon', coordinates: [ring] };
}
