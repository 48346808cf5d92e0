// OSRM's routability rate penalties for cars (its car profile's `penalties` way handler): alleys,
// driveways and parking aisles, narrow or single-lane two-way roads, side roads weigh more than their
// travel time, so a route takes them only when the way round costs more; the time reported stays the
// travel time. Checked on the profile's decisions and on a small generated map along the equator:
//
//   C ─────── Back Street ─────── D
//   |                             |
//   A ═══════════ alley ═════════ B      (0.002° ≈ 222 m; the detour by C and D, 0.001° north, ≈ 444 m)
import type { LngLat } from '../../ports/router';
import { waySpeeds } from '../../importers/osm/stages/routing/profiles/profile';
import { PROFILES } from '../../importers/osm/stages/routing/profiles/profiles';
import { routerForXml } from './support';

const rates = (tags: Record<string, string>): [number | undefined, number | undefined] => {
  const s = waySpeeds(PROFILES.car, tags, 100);
  return [s?.forwardRate, s?.backwardRate];
};

test('rates of the car profile: service kinds, narrow two-way roads, side roads, priority', () => {
  expect(rates({ highway: 'residential' })).toEqual([1, 1]);
  expect(rates({ highway: 'service', service: 'alley' })).toEqual([0.5, 0.5]);
  expect(rates({ highway: 'service', service: 'driveway' })).toEqual([0.5, 0.5]);
  expect(rates({ highway: 'service', service: 'parking_aisle' })).toEqual([0.5, 0.5]);
  expect(rates({ highway: 'residential', lanes: '1' })).toEqual([0.5, 0.5]);
  // A one-way road of one lane is no narrow two-way road.
  expect(rates({ highway: 'residential', lanes: '1', oneway: 'yes' })[0]).toBe(1);
  expect(rates({ highway: 'residential', width: '3.5' })).toEqual([0.6, 0.6]);
  expect(rates({ highway: 'residential', width: '7' })).toEqual([1, 1]);
  expect(rates({ highway: 'residential', lane_markings: 'no' })).toEqual([0.75, 0.75]);
  expect(rates({ highway: 'residential', side_road: 'yes' })).toEqual([0.8, 0.8]);
  expect(rates({ highway: 'residential', priority: 'forward' })).toEqual([1, 0.7]);
  expect(waySpeeds(PROFILES.foot, { highway: 'service', service: 'alley' }, 100)?.forwardRate).toBeUndefined();
});

const NODES: Array<[number, number, number]> = [[1, 0, 0], [2, 0.002, 0], [3, 0, 0.001], [4, 0.002, 0.001], [5, 0.001, 0]];
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${NODES.map(([id, lon, lat]) => `<node id="${id}" lat="${lat}" lon="${lon}"/>`).join('\n')}
<way id="1"><nd ref="1"/><nd ref="5"/><nd ref="2"/><tag k="highway" v="service"/><tag k="service" v="alley"/></way>
<way id="2"><nd ref="1"/><nd ref="3"/><nd ref="4"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="name" v="Back Street"/></way>
</osm>
`;

const router = routerForXml('alley', OSM_XML);

async function route(from: LngLat, to: LngLat) {
  return (await router().route!({ locations: [from, to], mode: 'car', steps: true })).routes[0];
}

test('a car goes round by the street rather than through the alley when the alley weighs more', async () => {
  // 53 s through the alley at 15 km/h, weighing 107 s; about 64 s of driving and two turns round by Back Street.
  const r = await route([-0.0001, 0], [0.0021, 0]);
  expect(r.distance).toBeGreaterThan(420);
  expect(r.legs[0].steps.map((s) => s.name)).toContain('Back Street');
});

test('through the alley a route takes its travel time, not its weight', async () => {
  // Along the alley's middle half: 111 m at 15 km/h.
  const r = await route([0.0005, -0.00002], [0.0015, -0.00002]);
  expect(r.distance).toBeGreaterThan(105);
  expect(r.distance).toBeLessThan(120);
  expect(r.duration).toBeGreaterThan(24);
  expect(r.duration).toBeLessThan(32);
  // The same through the table (distance and ETA answers); minutes to a tenth.
  const eta = await router().eta([0.0005, -0.00002], [0.0015, -0.00002], 'car');
  expect(eta.duration * 60).toBeGreaterThan(20);
  expect(eta.duration * 60).toBeLessThan(35);
});
