// Obstacle nodes (OSRM v6's traffic signals, stop and give-way signs) read from tags, and what they cost
// car and truck routes on a small generated road: a stop sign without a direction binds only travel
// towards the intersection it stands near, a directed signal only its direction, an obstacle on a vertex
// every turn through it; bicycles pay none.
import type { LngLat, RouterMode } from '../../ports/router';
import { readObstacle } from '../../importers/osm/stages/routing/profiles/obstacles';
import { routerForXml } from './support';
import { OBSTACLE_BACKWARD, OBSTACLE_FORWARD, OBSTACLE_MINOR, OBSTACLE_STOP } from '../../core/routing/obstacles';

test('obstacle tags: seconds, direction, minor stops; crossings cost nothing', () => {
  expect(readObstacle({ highway: 'traffic_signals' })).toEqual({ seconds: 2, kind: 0, signal: true });
  expect(readObstacle({ highway: 'traffic_signals', direction: 'backward', 'traffic_signals:direction': 'forward' })).toMatchObject({ kind: OBSTACLE_FORWARD });
  expect(readObstacle({ highway: 'stop' })).toEqual({ seconds: 2, kind: OBSTACLE_STOP, signal: false });
  expect(readObstacle({ highway: 'stop', direction: 'backward' })).toMatchObject({ kind: OBSTACLE_BACKWARD });
  expect(readObstacle({ highway: 'stop', direction: 'both' })).toMatchObject({ kind: 0 });
  expect(readObstacle({ highway: 'stop', stop: 'minor' })).toMatchObject({ kind: OBSTACLE_MINOR });
  expect(readObstacle({ highway: 'give_way' })).toEqual({ seconds: 1, kind: 0, signal: false });
  expect(readObstacle({ highway: 'crossing', crossing: 'traffic_signals' })).toBeNull();
  expect(readObstacle({ highway: 'mini_roundabout' })).toBeNull();
  expect(readObstacle({ barrier: 'gate' })).toBeNull();
});

// One straight residential road along the equator, west to east, three ways:
//   1 ─ 2(stop, 11 m from 1) ──── 3 ─ 4(signal, forward only) ─ 5(give way, a vertex) ─ 6
const LON = [0, 0.0001, 0.002, 0.003, 0.004, 0.005];
const NODE_TAGS: Record<number, string> = {
  2: '<tag k="highway" v="stop"/>',
  4: '<tag k="highway" v="traffic_signals"/><tag k="traffic_signals:direction" v="forward"/>',
  5: '<tag k="highway" v="give_way"/>',
};
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${LON.map((lon, i) => `<node id="${i + 1}" lat="0" lon="${lon}">${NODE_TAGS[i + 1] ?? ''}</node>`).join('\n')}
<way id="1"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/></way>
<way id="2"><nd ref="3"/><nd ref="4"/><nd ref="5"/><tag k="highway" v="residential"/></way>
<way id="3"><nd ref="5"/><nd ref="6"/><tag k="highway" v="residential"/></way>
</osm>
`;

const router = routerForXml('road', OSM_XML);

const node = (i: number): LngLat => [LON[i - 1], 0];
const KPH: Record<RouterMode, number> = { car: 25, truck: 25, bike: 15, foot: 5 };

/** Seconds a route between two nodes takes beyond driving its length at the mode's speed. */
async function extraSeconds(mode: RouterMode, from: number, to: number): Promise<number> {
  const route = (await router().route!({ locations: [node(from), node(to)], mode })).routes[0];
  return Math.round((route.duration - route.distance / (KPH[mode] / 3.6)) * 10) / 10;
}

test('a stop sign with no direction binds travel towards the intersection it stands near', async () => {
  expect(await extraSeconds('car', 1, 3)).toBeCloseTo(0, 1);
  expect(await extraSeconds('car', 3, 1)).toBeCloseTo(2, 1);
});

test('a signal for one direction binds only that one', async () => {
  expect(await extraSeconds('car', 3, 5)).toBeCloseTo(2, 1);
  expect(await extraSeconds('car', 5, 3)).toBeCloseTo(0, 1);
});

test('an obstacle on a vertex binds the passage through it, once; trucks pay as cars, bicycles not', async () => {
  expect(await extraSeconds('car', 3, 6)).toBeCloseTo(3, 1);
  expect(await extraSeconds('car', 6, 3)).toBeCloseTo(1, 1);
  expect(await extraSeconds('truck', 6, 1)).toBeCloseTo(3, 1);
  expect(await extraSeconds('bike', 6, 1)).toBeCloseTo(0, 1);
});
