// An estimating router for when no road network is loaded: straight-line distance times a detour
// factor, at typical urban speeds per mode. Named for what it is; answers are estimates, not routes.
import type { Eta, LngLat, OsrmLeg, RouteRequest, RouteResult, Router, RouterMode, TableRequest, TableResult } from '../../ports/router';

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

  /** Straight legs between the points in order, each a depart and an arrive step; avoid cannot apply. */
  async route(req: RouteRequest): Promise<RouteResult> {
    const legs: OsrmLeg[] = [];
    for (let i = 1; i < req.locations.length; i++) legs.push(this.leg(req.locations[i - 1], req.locations[i], req.mode));
    return {
      routes: [{
        distance: legs.reduce((sum, l) => sum + l.distance, 0),
        duration: legs.reduce((sum, l) => sum + l.duration, 0),
        geometry: [...req.locations],
        legs,
      }],
      waypoints: [...req.locations],
    };
  }

  async table(req: TableRequest): Promise<TableResult> {
    const distances = req.sources.map((s) => req.destinations.map((d) => haversine(s, d) * DETOUR_FACTOR));
    return { distances, durations: distances.map((row) => row.map((m) => m / 1000 / SPEED_KMH[req.mode] * 3600)) };
  }

  private leg(from: LngLat, to: LngLat, mode: RouterMode): OsrmLeg {
    const distance = haversine(from, to) * DETOUR_FACTOR;
    const duration = distance / 1000 / SPEED_KMH[mode] * 3600;
    const heading = bearing(from, to);
    const travel = mode === 'foot' ? 'walking' : mode === 'bike' ? 'cycling' : 'driving';
    return {
      distance, duration, summary: '',
      steps: [
        { distance, duration, name: '', mode: travel, geometry: [from, to], maneuver: { type: 'depart', bearing_before: 0, bearing_after: heading, location: from } },
        { distance: 0, duration: 0, name: '', mode: travel, geometry: [to, to], maneuver: { type: 'arrive', bearing_before: heading, bearing_after: 0, location: to } },
      ],
    };
  }
}

/** Initial great-circle bearing, whole degrees clockwise from north. */
function bearing(a: LngLat, b: LngLat): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b[0] - a[0]) * rad) * Math.cos(b[1] * rad);
  const x = Math.cos(a[1] * rad) * Math.sin(b[1] * rad) - Math.sin(a[1] * rad) * Math.cos(b[1] * rad) * Math.cos((b[0] - a[0]) * rad);
  return Math.round((Math.atan2(y, x) / rad + 360) % 360);
}
