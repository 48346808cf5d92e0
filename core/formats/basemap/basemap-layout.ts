// The base map file of an imported extract, `<extract>/basemap/basemap.bin`: water, parks, woods,
// buildings, waterways and labels for the dashboard's map, cut into grid cells so a map view reads only
// the cells it covers.
//
//   bytes 0–7          magic "WMBASEMP"
//   bytes 8–…          the cells' blobs (basemap-cells.ts), level after level, cell after cell
//   then               each level's directory: per cell (row-major, south-west first) f64 offset, u32 length
//   then               the header, JSON (BasemapHeader)
//   last 16 bytes      f64 header offset, u32 header length, u32 version
//
// Three levels, each a grid of its own: `low` (zoom ≤ 12: the larger water and green areas simplified
// to ~20 m, rivers, the larger places' names), `mid` (zoom 13+: every water and green area to ~1.5 m,
// streams, every label) and `buildings` (zoom 15+). A shape or label also has its own least zoom.

export const BASEMAP_FILE = 'basemap.bin';
export const BASEMAP_FORMAT = 'waymark-basemap';
/** Version 2 gave each label an angle (a road's name is written along it); version 1 files are still read. */
export const BASEMAP_VERSION = 2;
export const BASEMAP_VERSIONS_READ: readonly number[] = [1, 2];
export const BASEMAP_MAGIC = 'WMBASEMP';
export const TRAILER_BYTES = 16;
export const DIRECTORY_ENTRY_BYTES = 12;

/** Coordinates are stored as integers of 1e-7 degree, as the routing network's. */
export const COORD_SCALE = 1e7;

/** Shape kinds; the first four are filled rings, `waterway` is a line. */
export const SHAPE_KINDS = ['water', 'park', 'wood', 'building', 'waterway'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];
export const WATERWAY = SHAPE_KINDS.indexOf('waterway');
export const BUILDING = SHAPE_KINDS.indexOf('building');

export const LABEL_KINDS = ['city', 'town', 'village', 'suburb', 'neighbourhood', 'hamlet', 'water', 'park', 'road'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

export interface LevelSpec {
  name: 'low' | 'mid' | 'buildings';
  /** Read for map zooms minZoom … maxZoom. */
  minZoom: number;
  maxZoom: number;
  cellDeg: number;
  /** Douglas–Peucker tolerance of the level's shapes, metres (0: as imported). */
  simplifyMetres: number;
}

export const LEVELS: readonly LevelSpec[] = [
  { name: 'low', minZoom: 0, maxZoom: 12, cellDeg: 0.08, simplifyMetres: 20 },
  { name: 'mid', minZoom: 13, maxZoom: 30, cellDeg: 0.02, simplifyMetres: 1.5 },
  { name: 'buildings', minZoom: 15, maxZoom: 30, cellDeg: 0.01, simplifyMetres: 0 },
];

export interface LevelGrid {
  name: LevelSpec['name'];
  minZoom: number;
  maxZoom: number;
  cellDeg: number;
  /** Column and row of cell (0, 0) on the world grid of cellDeg: it covers longitudes x0·cellDeg … (x0 + 1)·cellDeg. */
  x0: number;
  y0: number;
  cols: number;
  rows: number;
  directoryOffset: number;
}

export interface BasemapHeader {
  format: typeof BASEMAP_FORMAT;
  /** BASEMAP_VERSION when written; an older file read keeps its own. */
  version: number;
  extract: string;
  /** [west, south, east, north] of what the file holds, degrees. */
  bbox: [number, number, number, number];
  levels: LevelGrid[];
  counts: Record<string, number>;
}

/** The grid of a level over a box: whole cells on multiples of cellDeg, so neighbouring extracts align. */
export function gridOver(spec: LevelSpec, [west, south, east, north]: readonly number[]): Omit<LevelGrid, 'directoryOffset'> {
  const x0 = Math.floor(west / spec.cellDeg);
  const y0 = Math.floor(south / spec.cellDeg);
  const cols = Math.max(1, Math.floor(east / spec.cellDeg) - x0 + 1);
  const rows = Math.max(1, Math.floor(north / spec.cellDeg) - y0 + 1);
  return { name: spec.name, minZoom: spec.minZoom, maxZoom: spec.maxZoom, cellDeg: spec.cellDeg, x0, y0, cols, rows };
}

/** A level's cell size in stored units (1e-7 degree), exact. */
export function cellUnits(grid: Pick<LevelGrid, 'cellDeg'>): number {
  return Math.round(grid.cellDeg * COORD_SCALE);
}
