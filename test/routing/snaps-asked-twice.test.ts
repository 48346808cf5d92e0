// The routing endpoints ask the embedded router which router answers (sourceFor: it snaps every point)
// and then for the answer, which would snap them again; the router keeps the last snaps and uses them
// when the same points come again for the same mode and avoid options. Anything else must be snapped
// anew: another point set, another mode, another avoid mask.
import { routerForXml } from './support';
import type { LngLat } from '../../ports/router';

// A 5 × 5 grid of residential streets 200 m apart (ids: node 100·row + col), the middle row a toll road.
const SIZE = 5;
const STEP = 0.0018;
const id = (r: number, c: number) => 100 * (r + 1) + c + 1;
const nodes: string[] = [];
const ways: string[] = [];
for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) nodes.push(`<node id="${id(r, c)}" lat="${(r * STEP).toFixed(7)}" lon="${(c * STEP).toFixed(7)}"/>`);
for (let r = 0; r < SIZE; r++) {
  const toll = r === 2 ? '<tag k="toll" v="yes"/>' : '';
  ways.push(`<way id="${r + 1}">${Array.from({ length: SIZE }, (_, c) => `<nd ref="${id(r, c)}"/>`).join('')}<tag k="highway" v="residential"/>${toll}</way>`);
}
for (let c = 0; c < SIZE; c++) ways.push(`<way id="${100 + c}">${Array.from({ length: SIZE }, (_, r) => `<nd ref="${id(r, c)}"/>`).join('')}<tag k="highway" v="residential"/></way>`);
const OSM_XML = `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n${nodes.join('\n')}\n${ways.join('\n')}\n</osm>\n`;

const router = routerForXml('grid', OSM_XML);

const at = (row: number, col: number): LngLat => [col * STEP, row * STEP];
// Between streets, a few metres off the middle (toll) row: nearest the toll road, next nearest the street above.
const A: LngLat[] = [at(0, 0.5), at(2.1, 3.5), at(4, 1.5)];

test('a table after sourceFor of the same points answers as a table alone', async () => {
  const r = router();
  const alone = await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car' });
  expect(r.sourceFor!(A, 'car')).toBe('embedded');
  expect(await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car' })).toEqual(alone);
});

test('points that differ from the last ones asked (one coordinate of the last point) are snapped anew', async () => {
  const r = router();
  const moved: LngLat[] = [A[0], A[1], [A[2][0] + 2 * STEP, A[2][1]]];
  const expected = await r.table({ sources: moved.slice(0, 1), destinations: moved.slice(1), mode: 'car' });
  expect(r.sourceFor!(A, 'car')).toBe('embedded');
  const after = await r.table({ sources: moved.slice(0, 1), destinations: moved.slice(1), mode: 'car' });
  expect(after).toEqual(expected);
  expect(after.distances[0][1]).not.toEqual((await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car' })).distances[0][1]);
});

test('another mode or avoid option snaps anew', async () => {
  const r = router();
  const foot = await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'foot' });
  const tolls = await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car', avoid: ['tolls'] });
  expect(r.sourceFor!(A, 'car')).toBe('embedded');
  expect(await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'foot' })).toEqual(foot);
  expect(r.sourceFor!(A, 'car')).toBe('embedded');
  const tollsAfter = await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car', avoid: ['tolls'] });
  expect(tollsAfter).toEqual(tolls);
  // Avoiding tolls moves the second point's snap off the toll road: the answers differ.
  expect(tolls).not.toEqual(await r.table({ sources: A.slice(0, 1), destinations: A.slice(1), mode: 'car' }));
});
