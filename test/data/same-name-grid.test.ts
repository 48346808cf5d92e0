// The grid that finds a street of the same name nearby, against a scan of every point of that name, on
// seeded random points (a few names repeated over a region, as a tiled or real state repeats them),
// at the equator, mid-latitudes and far north, where a degree of longitude is short.
import { SameNameGrid } from '../../importers/osm/stages/geocoding/same-name-grid';
import { prng } from '../../bench/support/prng';

interface Point { lon: number; lat: number; name: string }

function meters(a: Point, lon: number, lat: number): number {
  const kx = 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot((lon - a.lon) * kx, (lat - a.lat) * 110_574);
}

describe('SameNameGrid', () => {
  test.each([[0], [39.3], [-45], [71], [88.9]])('finds a near point exactly when a scan does, around latitude %d', (centre) => {
    const random = prng(Math.round(centre * 10) + 7);
    const grid = new SameNameGrid<Point>();
    const points: Point[] = [];
    const names = ['main street', 'oak avenue', 'hagstrasse'];
    const at = (): { lon: number; lat: number } => ({ lon: -76 + (random() - 0.5) * 1.5, lat: Math.max(-89.9, Math.min(89.9, centre + (random() - 0.5) * 0.6)) });
    for (let i = 0; i < 600; i++) {
      const p = { ...at(), name: names[i % names.length] };
      points.push(p);
      grid.add(p.name, p);
    }
    let near = 0;
    let far = 0;
    for (let q = 0; q < 2000; q++) {
      const { lon, lat } = at();
      const name = names[q % names.length];
      const radius = [500, 3000, 9000][q % 3];
      const isNear = (p: Point): boolean => meters(p, lon, lat) < radius;
      const scanned = points.some((p) => p.name === name && isNear(p));
      const found = grid.findNear(name, lon, lat, radius, isNear);
      expect(found !== undefined).toBe(scanned);
      if (found) {
        expect(found.name).toBe(name);
        near++;
      } else far++;
    }
    // Both answers occur, so the comparison above tested something each way.
    expect(near).toBeGreaterThan(50);
    expect(far).toBeGreaterThan(50);
  });

  test('a name never added finds nothing', () => {
    const grid = new SameNameGrid<Point>();
    grid.add('main street', { lon: 0, lat: 0, name: 'main street' });
    expect(grid.findNear('oak avenue', 0, 0, 3000, () => true)).toBeUndefined();
  });
});
