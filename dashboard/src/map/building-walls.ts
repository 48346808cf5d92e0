// The base map's buildings arrive cut into the cells of a grid (GET /v1/data/basemap's buildingGrid); filled,
// the pieces join without a trace, but outlined whole, each cut showed as a wall across the building.
// The outlines are therefore drawn from the rings without their cut edges.

/**
 * A building ring's walls: the ring (zoom-0 pixels, and the same points as the answer's absolute integers)
 * as open lines, broken at each edge that runs along a cell line of `grid` (a cut). Without a cut, the
 * whole ring closed.
 */
export function wallsOf(ring: Float64Array, absolute: readonly number[], grid: number): Float64Array[] {
  const n = ring.length / 2;
  const cut = (i: number): boolean => {
    if (grid === 0) return false;
    const j = (i + 1) % n;
    const x = absolute[2 * i], y = absolute[2 * i + 1];
    return (x === absolute[2 * j] && x % grid === 0) || (y === absolute[2 * j + 1] && y % grid === 0);
  };
  let start = -1;
  for (let i = 0; i < n && start < 0; i++) if (cut(i)) start = (i + 1) % n;
  if (start < 0) {
    const closed = new Float64Array(ring.length + 2);
    closed.set(ring);
    closed[ring.length] = ring[0];
    closed[ring.length + 1] = ring[1];
    return [closed];
  }
  // From just after a cut, around the ring once: a wall runs until the next cut.
  const walls: Float64Array[] = [];
  let wall: number[] = [ring[2 * start], ring[2 * start + 1]];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n, j = (i + 1) % n;
    if (cut(i)) {
      if (wall.length >= 4) walls.push(Float64Array.from(wall));
      wall = [ring[2 * j], ring[2 * j + 1]];
    } else {
      wall.push(ring[2 * j], ring[2 * j + 1]);
    }
  }
  if (wall.length >= 4) walls.push(Float64Array.from(wall));
  return walls;
}
