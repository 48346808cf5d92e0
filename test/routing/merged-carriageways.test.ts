// Turning from one one-way road onto another of the same name close in direction at a vertex (two
// carriageways of one road to OSRM, merged-carriageways.ts) is a u-turn: the full turn cost plus the
// u-turn penalty (7.5 s + 20 s for cars). Three small square rings of one-way residential roads,
// clockwise, each corner with a two-way spoke leading out, on a generated map:
//   ring 0: every side named "Ring"                  → going on along the ring at a corner is a u-turn
//   ring 1: each side its own name                    → an ordinary turn
//   ring 2: "Ring", tagged junction=roundabout        → an ordinary turn (roundabouts are never merged)
import type { LngLat } from '../../ports/router';
import { routerForXml } from './support';

/** Side of a ring and length (each axis) of a spoke, degrees; rings lie 0.01° apart along the equator. */
const SIDE = 0.0002;
const SPOKE = 0.0004;
/** Corners clockwise from the south-west one, and the outward direction of their spokes. */
const CORNERS: [number, number][] = [[0, 0], [0, SIDE], [SIDE, SIDE], [SIDE, 0]];
const OUTWARD: [number, number][] = [[-1, -1], [-1, 1], [1, 1], [1, -1]];

function ringNodes(k: number): string {
  const base = 100 * k;
  const x0 = 0.01 * k;
  return CORNERS.map(([x, y], i) => `<node id="${base + i + 1}" lat="${y}" lon="${x0 + x}"/>`)
    .concat(CORNERS.map(([x, y], i) => `<node id="${base + i + 11}" lat="${y + OUTWARD[i][1] * SPOKE}" lon="${x0 + x + OUTWARD[i][0] * SPOKE}"/>`))
    .join('\n');
}

function ringWays(k: number, sideTags: (side: number) => string): string {
  const base = 100 * k;
  const sides = [0, 1, 2, 3].map((i) => `<way id="${base + i + 1}"><nd ref="${base + i + 1}"/><nd ref="${base + ((i + 1) % 4) + 1}"/><tag k="highway" v="residential"/>${sideTags(i)}</way>`);
  const spokes = [0, 1, 2, 3].map((i) => `<way id="${base + i + 11}"><nd ref="${base + i + 1}"/><nd ref="${base + i + 11}"/><tag k="highway" v="residential"/><tag k="name" v="Spoke ${k}.${i}"/></way>`);
  return [...sides, ...spokes].join('\n');
}

const SIDES = ['North', 'East', 'South', 'West'];
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${[0, 1, 2].map(ringNodes).join('\n')}
${ringWays(0, () => '<tag k="oneway" v="yes"/><tag k="name" v="Ring"/>')}
${ringWays(1, (i) => `<tag k="oneway" v="yes"/><tag k="name" v="Ring ${SIDES[i]}"/>`)}
${ringWays(2, () => '<tag k="junction" v="roundabout"/><tag k="name" v="Ring"/>')}
</osm>
`;

const router = routerForXml('rings', OSM_XML);

/** The outer end of spoke `i` of ring `k`. */
const spokeEnd = (k: number, i: number): LngLat => [0.01 * k + CORNERS[i][0] + OUTWARD[i][0] * SPOKE, CORNERS[i][1] + OUTWARD[i][1] * SPOKE];

/** Seconds a car route takes beyond driving its length at 25 km/h (residential): what its turns cost. */
async function turnSeconds(k: number, from: number, to: number): Promise<number> {
  const route = (await router().route!({ locations: [spokeEnd(k, from), spokeEnd(k, to)], mode: 'car' })).routes[0];
  return route.duration - route.distance / (25 / 3.6);
}

test('going on along a ring of one-way roads of one name, at a corner with a third road, is a u-turn', async () => {
  // Spoke 0 → spoke 2 passes corner 1 from one side of the ring onto the next; spoke 0 → spoke 1
  // leaves at corner 1 instead, and corner 2 is left as corner 1 would be: the difference is the turn
  // at corner 1.
  const u = (await turnSeconds(0, 0, 2)) - (await turnSeconds(0, 0, 1));
  expect(u).toBeCloseTo(7.46 + 20, 0);
});

test('not when the sides have different names, nor along a roundabout', async () => {
  for (const k of [1, 2]) {
    const extra = (await turnSeconds(k, 0, 2)) - (await turnSeconds(k, 0, 1));
    expect(extra).toBeGreaterThan(0);
    expect(extra).toBeLessThan(7.5);
  }
});

test('entering a ring and leaving it at the next corner pays ordinary turns only', async () => {
  expect(await turnSeconds(0, 0, 1)).toBeLessThan(7.5 * 2);
});
