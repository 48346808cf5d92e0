// The reach polygon on road stretches written in the test.
import { reachPolygon, type LngLat } from '../../core/isochrone/reach-polygon';

const CENTER: LngLat = [10, 50];
const KX = 111320 * Math.cos((50 * Math.PI) / 180);
const at = (eastM: number, northM: number): LngLat => [CENTER[0] + eastM / KX, CENTER[1] + northM / 111320];

function inside(p: LngLat, ring: LngLat[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function area(ring: LngLat[]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return s / 2;
}

test('a cross of four 1 km roads gives a closed, counter-clockwise ring around the reached roads only', () => {
  const lines = [[CENTER, at(1000, 0)], [CENTER, at(-1000, 0)], [CENTER, at(0, 1000)], [CENTER, at(0, -1000)]];
  const ring = reachPolygon(CENTER, lines);
  expect(ring[0]).toEqual(ring[ring.length - 1]);
  expect(area(ring)).toBeGreaterThan(0);
  for (const p of [CENTER, at(900, 0), at(-900, 0), at(0, 900), at(0, -900)]) expect(inside(p, ring)).toBe(true);
  // Between the arms nothing was reached.
  for (const p of [at(600, 600), at(-600, -600), at(1300, 0)]) expect(inside(p, ring)).toBe(false);
  expect(ring.length).toBeLessThan(200);
});

test('a block ringed by reached roads is filled, and a stray island is dropped', () => {
  const square = [at(-300, -300), at(300, -300), at(300, 300), at(-300, 300), at(-300, -300)];
  const island = [at(3000, 3000), at(3100, 3000)];
  const ring = reachPolygon(CENTER, [[CENTER, at(-300, 0)], square, island]);
  expect(inside(at(150, 150), ring)).toBe(true);
  expect(inside(at(3050, 3000), ring)).toBe(false);
});
