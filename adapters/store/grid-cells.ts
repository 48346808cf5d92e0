// countGrid() in both stores: the grid laid over a box as SQL can group by, and the groups merged into the
// port's cells. SQL groups by floor((x - west) / width); a point on the east or north edge lands one past
// the last column or row and is merged into it here, so the SQL needs no clamping function (SQLite has
// min/max, PostgreSQL least/greatest).
import type { BBox, GridCount } from '../../ports/store';
import { lngIntervals } from './lng-intervals';

export interface GridLayout {
  /** The box's west edge within ±180: longitudes west of it belong to the part past the antimeridian. */
  west: number;
  south: number;
  width: number;
  height: number;
  columns: number;
  rows: number;
}

export function gridLayout(box: BBox, columns: number, rows: number): GridLayout | undefined {
  const spans = lngIntervals(box);
  if (spans.length === 0 || !(box.minLat <= box.maxLat)) return undefined;
  const west = spans[0][0];
  const east = spans.length === 2 ? spans[1][1] + 360 : spans[0][1];
  const c = Math.max(1, Math.floor(columns)), r = Math.max(1, Math.floor(rows));
  // A box of no width or height still counts its points, all in one column or row.
  return { west, south: box.minLat, width: (east - west) / c || 1, height: (box.maxLat - box.minLat) / r || 1, columns: c, rows: r };
}

/** A grouped row: raw (unclamped) column and row, the count, the sums of the shifted longitude and latitude. */
export interface GridGroup {
  gx: number;
  gy: number;
  n: number;
  sx: number;
  sy: number;
}

export function mergeGroups(layout: GridLayout, groups: readonly GridGroup[]): GridCount[] {
  const cells = new Map<number, { column: number; row: number; n: number; sx: number; sy: number }>();
  for (const g of groups) {
    const column = Math.min(layout.columns - 1, Math.max(0, Number(g.gx)));
    const row = Math.min(layout.rows - 1, Math.max(0, Number(g.gy)));
    const key = row * layout.columns + column;
    const cell = cells.get(key);
    const n = Number(g.n), sx = Number(g.sx), sy = Number(g.sy);
    if (cell) { cell.n += n; cell.sx += sx; cell.sy += sy; } else cells.set(key, { column, row, n, sx, sy });
  }
  return [...cells.values()].map(({ column, row, n, sx, sy }) => {
    const lng = sx / n;
    return { column, row, count: n, lng: lng > 180 ? lng - 360 : lng, lat: sy / n };
  });
}
