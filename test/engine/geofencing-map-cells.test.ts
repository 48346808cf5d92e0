// A crowded map view's counts per cell (core/geofencing/map-sketch.ts CellCounter): each item in the
// cell its position falls in, the cell at the mean position of what it holds, a box counted at its
// centre clamped into the view; checked against counts made here by hand.
import { CellCounter, GRID } from '../../core/geofencing/map-sketch';
import { prng } from '../../bench/support/prng';

const VIEW = { west: -74.3, south: 40.5, east: -73.7, north: 40.9 };

describe('CellCounter', () => {
  test('random points: every cell holds the points inside it, at their mean position', () => {
    const rnd = prng(5);
    const counter = new CellCounter(VIEW);
    const expected = new Map<number, { n: number; x: number; y: number }>();
    const w = (VIEW.east - VIEW.west) / GRID, hgt = (VIEW.north - VIEW.south) / GRID;
    for (let i = 0; i < 5000; i++) {
      // A third of the points in one corner cell, so some cells are crowded and many empty.
      const x = i % 3 === 0 ? VIEW.west + rnd() * w * 0.9 : VIEW.west + rnd() * (VIEW.east - VIEW.west) * 0.5;
      const y = i % 3 === 0 ? VIEW.south + rnd() * hgt * 0.9 : VIEW.south + rnd() * (VIEW.north - VIEW.south) * 0.5;
      counter.add(x, y);
      const key = Math.floor((y - VIEW.south) / hgt) * GRID + Math.floor((x - VIEW.west) / w);
      const e = expected.get(key) ?? { n: 0, x: 0, y: 0 };
      e.n++; e.x += x; e.y += y;
      expected.set(key, e);
    }
    expect(counter.total).toBe(5000);
    const cells = counter.cells();
    expect(cells).toHaveLength(expected.size);
    const byPosition = [...expected.values()].map((e) => [Number((e.x / e.n).toFixed(5)), Number((e.y / e.n).toFixed(5)), e.n]);
    const sort = (a: number[][]) => a.map((c) => c.map((v) => Math.round(v * 1e5))).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    expect(sort(cells)).toEqual(sort(byPosition));
  });

  test('a box counts at its centre clamped into the view, on the edge cells of the view', () => {
    const counter = new CellCounter(VIEW);
    // Centred a degree west of the view, reaching into it: counted on the west edge, at its latitude.
    counter.addBox(-75.5, 40.69, -73.9, 40.71);
    // Wholly inside: at its centre.
    counter.addBox(-74.0, 40.7, -73.98, 40.72);
    expect(counter.cells().sort((a, b) => a[0] - b[0])).toEqual([[-74.3, 40.7, 1], [-73.99, 40.71, 1]]);
  });
});
