// What a map view needs of the base map files: the cells of the zoom's levels that the box touches,
// their shapes and labels of at most that zoom, as integers of 1e-6 degree, each part's first point
// absolute and the rest as steps from the one before (an answer of a city's buildings is ~1/3 the JSON
// of plain coordinates). Bounded: at most `maxPoints` points (water and green first, buildings last) and
// `maxLabels` labels; past them the answer says `cut`.
import { decodeCell } from './basemap-cells';
import { COORD_SCALE, LABEL_KINDS, LEVELS, SHAPE_KINDS, type LabelKind, type ShapeKind } from './basemap-layout';
import type { BasemapFile } from './basemap-file';

/** Answer coordinates are integers of 1 / ANSWER_SCALE degree (~0.1 m). */
export const ANSWER_SCALE = 1e6;

export interface BasemapLabel {
  name: string;
  kind: LabelKind;
  coordinates: [number, number];
  /** Degrees clockwise from east on a north-up map, -90 … 90: a road's name is written along it. Roads only. */
  angle?: number;
}

/**
 * `buildingGrid`: buildings are cut into cells on the meridians and parallels at multiples of this many
 * degrees; an edge along one of those lines is a cut, not a wall, and a map outlining buildings leaves it out.
 */
export type BasemapAnswer = Record<ShapeKind, number[][][]> & { labels: BasemapLabel[]; scale: number; buildingGrid: number };

const BUILDING_GRID = LEVELS.find((l) => l.name === 'buildings')!.cellDeg;

export interface BasemapLimits {
  maxPoints: number;
  maxLabels: number;
}

export interface ViewBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

export function basemapInView(files: readonly BasemapFile[], box: ViewBox, zoom: number, limits: BasemapLimits): { answer: BasemapAnswer; cut: boolean } {
  const answer = { water: [], park: [], wood: [], building: [], waterway: [], labels: [], scale: ANSWER_SCALE, buildingGrid: BUILDING_GRID } as BasemapAnswer;
  const z = Math.floor(zoom);
  let points = 0;
  let cut = false;
  const step = COORD_SCALE / ANSWER_SCALE;
  const onShape = (kind: number, parts: Int32Array[]): void => {
    let n = 0;
    for (const p of parts) n += p.length / 2;
    if (points + n > limits.maxPoints) {
      cut = true;
      return;
    }
    points += n;
    answer[SHAPE_KINDS[kind]].push(parts.map((p) => {
      const out = new Array<number>(p.length);
      let px = 0, py = 0;
      for (let i = 0; i < p.length; i += 2) {
        const x = Math.round(p[i] / step), y = Math.round(p[i + 1] / step);
        out[i] = x - px;
        out[i + 1] = y - py;
        px = x;
        py = y;
      }
      return out;
    }));
  };
  const w = box.west * COORD_SCALE, s = box.south * COORD_SCALE, e = box.east * COORD_SCALE, n = box.north * COORD_SCALE;
  const onLabel = (l: { kind: number; lon: number; lat: number; angle: number; name: string }): void => {
    if (l.lon < w || l.lon > e || l.lat < s || l.lat > n) return;
    if (answer.labels.length >= limits.maxLabels) {
      cut = true;
      return;
    }
    const label: BasemapLabel = { name: l.name, kind: LABEL_KINDS[l.kind], coordinates: [l.lon / COORD_SCALE, l.lat / COORD_SCALE] };
    if (label.kind === 'road') label.angle = l.angle / 10;
    answer.labels.push(label);
  };
  // Levels in file order: water and green (and labels) before buildings, so a cut drops buildings first.
  const levelCount = Math.max(0, ...files.map((f) => f.header.levels.length));
  for (let level = 0; level < levelCount; level++) {
    for (const file of files) {
      const grid = file.header.levels[level];
      if (!grid || z < grid.minZoom || z > grid.maxZoom) continue;
      const c0 = Math.max(0, Math.floor(box.west / grid.cellDeg) - grid.x0);
      const c1 = Math.min(grid.cols - 1, Math.floor(box.east / grid.cellDeg) - grid.x0);
      const r0 = Math.max(0, Math.floor(box.south / grid.cellDeg) - grid.y0);
      const r1 = Math.min(grid.rows - 1, Math.floor(box.north / grid.cellDeg) - grid.y0);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const blob = file.cell(level, c, r);
          if (blob) decodeCell(blob, z, onShape, onLabel, file.header.version);
        }
      }
    }
  }
  return { answer, cut };
}
