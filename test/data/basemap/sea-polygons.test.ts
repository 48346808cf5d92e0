// The sea from coastline chains in a box (importers/osm/stages/basemap/sea-polygons.ts), on synthetic
// chains: water lies on the right of a coastline (OSM's rule), runs leaving the box are closed along its
// edge clockwise, islands become holes, and a chain ending short of the edge is carried to it and counted.
import { coastlineChains } from '../../../importers/osm/stages/basemap/coastline-chains';
import { containsPoint, seaPolygons, signedArea, type Box } from '../../../importers/osm/stages/basemap/sea-polygons';

const BOX: Box = [0, 0, 100, 100];

/** Whether the point is water: inside an outer ring and in none of its holes. */
function isWater(polygons: number[][][], x: number, y: number): boolean {
  return polygons.some(([outer, ...holes]) => containsPoint(outer, x, y) && !holes.some((h) => containsPoint(h, x, y)));
}

describe('sea polygons from coastlines', () => {
  test('a coast running west to east across the box has the sea south of it (on its right), the land north', () => {
    const { polygons, carriedEnds } = seaPolygons([[-10, 50, 50, 55, 110, 50]], BOX);
    expect(carriedEnds).toBe(0);
    expect(polygons).toHaveLength(1);
    expect([isWater(polygons, 50, 20), isWater(polygons, 50, 80), isWater(polygons, 5, 5), isWater(polygons, 95, 95)]).toEqual([true, false, true, false]);
    // Closed clockwise (the water on the right of every edge), through the box's two southern corners.
    expect(signedArea(polygons[0][0])).toBeLessThan(0);
    expect(polygons[0][0]).toEqual([0, 51, 50, 55, 100, 51, 100, 0, 0, 0]);
  });

  test('the same coast drawn east to west has the sea north of it', () => {
    const { polygons } = seaPolygons([[110, 50, 50, 55, -10, 50]], BOX);
    expect([isWater(polygons, 50, 20), isWater(polygons, 50, 80)]).toEqual([false, true]);
  });

  test('a bay: the coast enters and leaves by the same edge, the sea is the bay only', () => {
    // From the south edge up into the box and back down to it, running clockwise: water inside the loop.
    const { polygons } = seaPolygons([[30, -10, 30, 60, 70, 60, 70, -10]], BOX);
    expect([isWater(polygons, 50, 30), isWater(polygons, 10, 30), isWater(polygons, 50, 80)]).toEqual([true, false, false]);
    // Drawn the other way round it is a headland: the sea is all around it.
    const headland = seaPolygons([[70, -10, 70, 60, 30, 60, 30, -10]], BOX).polygons;
    expect([isWater(headland, 50, 30), isWater(headland, 10, 30), isWater(headland, 50, 80)]).toEqual([false, true, true]);
  });

  test('an island (counter-clockwise ring) inside the sea is a hole; a lone island makes the box sea', () => {
    const island = [40, 10, 60, 10, 60, 30, 40, 30, 40, 10];
    const { polygons } = seaPolygons([[-10, 50, 110, 50], island], BOX);
    expect([isWater(polygons, 50, 20), isWater(polygons, 20, 20), isWater(polygons, 50, 80)]).toEqual([false, true, false]);
    const alone = seaPolygons([island], BOX).polygons;
    expect([isWater(alone, 50, 20), isWater(alone, 90, 90)]).toEqual([false, true]);
    // An island north of the coast is on land: no hole, no sea around it.
    const onLand = seaPolygons([[-10, 50, 110, 50], [40, 70, 60, 70, 60, 90, 40, 90, 40, 70]], BOX).polygons;
    expect([isWater(onLand, 50, 80), isWater(onLand, 50, 20)]).toEqual([false, true]);
  });

  test('a chain that stops near the edge is carried straight to it, and counted; one far inside leaves no sea at all', () => {
    const near = seaPolygons([[3, 50, 50, 50, 98, 50]], BOX, 5);
    expect([near.carriedEnds, near.openEnds]).toEqual([2, 0]);
    expect([isWater(near.polygons, 50, 20), isWater(near.polygons, 50, 80)]).toEqual([true, false]);
    // Ends 30 inside: the walk along the edge could not tell the land beyond them from the sea.
    const far = seaPolygons([[-10, 20, 110, 20], [30, 50, 50, 50, 70, 50]], BOX, 5);
    expect([far.carriedEnds, far.openEnds, far.polygons]).toEqual([0, 2, []]);
  });

  test('no coastline: no sea', () => {
    expect(seaPolygons([], BOX).polygons).toEqual([]);
  });

  test('coastline ways are joined end to start, never reversed', () => {
    expect(coastlineChains([[3, 4, 5], [1, 2, 3], [5, 6, 1]])).toEqual([[3, 4, 5, 6, 1, 2, 3]]);
    // A way running against the others is not joined to them.
    expect(coastlineChains([[1, 2, 3], [5, 4, 3]])).toEqual([[1, 2, 3], [5, 4, 3]]);
  });
});
