// An estimating router for when no road network is loaded: straight-line distance times a detour
// factor, at typical urban speeds per mode. Named for what it is; answers are estimates, not routes.
import type { Eta, Router, RouterMode } from './port';

const EARTH_RADIUS_M = 6371000;
/** Road distance over straight-line distance, a common urban average. */
const DETOUR_FACTOR = 1.3;
/** km/h. */
const SPEED_KMH: Record<RouterMode, number> = { car: 40, truck: 35, bike: 15, foot: 5 };

function haversine(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLng = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export class GeodesicRouter implements Router {
  readonly name = 'geodesic-estimate';

  async eta(from: [number, number], to: [number, number], mode: RouterMode): Promise<Eta> {
    const distance = haversine(from, to) * DETOUR_FACTOR;
    const duration = distance / 1000 / SPEED_KMH[mode] * 60;
    return { distance: Math.round(distance), duration: Math.round(duration * 10) / 10 };
  }

  reach(minutes: number, mode: RouterMode): number {
    return (minutes / 60) * SPEED_KMH[mode] * 1000 / DETOUR_FACTOR;
  }
}
