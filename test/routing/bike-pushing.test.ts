// A bicycle pushed where it may not be ridden (a footway, against a one-way street) travels in OSRM's
// `pushing bike` mode: the steps say so, and a change between riding and pushing is a step of its own
// (OSRM's `notification`), on a small generated road along the equator:
//   1 ── Main Street ── 2 ── Park Path (footway) ── 3 ── East Street ── 4 ◄── One Way (drawn 5 → 4) ── 5
import type { LngLat, OsrmStep } from '../../ports/router';
import { routerForXml } from './support';

const LON = [0, 0.002, 0.003, 0.005, 0.006];
const way = (id: number, nodes: number[], tags: Record<string, string>) =>
  `<way id="${id}">${nodes.map((n) => `<nd ref="${n}"/>`).join('')}${Object.entries(tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('')}</way>`;
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${LON.map((lon, i) => `<node id="${i + 1}" lat="0" lon="${lon}"/>`).join('\n')}
${way(1, [1, 2], { highway: 'residential', name: 'Main Street' })}
${way(2, [2, 3], { highway: 'footway', name: 'Park Path' })}
${way(3, [3, 4], { highway: 'residential', name: 'East Street' })}
${way(4, [5, 4], { highway: 'residential', name: 'One Way', oneway: 'yes' })}
</osm>
`;

const router = routerForXml('bike-pushing', OSM_XML);
const node = (i: number): LngLat => [LON[i - 1], 0];

async function steps(from: number, to: number): Promise<OsrmStep[]> {
  const route = (await router().route!({ locations: [node(from), node(to)], mode: 'bike', steps: true })).routes[0];
  return route.legs.flatMap((l) => l.steps);
}

test('on a footway the bike is pushed: its own step in mode pushing bike, at walking pace', async () => {
  const s = await steps(1, 4);
  expect(s.map((x) => [x.name, x.mode])).toEqual([
    ['Main Street', 'cycling'], ['Park Path', 'pushing bike'], ['East Street', 'cycling'], ['East Street', 'cycling'],
  ]);
  expect(s[1].maneuver.type).toBe('notification');
  // 4 km/h on the path (OSRM's walking speed for a pushed bike), 15 km/h ridden.
  expect(s[1].distance / s[1].duration).toBeCloseTo(4 / 3.6, 1);
  expect(s[0].distance / s[0].duration).toBeCloseTo(15 / 3.6, 1);
});

test('against a one-way street the bike is pushed, along it ridden', async () => {
  const against = await steps(3, 5);
  expect(against.map((x) => [x.name, x.mode])).toEqual([['East Street', 'cycling'], ['One Way', 'pushing bike'], ['One Way', 'pushing bike']]);
  const along = await steps(5, 3);
  expect(along.map((x) => x.mode)).toEqual(['cycling', 'cycling', 'cycling']);
});
