// Ours, not Radar's: what the gateway has imported (GET /v1/data/extracts), the imported roads in a
// box (GET /v1/data/roads), the water, green, buildings and names of a view (GET /v1/data/basemap), and the geofences and users in a map view (GET /v1/data/map, with
// GET /v1/data/overview saying where the data lies): the dashboard's map reads only these, so what it
// loads is bounded by the view and not by the size of the environment.
import type { EmbeddedRouter } from '../../../adapters/router/embedded/embedded-router';
import type { ExtractCatalog } from '../../../adapters/extracts/extract-catalog';
import { roadsInBox, type RoadLine } from '../../../core/routing/roads-in-box';
import { BadRequest } from '../../http/errors';
import { shownSource } from './shown-source';
import { required } from '../../http/params';
import type { Route } from '../../http/route';
import type { Store } from '../../../ports/store';
import { USERS } from '../../api/collections';
import type { Geofences } from '../../../ports/geofences';
import { CellCounter, GRID, sketchGeofence, type ViewBox } from '../../../core/geofencing/map-sketch';
import type { PreparedGeofence } from '../../../core/geofencing/prepared-geofence';
import { number, oneOf, paramSpec, takes, text, list } from '../../http/params/param-spec';
import type { BasemapFiles } from '../../../adapters/basemap/basemap-files';
import { basemapInView } from '../../../core/formats/basemap/basemap-query';

/** Most road lines in one answer. */
const MAX_ROADS = 5000;
/** Widest box, degrees: about a city at the dashboard's zoom 12. */
const MAX_BOX_DEGREES = 0.5;

function readBox(raw: unknown): [number, number, number, number] {
  if (typeof raw !== 'string') throw new BadRequest('bbox', 'bbox must be "west,south,east,north" in degrees');
  const parts = raw.split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) throw new BadRequest('bbox', 'bbox must be "west,south,east,north" in degrees');
  const [w, s, e, n] = parts;
  if (w < -180 || e > 180 || s < -90 || n > 90 || w >= e || s >= n) throw new BadRequest('bbox', 'bbox must have west < east within ±180 and south < north within ±90');
  if (e - w > MAX_BOX_DEGREES || n - s > MAX_BOX_DEGREES) throw new BadRequest('bbox', `bbox may span at most ${MAX_BOX_DEGREES}° each way`);
  return [w, s, e, n];
}

/** Most geofences drawn one by one in a view; past this the view gets counts per cell. */
export const MAX_MAP_SHAPES = 1500;
/** Most users sent one by one in a view; past this, counts per cell. */
export const MAX_MAP_USERS = 2000;

function round5(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}

const MAP = paramSpec('query', {
  bbox: text({ maxLength: 200 }).required().describe('"west,south,east,north" in degrees, west < east'),
  zoom: number({ min: 0, max: 24 }).required().describe('the map\'s zoom: rings are thinned to its pixel'),
  include: list().describe('geofences, users (default both)'),
  enabled: oneOf(['true', 'false'] as const).describe('only enabled (true) or disabled (false) geofences'),
});

const BASEMAP = paramSpec('query', {
  bbox: text({ maxLength: 200 }).required().describe('"west,south,east,north" in degrees, west < east, at most 4,096 pixels of the zoom each way'),
  zoom: number({ min: 0, max: 24 }).required().describe('the map\'s zoom: which levels, shapes and labels are answered'),
});

/** Most points (all shapes) in one base map answer: ~1 MiB of JSON at the densest. */
const MAX_BASEMAP_POINTS = 150_000;
const MAX_BASEMAP_LABELS = 2_000;
/** Widest view, pixels each way: a 4K screen's; past it a box at street zoom would read a whole city's buildings. */
const MAX_VIEW_PIXELS = 4096;

function readViewBox(raw: string): ViewBox {
  const parts = raw.split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) throw new BadRequest('bbox', 'bbox must be "west,south,east,north" in degrees');
  const [west, south, east, north] = parts;
  if (west < -180 || east > 180 || south < -90 || north > 90 || west >= east || south >= north) throw new BadRequest('bbox', 'bbox must have west < east within ±180 and south < north within ±90');
  return { west, south, east, north };
}

