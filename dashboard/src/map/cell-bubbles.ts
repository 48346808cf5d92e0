// A crowded view's counts per cell, as bubbles that do not cover each other: the gateway counts on a
// 32 × 32 grid of the view (so every node answers the same cells), about 35 px apart on a laptop's map,
// where bubbles 18–50 px across overlapped into one blot. Cells are summed into a coarser grid of screen
// pixels, each sum placed at its cells' weighted middle. Fewer bubbles are also less to draw: rasterising
// a bubble and its number on the canvas was the largest part of a redraw in a trace of the map's zoom and
// pan (CanvasRenderingContext2D::FinalizeFrame, about 24 CPU-ms per redraw with ~1,000 of them).
import type { Cell } from './map-data';

/** The side of a bubble's square of the screen, CSS pixels: room for the largest bubble (50 px) to stay apart. */
export const BUBBLE_CELL_PX = 64;

/**
 * Sums `cells` ([longitude, latitude, count]) per square of `px` screen pixels, `toScreen` giving a
 * cell's container point; each sum at the count-weighted middle of its cells, in degrees. Counts are kept
 * whole: the sums add up to the input's total.
 */
export function bubblesOf(cells: Cell[], toScreen: (lng: number, lat: number) => { x: number; y: number }, px = BUBBLE_CELL_PX): Cell[] {
  const squares = new Map<string, { lng: number; lat: number; n: number }>();
  for (const [lng, lat, n] of cells) {
    if (n <= 0) continue;
    const p = toScreen(lng, lat);
    const key = `${Math.floor(p.x / px)},${Math.floor(p.y / px)}`;
    const s = squares.get(key);
    if (s) { s.lng += lng * n; s.lat += lat * n; s.n += n; } else squares.set(key, { lng: lng * n, lat: lat * n, n });
  }
  return [...squares.values()].map((s) => [s.lng / s.n, s.lat / s.n, s.n]);
}
