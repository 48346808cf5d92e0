// GET /v1/route/distance, /matrix, /directions and /optimize (spec: Routing). Handlers read parameters and
// call the routing service; formatting lives in route-format.ts, router choice in router-selection.ts.
import type { RouterMode } from '../../../ports/router';
import { BadRequest } from '../../http/errors';
import { readBoolean, readLatLng, readLatLngList, readList, readNumber, required } from '../../http/params';
import type { Route } from '../../http/route';
import { MATRIX_AVOID, MODES, readAvoid, readDepartureTime, readGeometryFormat, readLang, readMode, readUnits } from './routing-params';
import type { RoutingService } from './routing-service';

/** Spec limits. */
export const MAX_MATRIX_ROUTES = 625;
export const MAX_DIRECTIONS_LOCATIONS = 25;
export const MAX_OPTIMIZE_LOCATIONS = 10;

function readModes(raw: unknown): Array<RouterMode | 'geodesic'> {
  const list = required(readList(raw, 'modes'), 'modes');
  const allowed = ['geodesic', ...MODES];
  for (const m of list) {
    if (!allowed.includes(m)) throw new BadRequest('modes', `modes must be a comma-separated list of ${allowed.join(', ')}; got "${m.slice(0, 40)}"`);
  }
  return [...new Set(list)] as Array<RouterMode | 'geodesic'>;
}

export function routingRoutes(routing: RoutingService): Route[] {
  return [
    {
      method: 'GET', path: '/v1/route/distance', auth: 'publishable', rate: { name: 'route-distance', perSecond: 100 },
      handler: async ({ query }) => {
        const origin = required(readLatLng(query.origin, 'origin'), 'origin');
        const destination = required(readLatLng(query.destination, 'destination'), 'destination');
        const modes = readModes(query.modes);
        const units = readUnits(query.units);
        const avoid = readAvoid(query.avoid);
        const geometry = readGeometryFormat(query.geometry);
        readDepartureTime(query.departureTime);
        const answer = await routing.distance({ origin, destination, modes, units, avoid, geometry });
        return { body: answer.body, meta: answer.meta };
      },
    },
    {
      method: 'GET', path: '/v1/route/matrix', auth: 'publishable', rate: { name: 'route-matrix', perSecond: 20 },
      handler: async ({ query }) => {
        const origins = required(readLatLngList(query.origins, 'origins', { max: MAX_MATRIX_ROUTES }), 'origins');
        const destinations = required(readLatLngList(query.destinations, 'destinations', { max: MAX_MATRIX_ROUTES }), 'destinations');
        if (origins.length * destinations.length > MAX_MATRIX_ROUTES) {
          throw new BadRequest('destinations', `a matrix can have at most ${MAX_MATRIX_ROUTES} routes; ${origins.length} origins × ${destinations.length} destinations is ${origins.length * destinations.length}`);
        }
        const mode = required(readMode(query.mode), 'mode');
        const units = readUnits(query.units);
        const avoid = readAvoid(query.avoid, MATRIX_AVOID);
        readDepartureTime(query.departureTime);
        const answer = await routing.matrix({ origins, destinations, mode, units, avoid });
        return { body: answer.body, meta: answer.meta };
      },
    },
    {
      method: 'GET', path: '/v1/route/directions', auth: 'publishable', rate: { name: 'route-directions', perSecond: 10 },
      handler: async ({ query }) => {
        const locations = required(readLatLngList(query.locations, 'locations', { max: MAX_DIRECTIONS_LOCATIONS, min: 2 }), 'locations');
        const mode = readMode(query.mode) ?? 'car';
        const units = readUnits(query.units);
        const avoid = readAvoid(query.avoid);
        const geometry = readGeometryFormat(query.geometry) ?? 'polyline6';
        readDepartureTime(query.departureTime);
        const heading = readNumber(query.heading, 'heading', { min: 0, max: 360 });
        const alternatives = readBoolean(query.alternatives, 'alternatives') ?? false;
        if (alternatives && locations.length !== 2) {
          throw new BadRequest('alternatives', `alternatives needs exactly two locations; got ${locations.length}`);
        }
        const lang = readLang(query.lang);
        const answer = await routing.directions({ locations, mode, units, avoid, geometry, heading, alternatives, lang });
        return { body: answer.body, meta: answer.meta };
      },
    },
    {
      method: 'GET', path: '/v1/route/optimize', auth: 'publishable', rate: { name: 'route-optimize', perSecond: 10 },
      handler: async ({ query }) => {
        const locations = required(readLatLngList(query.locations, 'locations', { max: MAX_OPTIMIZE_LOCATIONS, min: 2 }), 'locations');
        const mode = readMode(query.mode) ?? 'car';
        const units = readUnits(query.units);
        const geometry = readGeometryFormat(query.geometry);
        readDepartureTime(query.departureTime);
        const answer = await routing.optimize({ locations, mode, units, geometry });
        return { body: answer.body, meta: answer.meta };
      },
    },
  ];
}