export function dataRoutes(extracts: ExtractCatalog, router: EmbeddedRouter, store: Store, geofences: Geofences, basemap: BasemapFiles): Route[] {
  const rate = { name: 'data', perSecond: 20 };
  return [
    {
      method: 'GET', path: '/v1/data/overview', auth: 'secret', rate,
      handler: async ({ scope }) => {
        const index = await geofences.index(scope);
        const e = index.extent();
        return { body: { geofences: { count: index.size, bbox: e ? [e.minX, e.minY, e.maxX, e.maxY] : null } } };
      },
    },
    {
      method: 'GET', path: '/v1/data/map', auth: 'secret', rate,
      ...takes(MAP, async ({ scope }, q) => {
        const box = readViewBox(q.bbox);
        const include = q.include ?? ['geofences', 'users'];
        for (const name of include) if (name !== 'geofences' && name !== 'users') throw new BadRequest('include', 'include lists geofences and users');
        const body: Record<string, unknown> = {};
        if (include.includes('geofences')) {
          const index = await geofences.index(scope);
          const wanted = q.enabled === undefined ? undefined : q.enabled === 'true';
          // Counted one by one as the tree finds them; kept only while few enough to be drawn.
          const counter = new CellCounter(box);
          const found: PreparedGeofence[] = [];
          index.forEachInBox({ minX: box.west, minY: box.south, maxX: box.east, maxY: box.north }, (f, minX, minY, maxX, maxY) => {
            if (wanted !== undefined && f.enabled !== wanted) return;
            counter.addBox(minX, minY, maxX, maxY);
            if (found.length <= MAX_MAP_SHAPES) found.push(f);
          });
          body.geofences = counter.total <= MAX_MAP_SHAPES
            ? { total: counter.total, shapes: found.map((f) => sketchGeofence(f, q.zoom)), cells: [] }
            : { total: counter.total, shapes: [], cells: counter.cells() };
        }
        if (include.includes('users')) {
          // Counted by the store per cell first (an aggregate, whatever the view holds); the users
          // themselves are read only when few enough to be drawn one by one.
          const bbox = { minLng: box.west, minLat: box.south, maxLng: box.east, maxLat: box.north };
          const grid = await store.countGrid(USERS, scope, bbox, GRID, GRID);
          const total = grid.reduce((sum, c) => sum + c.count, 0);
          const docs = total <= MAX_MAP_USERS ? await store.within(USERS, scope, bbox, MAX_MAP_USERS + 1) : [];
          // Users tracked into the view between the two reads may make it crowded after all: then counts.
          body.users = total <= MAX_MAP_USERS && docs.length <= MAX_MAP_USERS
            ? {
              total: docs.length, cut: false, cells: [],
              points: docs.map((u) => ({ _id: u._id, userId: u.userId ?? null, deviceId: u.deviceId ?? null, coordinates: (u.location as { coordinates: [number, number] }).coordinates, updatedAt: u.updatedAt })),
            }
            : { total, cut: false, points: [], cells: grid.map((c) => [round5(c.lng), round5(c.lat), c.count]) };
        }
        return { body };
      }),
    },
    {
      method: 'GET', path: '/v1/data/extracts', auth: 'secret', rate,
      handler: async () => ({
        body: {
          extracts: extracts.current().map((e) => ({
            name: e.name, source: shownSource(e.manifest.source), importedAt: e.manifest.importedAt, bbox: e.manifest.bbox,
            coverage: e.manifest.coverage ?? e.manifest.bbox, stages: e.manifest.stages,
          })),
        },
      }),
    },
    {
      method: 'GET', path: '/v1/data/basemap', auth: 'secret', rate,
      ...takes(BASEMAP, async (_req, q) => {
        const box = readViewBox(q.bbox);
        const widest = Math.min(360, (MAX_VIEW_PIXELS * 360) / (256 * 2 ** q.zoom));
        if (box.east - box.west > widest || box.north - box.south > widest) {
          throw new BadRequest('bbox', `bbox may span at most ${+widest.toPrecision(3)}° each way at zoom ${q.zoom} (${MAX_VIEW_PIXELS} pixels)`);
        }
        const { answer, cut } = basemapInView(basemap.current(), box, q.zoom, { maxPoints: MAX_BASEMAP_POINTS, maxLabels: MAX_BASEMAP_LABELS });
        return { meta: { cut }, body: answer };
      }),
    },
    {
      method: 'GET', path: '/v1/data/roads', auth: 'secret', rate,
      handler: async ({ query }) => {
        const box = readBox(required(query.bbox, 'bbox'));
        const roads: RoadLine[] = [];
        let cut = false;
        for (const n of await router.servedNetworks()) {
          const [w, s, e, no] = n.bbox;
          if (w > box[2] || e < box[0] || s > box[3] || no < box[1]) continue;
          const found = roadsInBox(n.network, box, MAX_ROADS - roads.length);
          roads.push(...found.roads);
          cut ||= found.cut;
        }
        return { meta: { cut }, body: { roads } };
      },
    },
  ];
}
