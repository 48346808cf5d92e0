// A building's walls without the edges it was cut on (dashboard/src/map/building-walls.ts): the outline
// the map strokes, so a building across a cell line shows no seam.
import { wallsOf } from '../../dashboard/src/map/building-walls';

/** A ring as the answer's absolute integers and as pixels (here the same numbers). */
function ring(points: Array<[number, number]>): { px: Float64Array; abs: number[] } {
  const abs = points.flat();
  return { px: Float64Array.from(abs), abs };
}

const pairs = (line: Float64Array): Array<[number, number]> => Array.from({ length: line.length / 2 }, (_, i) => [line[2 * i], line[2 * i + 1]]);

test('a ring without a cut edge is one closed outline', () => {
  const { px, abs } = ring([[1, 1], [5, 1], [5, 4], [1, 4]]);
  expect(wallsOf(px, abs, 10).map(pairs)).toEqual([[[1, 1], [5, 1], [5, 4], [1, 4], [1, 1]]]);
});

test('the half of a building west of a cut meridian loses the edge along it, and only that edge', () => {
  // Cut on x = 10: the edge (10, 2) → (10, 6) is the cut.
  const { px, abs } = ring([[6, 2], [10, 2], [10, 6], [6, 6]]);
  expect(wallsOf(px, abs, 10).map(pairs)).toEqual([[[10, 6], [6, 6], [6, 2], [10, 2]]]);
});

test('a piece cut on two lines (a cell corner) keeps its two walls apart', () => {
  // Cut on x = 10 and y = 20: a building's north-east quarter piece, its south and west edges cuts.
  const { px, abs } = ring([[10, 20], [14, 20], [14, 23], [10, 23]]);
  expect(wallsOf(px, abs, 10).map(pairs)).toEqual([[[14, 20], [14, 23], [10, 23]]]);
});

test('an edge on a line that is not the grid\'s, or along a grid line only at one end, is a wall', () => {
  const { px, abs } = ring([[11, 2], [11, 6], [15, 6], [10, 2]]);
  expect(wallsOf(px, abs, 10).map(pairs)).toEqual([[[11, 2], [11, 6], [15, 6], [10, 2], [11, 2]]]);
  // Without a grid (an older gateway) nothing is a cut.
  const cut = ring([[6, 2], [10, 2], [10, 6], [6, 6]]);
  expect(wallsOf(cut.px, cut.abs, 0)).toHaveLength(1);
  expect(wallsOf(cut.px, cut.abs, 0)[0]).toHaveLength(10);
});
