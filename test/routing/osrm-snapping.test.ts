// Where a route's ends snap, as OSRM v6 snaps them, on a small generated map along the equator
// (0.001° is about 111 m):
//
//   D (West Road)                    F (East Road)
//   |                                |
//   A ── Gate Road ── B(block) ──── C
//
//   N
//   ↑ North Lane (one-way, from J)
//   J ── Long Road ──────── E
//
// A barrier inside a way is a vertex: the road up to it is reached from either side, and a route may start
// or end there, while nothing passes it. A point whose nearest place is a junction is on every road there
// (OSRM keeps each segment at that place as a candidate): it leaves along the one that serves best, not
// the one met first.
import type { LngLat } from '../../ports/router';
import { routerForXml } from './support';

const NODES: Array<[number, number, number, string?]> = [
  [1, 0, 0], [2, 0.001, 0, '<tag k="barrier" v="block"/>'], [3, 0.002, 0], [4, 0, 0.001], [5, 0.002, 0.001],
  [11, 0, -0.01], [12, 0, -0.008], [13, 0.003, -0.01],
];
const way = (id: number, refs: number[], name: string, extra = '') =>
  `<way id="${id}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}<tag k="highway" v="residential"/><tag k="name" v="${name}"/>${extra}</way>`;
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${NODES.map(([id, lon, lat, tags]) => `<node id="${id}" lat="${lat}" lon="${lon}">${tags ?? ''}</node>`).join('\n')}
${way(20, [11, 12], 'North Lane', '<tag k="oneway" v="yes"/>')}
${way(21, [11, 13], 'Long Road')}
${way(10, [1, 2, 3], 'Gate Road')}
${way(11, [1, 4], 'West Road')}
${way(12, [3, 5], 'East Road')}
</osm>
`;

const router = routerForXml('snapping', OSM_XML);

async function route(from: LngLat, to: LngLat) {
  const { routes, waypoints } = await router().route!({ locations: [from, to], mode: 'car', steps: true });
  return { distance: routes[0].distance, names: routes[0].legs[0].steps.map((s) => s.name), waypoints };
}

test('a route starts on the road up to a barrier inside a way, from either side', async () => {
  // 5.6 m from Gate Road between A and the block, 55 m from West Road.
  const west = await route([0.0005, 0.00005], [0, 0.001]);
  expect(west.waypoints[0][1]).toBeCloseTo(0, 6);
  expect(west.names[0]).toBe('Gate Road');
  expect(west.distance).toBeGreaterThan(160);
  expect(west.distance).toBeLessThan(175);
  const east = await route([0.0015, 0.00005], [0.002, 0.001]);
  expect(east.names[0]).toBe('Gate Road');
  expect(east.distance).toBeGreaterThan(160);
  expect(east.distance).toBeLessThan(175);
});

test('nothing passes the barrier', async () => {
  await expect(router().route!({ locations: [[0.0005, 0.00005], [0.0015, 0.00005]], mode: 'car' })).rejects.toThrow(/no car route connects/);
});

test('a point nearest a junction leaves along whichever road there reaches the destination', async () => {
  // South-west of J: J is the nearest place on North Lane (a one-way dead end away from J, met first) and on Long Road.
  const r = await route([-0.0002, -0.0102], [0.002, -0.0101]);
  expect(r.waypoints[0][0]).toBeCloseTo(0, 6);
  expect(r.waypoints[0][1]).toBeCloseTo(-0.01, 6);
  expect(r.names[0]).toBe('Long Road');
  expect(r.distance).toBeGreaterThan(215);
  expect(r.distance).toBeLessThan(230);
});
