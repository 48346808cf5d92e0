// Coarse indexes for a collection declared `volatile` (port.ts): its updatedAt and its point change on
// nearly every write (a user's track update), so an index on either costs an entry (SQLite) or a new
// index tuple in every index of the row (PostgreSQL, no HOT update) per write. Both stores index instead
// two coarse values kept in columns of their own: the hour of updatedAt and the point's cell of 1/100
// degree. A write that stays within its hour and cell leaves them unchanged, and then no index of the
// row changes. Queries narrow by the coarse values through their index and decide on the exact ones, so
// the answers are those of an exact index.

/** 'YYYY-MM-DDTHH': the hour of an ISO datetime is its first 13 characters. */
const HOUR_CHARS = 13;
/** Cells of 0.01° (about 1.1 km of latitude). */
const CELLS_PER_DEGREE = 100;
/** A latitude range over at most this many cell rows is read row by row (one index range each). */
const MAX_LISTED_ROWS = 32;

/** The coarse columns, after doc (and rev) in a volatile collection's table. */
export const COARSE_COLUMNS = ['updated_hour', 'lat_cell', 'lng_cell'] as const;

/**
 * The hour of an ISO datetime. A prefix orders as the strings do (a < b implies hourOf(a) <= hourOf(b)),
 * which is all the queries rely on: the newest hour first, then the exact order inside it.
 */
export function hourOf(iso: string): string {
  return iso.slice(0, HOUR_CHARS);
}

/** The cell (row or column) of a latitude or longitude. Monotonic: a <= b implies cellOf(a) <= cellOf(b). */
export function cellOf(degrees: number): number {
  return Math.floor(degrees * CELLS_PER_DEGREE);
}

/** The same values computed by SQL from the row's exact columns (SQLite and PostgreSQL alike). */
export const COARSE_SQL: Record<(typeof COARSE_COLUMNS)[number], string> = {
  updated_hour: `substr(updated_at, 1, ${HOUR_CHARS})`,
  lat_cell: `floor(lat * ${CELLS_PER_DEGREE})`,
  lng_cell: `floor(lng * ${CELLS_PER_DEGREE})`,
};

/**
 * The cell rows a latitude range covers, listed when they are few: each is then one index range on the
 * longitude cells, instead of one range over every cell of the band (all longitudes). Undefined when
 * there are more (or none: an empty range gives an empty BETWEEN).
 */
export function cellRows(minLat: number, maxLat: number): number[] | undefined {
  const first = cellOf(minLat);
  const last = cellOf(maxLat);
  if (!(last >= first) || last - first >= MAX_LISTED_ROWS) return undefined;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
