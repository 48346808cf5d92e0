// One level of basemap.bin from the collected shapes and labels: each shape simplified to the level's
// detail and cut into the cells it covers (halving the cell range each step, so a lake of many cells is
// cut in log steps, not once per cell), the pieces sorted by cell with a counting sort, and each cell's
// blob written in turn. Holds one level's pieces at a time, in typed lists.
import { clipLine, clipRing } from '../../../../core/geo/rect-clip';
import { simplifyLine, simplifyRing } from '../../../../core/geo/flat-simplify';
import { encodeCell, type CellLabel, type CellShape } from '../../../../core/formats/basemap/basemap-cells';
import { cellUnits, WATERWAY, type LevelGrid } from '../../../../core/formats/basemap/basemap-layout';
import type { BasemapWriter } from '../../../../core/formats/basemap/basemap-file';
import { TypedList } from '../routing/typed-list';
import type { CollectedLabels, CollectedShapes } from './collected-features';

export interface LevelInput {
  grid: Omit<LevelGrid, 'directoryOffset'>;
  simplifyMetres: number;
  shapes: CollectedShapes;
  labels: CollectedLabels;
  takesShape(i: number): boolean;
  takesLabel(i: number): boolean;
  progress(done: number, total: number): void;
}

export interface LevelCounts {
  shapes: number;
  pieces: number;
  points: number;
  labels: number;
}

class Pieces {
  readonly cell = new TypedList(Uint32Array);
  readonly shape = new TypedList(Uint32Array);
  readonly firstPart = new TypedList(Uint32Array);
  readonly partEnd = new TypedList(Uint32Array);
  readonly coords = new TypedList(Int32Array);

  constructor() {
    this.firstPart.push(0);
  }

  add(cell: number, shape: number, parts: ReadonlyArray<ArrayLike<number>>): void {
    for (const p of parts) {
      for (let i = 0; i < p.length; i++) this.coords.push(p[i]);
      this.partEnd.push(this.coords.length);
    }
    this.cell.push(cell);
    this.shape.push(shape);
    this.firstPart.push(this.partEnd.length);
  }

  parts(k: number): Int32Array[] {
    const out: Int32Array[] = [];
    for (let j = this.firstPart.get(k); j < this.firstPart.get(k + 1); j++) out.push(this.coords.view(j === 0 ? 0 : this.partEnd.get(j - 1), this.partEnd.get(j)));
    return out;
  }
}

export function writeLevel(writer: BasemapWriter, input: LevelInput): LevelCounts {
  const { grid, shapes, labels } = input;
  const unit = cellUnits(grid);
  const pieces = new Pieces();
  let taken = 0;
  const col = (lon: number): number => Math.min(grid.cols - 1, Math.max(0, Math.floor(lon / unit) - grid.x0));
  const row = (lat: number): number => Math.min(grid.rows - 1, Math.max(0, Math.floor(lat / unit) - grid.y0));

  const place = (shape: number, line: boolean, parts: number[][], c0: number, c1: number, r0: number, r1: number): void => {
    if (parts.length === 0) return;
    if (c0 === c1 && r0 === r1) {
      pieces.add(r0 * grid.cols + c0, shape, parts);
      return;
    }
    // Halve the longer side of the range and cut the parts to each half.
    const halves: Array<[number, number, number, number]> = c1 - c0 >= r1 - r0
      ? [[c0, Math.floor((c0 + c1) / 2), r0, r1], [Math.floor((c0 + c1) / 2) + 1, c1, r0, r1]]
      : [[c0, c1, r0, Math.floor((r0 + r1) / 2)], [c0, c1, Math.floor((r0 + r1) / 2) + 1, r1]];
    for (const [a0, a1, b0, b1] of halves) {
      const w = (grid.x0 + a0) * unit, e = (grid.x0 + a1 + 1) * unit, s = (grid.y0 + b0) * unit, n = (grid.y0 + b1 + 1) * unit;
      const cut: number[][] = [];
      for (const p of parts) {
        if (line) cut.push(...clipLine(p, w, s, e, n));
        else {
          const ring = clipRing(p, w, s, e, n);
          if (ring.length > 0) cut.push(ring);
        }
      }
      place(shape, line, cut, a0, a1, b0, b1);
    }
  };

  for (let i = 0; i < shapes.size; i++) {
    if (i % 20_000 === 0) input.progress(i, shapes.size);
    if (!input.takesShape(i)) continue;
    const line = shapes.kind.get(i) === WATERWAY;
    const parts: number[][] = [];
    let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
    for (const raw of shapes.parts(i)) {
      const p = input.simplifyMetres > 0 ? (line ? simplifyLine(raw, input.simplifyMetres) : simplifyRing(raw, input.simplifyMetres)) : Array.from(raw);
      if (p.length < (line ? 4 : 6)) continue;
      for (let k = 0; k < p.length; k += 2) {
        if (p[k] < west) west = p[k];
        if (p[k] > east) east = p[k];
        if (p[k + 1] < south) south = p[k + 1];
        if (p[k + 1] > north) north = p[k + 1];
      }
      parts.push(p);
    }
    if (parts.length === 0) continue;
    taken++;
    place(i, line, parts, col(west), col(east), row(south), row(north));
  }

  // Counting sort of pieces and labels by cell.
  const cells = grid.cols * grid.rows;
  const pieceStart = new Uint32Array(cells + 1);
  for (let k = 0; k < pieces.cell.length; k++) pieceStart[pieces.cell.get(k) + 1]++;
  for (let c = 0; c < cells; c++) pieceStart[c + 1] += pieceStart[c];
  const pieceOrder = new Uint32Array(pieces.cell.length);
  const fill = pieceStart.slice(0, cells);
  for (let k = 0; k < pieces.cell.length; k++) pieceOrder[fill[pieces.cell.get(k)]++] = k;

  const labelCells = new Map<number, number[]>();
  let labelCount = 0;
  for (let i = 0; i < labels.size; i++) {
    if (!input.takesLabel(i)) continue;
    const cell = row(labels.lat.get(i)) * grid.cols + col(labels.lon.get(i));
    const list = labelCells.get(cell);
    if (list) list.push(i);
    else labelCells.set(cell, [i]);
  }

  writer.beginLevel(grid);
  for (let c = 0; c < cells; c++) {
    const shapesHere: CellShape[] = [];
    for (let k = pieceStart[c]; k < pieceStart[c + 1]; k++) {
      const piece = pieceOrder[k];
      const shape = pieces.shape.get(piece);
      shapesHere.push({ kind: shapes.kind.get(shape), minZoom: shapes.minZoom.get(shape), parts: pieces.parts(piece) });
    }
    // A road split into many ways is labelled once per cell.
    const seen = new Set<string>();
    const labelsHere: CellLabel[] = [];
    for (const i of labelCells.get(c) ?? []) {
      const key = `${labels.kind.get(i)} ${labels.names[i]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      labelsHere.push({ kind: labels.kind.get(i), minZoom: labels.minZoom.get(i), lon: labels.lon.get(i), lat: labels.lat.get(i), angle: labels.angle.get(i), name: labels.names[i] });
    }
    labelCount += labelsHere.length;
    if (shapesHere.length > 0 || labelsHere.length > 0) writer.cell(c % grid.cols, Math.floor(c / grid.cols), encodeCell(shapesHere, labelsHere));
  }
  writer.endLevel();
  input.progress(shapes.size, shapes.size);
  return { shapes: taken, pieces: pieces.cell.length, points: pieces.coords.length / 2, labels: labelCount };
}
