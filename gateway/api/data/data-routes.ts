// Ours, not Radar's: what the gateway has imported (GET /v1/data/extracts) and the imported roads in a
// box (GET /v1/data/roads), for the dashboard's base map and for operators checking an import.
import type { EmbeddedRouter } from '../routing/embedded-router';
import type { ExtractCatalog } from '../../jobs/extract-catalog';
import { roadsInBox, type RoadLine } from '../../engine/routing/roads-in-box';
import { BadRequest } from '../../http/errors';
import { shownSource } from './shown-source';
import { required } from '../../http/params';
import type { Route } from '../../http/route';

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

export function dataRoutes(extracts: ExtractCatalog, router: EmbeddedRouter): Route[] {
  const rate = { name: 'data', perSecond: 20 };
  return [
    {
      method: 'GET', path: '/v1/data/extracts', auth: 'secret', rate,
      handler: async () => ({
        body: {
          extracts: extracts.current().map((e) => ({
            name: e.name, source: shownSource(e.manifest.source), importedAt: e.manifest.importedAt, bbox: e.manifest.bbox, stages: e.manifest.stages,
          })),
        },
      }),
    },
    {
      method: 'GET', path: '/v1/data/roads', auth: 'secret', rate,
      handler: async ({ query }) => {
        const box = readBox(required(query.bbox, 'bbox'));
        const roads: RoadLine[] = [];
        let cut = false;
        for (const n of router.networksLoaded) {
          const [w, s, e, no] = n.bbox;
          if (w > box[2] || e < box[0] || s > box[3] || no < box[1]) continue;
          const found = roadsInBox(n.routers.car.network, box, MAX_ROADS - roads.length);
          roads.push(...found.roads);
          cut ||= found.cut;
        }
        return { meta: { cut }, body: { roads } };
      },
    },
  ];
}
