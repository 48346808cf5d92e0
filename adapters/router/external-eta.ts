// What every external-engine adapter answers the same way: an ETA as the best route's duration and
// distance, and the straight-line reach that bounds a search by travel time, from a top speed per mode
// faster than any realistic average over a network.
import type { Eta, LngLat, RouteRequest, RouteResult, RouterMode } from '../../ports/router';

const MAX_SPEED_KMH: Record<RouterMode, number> = { car: 130, truck: 100, bike: 30, foot: 7 };

export async function etaByRoute(route: (req: RouteRequest) => Promise<RouteResult>, from: LngLat, to: LngLat, mode: RouterMode): Promise<Eta> {
  const { routes } = await route({ locations: [from, to], mode });
  return { duration: routes[0].duration / 60, distance: routes[0].distance };
}

export function reachAtTopSpeed(minutes: number, mode: RouterMode): number {
  return (minutes / 60) * MAX_SPEED_KMH[mode] * 1000;
}
