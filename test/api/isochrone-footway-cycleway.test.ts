// Walking and cycling isochrones from points next to and 200 m away from a footway and a cycleway
// (issue 32): the centre is snapped to its path as routes are, so the outline grows along the path and
// never collapses to the 60 m square around the centre alone; a degenerate outline is refused, not
// stored. The network is written by the test: a 1.5 km footway and, 1.1 km north, a 3 km cycleway.
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { degenerateRing } from '../../core/isochrone/degenerate-ring';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

type LngLat = [number, number];
const FOOTWAY_LAT = 47.1;
const CYCLEWAY_LAT = 47.11;
const M_PER_DEG_LAT = 111_195;
const M_PER_DEG_LNG = M_PER_DEG_LAT * Math.cos((47.1 * Math.PI) / 180);

/** A straight way along a latitude, nodes every 0.001° of longitude: its nodes and its way, apart (OSM files list nodes first). */
function straightWay(firstId: number, wayId: number, lat: number, fromLng: number, toLng: number, tags: Record<string, string>): { nodes: string; way: string } {
  const nodes: string[] = [];
  const refs: string[] = [];
  for (let i = 0, lng = fromLng; lng <= toLng + 1e-9; i++, lng += 0.001) {
    nodes.push(`<node id="${firstId + i}" lat="${lat}" lon="${lng.toFixed(6)}"/>`);
    refs.push(`<nd ref="${firstId + i}"/>`);
  }
  const tagXml = Object.entries(tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('');
  return { nodes: nodes.join('\n'), way: `<way id="${wayId}">${refs.join('')}${tagXml}</way>` };
}

const FOOTWAY = straightWay(1000, 1, FOOTWAY_LAT, 9.5, 9.52, { highway: 'footway' });
const CYCLEWAY = straightWay(2000, 2, CYCLEWAY_LAT, 9.5, 9.53, { highway: 'cycleway' });
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="waymark-test">
${FOOTWAY.nodes}
${CYCLEWAY.nodes}
${FOOTWAY.way}
${CYCLEWAY.way}
</osm>`;

function inside([x, y]: LngLat, ring: LngLat[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** The point `metres` east (negative: west) of `p`, on the same latitude. */
const east = ([lng, lat]: LngLat, metres: number): LngLat => [lng + metres / M_PER_DEG_LNG, lat];

let server: TestServer;
beforeAll(async () => {
  const dataDir = tempDataDir();
  const file = path.join(dataDir, 'paths.osm');
  fs.writeFileSync(file, XML);
  await runImport({ file, name: 'paths', dataDir, stages: [new RoutingStage()] });
  server = await startTestServer({ dataDir });
}, 120_000);
afterAll(() => server?.close());

const isochrone = (externalId: string, mode: string, minutes: number, [lng, lat]: LngLat) => server.request('PUT', `/v1/geofences/iso/${externalId}`, {
  key: server.keys.testSk, body: { description: externalId, type: 'isochrone', mode, radius: minutes, coordinates: [lng, lat] },
});

// Foot: 5 minutes at walking pace reach about 400 m each way along the footway. Bike: 3 minutes on
// the cycleway reach about 750 m each way.
const CASES = [
  { name: 'on foot, next to the footway', mode: 'foot', minutes: 5, pathLat: FOOTWAY_LAT, offset: 3, reached: 250, beyond: 800 },
  { name: 'on foot, 200 m south of the footway', mode: 'foot', minutes: 5, pathLat: FOOTWAY_LAT, offset: -200, reached: 250, beyond: 800 },
  { name: 'by bike, next to the cycleway', mode: 'bike', minutes: 3, pathLat: CYCLEWAY_LAT, offset: 3, reached: 400, beyond: 1300 },
  { name: 'by bike, 200 m north of the cycleway', mode: 'bike', minutes: 3, pathLat: CYCLEWAY_LAT, offset: 200, reached: 400, beyond: 1300 },
] as const;

test.each(CASES)('$name: the outline holds the centre, the way onto the path and the path both ways, and stops where time runs out', async ({ name, mode, minutes, pathLat, offset, reached, beyond }) => {
  const onPath: LngLat = [9.515, pathLat];
  const centre: LngLat = [onPath[0], pathLat + offset / M_PER_DEG_LAT];
  const res = await isochrone(name.replace(/\W+/g, '-'), mode, minutes, centre);
  expect(res.status).toBe(200);
  const ring = res.body.geofence.geometry.coordinates[0] as LngLat[];
  expect(degenerateRing(ring)).toBeUndefined();
  expect(inside(centre, ring)).toBe(true);
  // The way from the centre onto the path, halfway.
  expect(inside([centre[0], (centre[1] + pathLat) / 2], ring)).toBe(true);
  for (const side of [1, -1]) {
    expect([side, inside(east(onPath, side * reached), ring)]).toEqual([side, true]);
    expect([side, inside(east(onPath, side * beyond), ring)]).toEqual([side, false]);
  }
});

test('a one-minute walk from 200 m off the footway still reaches along it (no 60 m square)', async () => {
  const centre: LngLat = [9.505, FOOTWAY_LAT - 200 / M_PER_DEG_LAT];
  const res = await isochrone('foot-1-min', 'foot', 1, centre);
  expect(res.status).toBe(200);
  const ring = res.body.geofence.geometry.coordinates[0] as LngLat[];
  expect(inside(east([9.505, FOOTWAY_LAT], 40), ring)).toBe(true);
});

test('degenerate outlines are recognised: the 60 m square and a sliver are refused with their reason', () => {
  const square = (m: number): LngLat[] => {
    const d = m / M_PER_DEG_LAT;
    return [[9.5, 47.1], [9.5 + d, 47.1], [9.5 + d, 47.1 + d], [9.5, 47.1 + d], [9.5, 47.1]];
  };
  expect(degenerateRing(square(60))).toMatch(/spans only \d+ m/);
  expect(degenerateRing([[9.5, 47.1], [9.6, 47.1], [9.5, 47.1]])).toMatch(/distinct corners/);
  expect(degenerateRing(square(400))).toBeUndefined();
});
