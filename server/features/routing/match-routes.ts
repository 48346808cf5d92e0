// POST /v1/route/match (spec: Routing): snap a recorded path to the roads it was driven on.
// Body: `path` (array of {coordinates "lat,lng", createdAt?, accuracy?}), `mode`, `roadAttributes`,
// `units`, `geometry`. See docs/map-matching.md for the model and its limits.
import type { RouterMode, TracePoint } from '../../../ports/router';
import { BadRequest } from '../../http/errors';
import { readDatetime, readLatLng, readList, readNumber, required } from '../../http/params';
import type { Route } from '../../http/route';
import { matchBody, ROAD_ATTRIBUTES, type RoadAttribute } from './match-format';
import type { RouterSelection } from './router-selection';
import { guarded } from './routing-service';
import { readGeometryFormat, readMode, readUnits } from './routing-params';

/** Points in one request: a drive of about 40 minutes at one point every 5 s (OSRM allows 100 by default). */
export const MAX_MATCH_POINTS = 500;

function readPath(raw: unknown): TracePoint[] {
  if (raw === undefined || raw === null || raw === '') throw new BadRequest('path', 'path is required: an array of {coordinates, createdAt, accuracy}');
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new BadRequest('path', 'path must be a JSON array of {coordinates, createdAt, accuracy}');
    }
  }
  if (!Array.isArray(value)) throw new BadRequest('path', 'path must be an array of {coordinates, createdAt, accuracy}');
  if (value.length < 2) throw new BadRequest('path', `path needs at least 2 points; got ${value.length}`);
  if (value.length > MAX_MATCH_POINTS) throw new BadRequest('path', `path can have at most ${MAX_MATCH_POINTS} points; got ${value.length}`);
  let lastTime = -Infinity;
  return value.map((item: unknown, i: number): TracePoint => {
    const where = `path[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new BadRequest('path', `${where} must be an object with coordinates`);
    const o = item as Record<string, unknown>;
    const location = required(readLatLng(o.coordinates, `${where}.coordinates`), `${where}.coordinates`);
    const at = readDatetime(o.createdAt, `${where}.createdAt`);
    const accuracy = readNumber(o.accuracy, `${where}.accuracy`, { min: 0, max: 100_000 });
    const time = at ? at.getTime() / 1000 : undefined;
    if (time !== undefined) {
      if (time < lastTime) throw new BadRequest('path', `${where}.createdAt is earlier than the point before it; points must be in time order`);
      lastTime = time;
    }
    return { location, time, accuracy };
  });
}

function readRoadAttributes(raw: unknown): Set<RoadAttribute> {
  const list = readList(raw, 'roadAttributes') ?? [];
  for (const a of list) {
    if (!(ROAD_ATTRIBUTES as readonly string[]).includes(a)) throw new BadRequest('roadAttributes', `roadAttributes must be a comma-separated list of ${ROAD_ATTRIBUTES.join(', ')}; got "${a.slice(0, 40)}"`);
  }
  return new Set(list as RoadAttribute[]);
}

export function matchRoutes(routers: RouterSelection): Route[] {
  return [{
    method: 'POST', path: '/v1/route/match', auth: 'publishable', rate: { name: 'route-match', perSecond: 10 },
    handler: async ({ body }) => {
      const points = readPath(body.path);
      const mode: RouterMode = readMode(body.mode) ?? 'car';
      const roadAttributes = readRoadAttributes(body.roadAttributes);
      const units = readUnits(body.units);
      const geometry = readGeometryFormat(body.geometry) ?? 'polyline6';
      const locations = points.map((p) => p.location);
      const result = await guarded([{ param: 'path', points: locations }], () => routers.match({ points, mode }));
      return { body: matchBody(result, { units, geometry, roadAttributes }) };
    },
  }];
}
