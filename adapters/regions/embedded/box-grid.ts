import type { BBox } from '../../../core/geo/banded-polygon';

/**
 * A fixed 1°×1° grid over the globe listing which boxes overlap each cell: the
 * candidate filter in front of the point-in-polygon tests. Chosen over an R-tree
 * because the boxes never change after loading, a point query is two array reads,
 * and it has no dependency (rbush 4 is ESM-only and does not load under jest).
 */
const COLS = 360;
const ROWS = 180;

export class BoxGrid {
  private readonly cellStart: Uint32Array;
  private readonly cellItems: Uint32Array;
  /** Per-query marks for box queries, so an item spanning several cells is visited once. */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(boxes: ReadonlyArray<BBox>) {
    const counts = new Uint32Array(COLS * ROWS + 1);
    const forEachCell = (box: BBox, visit: (cell: number) => void): void => {
      const [c0, r0, c1, r1] = cellRange(box.minX, box.minY, box.maxX, box.maxY);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * COLS + c);
    };
    for (const box of boxes) forEachCell(box, (cell) => counts[cell + 1]++);
    for (let i = 0; i < COLS * ROWS; i++) counts[i + 1] += counts[i];
    this.cellStart = counts;
    this.cellItems = new Uint32Array(counts[COLS * ROWS]);
    const cursor = counts.slice(0, COLS * ROWS);
    boxes.forEach((box, index) => forEachCell(box, (cell) => (this.cellItems[cursor[cell]++] = index)));
    this.seen = new Uint32Array(boxes.length);
  }

  get byteLength(): number {
    return this.cellStart.byteLength + this.cellItems.byteLength + this.seen.byteLength;
  }

  /** Items whose cell contains the point (their boxes still need checking). */
  forEachAt(x: number, y: number, visit: (item: number) => boolean | void): void {
    const [c, r] = cellRange(x, y, x, y);
    const cell = r * COLS + c;
    for (let i = this.cellStart[cell], end = this.cellStart[cell + 1]; i < end; i++) {
      if (visit(this.cellItems[i]) === true) return;
    }
  }

  /** Each item overlapping any cell of the box, once. */
  forEachIn(box: BBox, visit: (item: number) => void): void {
    const stamp = ++this.stamp;
    if (stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    const [c0, r0, c1, r1] = cellRange(box.minX, box.minY, box.maxX, box.maxY);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * COLS + c;
        for (let i = this.cellStart[cell], end = this.cellStart[cell + 1]; i < end; i++) {
          const item = this.cellItems[i];
          if (this.seen[item] === this.stamp) continue;
          this.seen[item] = this.stamp;
          visit(item);
        }
      }
    }
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

function cellRange(minX: number, minY: number, maxX: number, maxY: number): [number, number, number, number] {
  return [
    clamp(Math.floor(minX + 180), 0, COLS - 1),
    clamp(Math.floor(minY + 90), 0, ROWS - 1),
    clamp(Math.floor(maxX + 180), 0, COLS - 1),
    clamp(Math.floor(maxY + 90), 0, ROWS - 1),
  ];
}
