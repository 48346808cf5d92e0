import { diskDiskOverlapArea, ringDiskOverlapArea } from '../../core/geo/disk-overlap';
import { ringProximity, ringSignedArea } from '../../core/geo/planar-ring';

/** Grid estimate of the area of {p in disk : inside(p)}: an independent check of the exact formulas. */
function gridOverlap(cx: number, cy: number, r: number, inside: (x: number, y: number) => boolean, steps = 800): number {
  const h = (2 * r) / steps;
  let count = 0;
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      const x = cx - r + (i + 0.5) * h;
      const y = cy - r + (j + 0.5) * h;
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r && inside(x, y)) count++;
    }
  }
  return count * h * h;
}

function flat(points: Array<[number, number]>): Float64Array {
  return Float64Array.from([...points, points[0]].flat());
}

const square = flat([[0, 0], [100, 0], [100, 100], [0, 100]]);
// A "U": a 100 × 100 block with a 40 m wide notch cut 80 m deep from the top.
const uShape = flat([[0, 0], [100, 0], [100, 100], [70, 100], [70, 20], [30, 20], [30, 100], [0, 100]]);
const inRing = (xy: Float64Array) => (x: number, y: number) => ringProximity(xy, x, y).inside;

describe('diskDiskOverlapArea', () => {
  const cases = [
    { name: 'apart', d: 30, r1: 10, r2: 15 },
    { name: 'touching from outside', d: 25, r1: 10, r2: 15 },
    { name: 'half-way overlap', d: 10, r1: 10, r2: 10 },
    { name: 'small disk inside large', d: 2, r1: 3, r2: 50 },
    { name: 'large accuracy disk around a small fence', d: 5, r1: 80, r2: 10 },
    { name: 'concentric', d: 0, r1: 7, r2: 9 },
    { name: 'partly overlapping, unequal', d: 40, r1: 30, r2: 25 },
  ];
  test.each(cases)('$name matches a grid estimate', ({ d, r1, r2 }) => {
    const exact = diskDiskOverlapArea(d, r1, r2);
    const estimate = gridOverlap(0, 0, r1, (x, y) => (x - d) ** 2 + y ** 2 <= r2 * r2);
    expect(Math.abs(exact - estimate)).toBeLessThanOrEqual(Math.PI * r1 * r1 * 0.002 + 1e-9);
  });

  test('is symmetric in the radii', () => {
    expect(diskDiskOverlapArea(12, 10, 7)).toBeCloseTo(diskDiskOverlapArea(12, 7, 10), 10);
  });
});

describe('ringDiskOverlapArea', () => {
  const cases = [
    { name: 'disk inside the square', ring: square, cx: 50, cy: 50, r: 20 },
    { name: 'disk centred on an edge: half', ring: square, cx: 100, cy: 50, r: 20 },
    { name: 'disk centred on a corner: a quarter', ring: square, cx: 100, cy: 100, r: 20 },
    { name: 'disk outside, cut by an edge', ring: square, cx: 110, cy: 50, r: 20 },
    { name: 'disk larger than the square', ring: square, cx: 50, cy: 50, r: 200 },
    { name: 'disk far away', ring: square, cx: 500, cy: 500, r: 20 },
    { name: 'disk in the notch of a U', ring: uShape, cx: 50, cy: 60, r: 25 },
    { name: 'disk over the bottom of the notch', ring: uShape, cx: 50, cy: 20, r: 15 },
    { name: 'disk over a U prong', ring: uShape, cx: 85, cy: 90, r: 30 },
  ];
  test.each(cases)('$name matches a grid estimate', ({ ring, cx, cy, r }) => {
    const exact = ringDiskOverlapArea(ring, cx, cy, r);
    const estimate = gridOverlap(cx, cy, r, inRing(ring));
    expect(Math.abs(exact - estimate)).toBeLessThanOrEqual(Math.PI * r * r * 0.002);
  });

  test('known values: half and quarter of the disk', () => {
    expect(ringDiskOverlapArea(square, 100, 50, 20)).toBeCloseTo((Math.PI * 400) / 2, 9);
    expect(ringDiskOverlapArea(square, 100, 100, 20)).toBeCloseTo((Math.PI * 400) / 4, 9);
    expect(ringDiskOverlapArea(square, 50, 50, 200)).toBeCloseTo(10000, 9);
  });

  test('winding does not matter', () => {
    const clockwise = Float64Array.from([0, 0, 0, 100, 100, 100, 100, 0, 0, 0]);
    expect(ringSignedArea(clockwise)).toBeLessThan(0);
    expect(ringDiskOverlapArea(clockwise, 100, 50, 20)).toBeCloseTo(ringDiskOverlapArea(square, 100, 50, 20), 9);
  });
});

describe('ringProximity', () => {
  const cases = [
    { name: 'centre of the square', ring: square, x: 50, y: 50, inside: true, distance: 50 },
    { name: 'on an edge counts as inside', ring: square, x: 100, y: 30, inside: true, distance: 0 },
    { name: 'on a vertex counts as inside', ring: square, x: 0, y: 0, inside: true, distance: 0 },
    { name: 'outside, facing an edge', ring: square, x: 130, y: 50, inside: false, distance: 30 },
    { name: 'outside, facing a corner', ring: square, x: 103, y: 104, inside: false, distance: 5 },
    { name: 'deep in the notch of a U is outside', ring: uShape, x: 50, y: 60, inside: false, distance: 20 },
    { name: 'in a U prong', ring: uShape, x: 15, y: 60, inside: true, distance: 15 },
  ];
  test.each(cases)('$name', ({ ring, x, y, inside, distance }) => {
    const got = ringProximity(ring, x, y);
    expect(got.inside).toBe(inside);
    expect(got.distance).toBeCloseTo(distance, 9);
  });
});
