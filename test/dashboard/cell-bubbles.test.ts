// A crowded view's cells summed into bubbles that do not cover each other (dashboard/src/map/cell-bubbles.ts).
import { bubblesOf } from '../../dashboard/src/map/cell-bubbles';

/** A plain projection for the test: one degree is 1,000 pixels, north up. */
const toScreen = (lng: number, lat: number) => ({ x: lng * 1000, y: -lat * 1000 });

test('cells in one square become one bubble at their count-weighted middle, holding their sum', () => {
  const cells: Array<[number, number, number]> = [[0.001, -0.001, 1], [0.031, -0.001, 3], [0.001, -0.031, 4]];
  const [b, ...rest] = bubblesOf(cells, toScreen, 64);
  expect(rest).toEqual([]);
  expect(b[2]).toBe(8);
  expect(b[0]).toBeCloseTo((0.001 * 1 + 0.031 * 3 + 0.001 * 4) / 8, 9);
  expect(b[1]).toBeCloseTo((-0.001 * 1 - 0.001 * 3 - 0.031 * 4) / 8, 9);
});

test('a 32 × 32 grid over 1,000 px keeps every count and leaves at most one bubble per 64 px square', () => {
  const cells: Array<[number, number, number]> = [];
  let total = 0;
  for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) { const n = 1 + ((i * 7 + j * 13) % 50); total += n; cells.push([(i + 0.5) / 32, -(j + 0.5) / 32, n]); }
  const bubbles = bubblesOf(cells, toScreen, 64);
  expect(bubbles.reduce((s, b) => s + b[2], 0)).toBe(total);
  expect(bubbles).toHaveLength(16 * 16);
  const squares = new Set(bubbles.map(([lng, lat]) => { const p = toScreen(lng, lat); return `${Math.floor(p.x / 64)},${Math.floor(p.y / 64)}`; }));
  expect(squares.size).toBe(bubbles.length);
});

test('empty cells make no bubble', () => {
  expect(bubblesOf([[0, 0, 0]], toScreen)).toEqual([]);
});
