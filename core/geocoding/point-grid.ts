// Nearest point among many fixed points (addresses of an extract, GeoNames cities): a uniform grid of
// cells in degrees over typed arrays, searched ring by ring outward from the query's cell. A reverse
// geocode costs a few dozen distance checks in a city.
const METERS_PER_DEGREE = 111_320;

export class PointGrid {
  private readonly cellStart: Uint32Array;
  private readonly cellItems: Uint32Array;
  private readonly cols: number;
  private readonly rows: number;
  private readonly minX: number;
  private readonly minY: number;

  /** `xs`/`ys` are longitudes/latitudes; `cellDegrees` about the spacing of the points' clusters. */
  constructor(
    private readonly xs: Float64Array,
    private readonly ys: Float64Array,
    private readonly cellDegrees: number,
  ) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < xs.length; i++) {
      minX = Math.min(minX, xs[i]);
      maxX = Math.max(maxX, xs[i]);
      minY = Math.min(minY, ys[i]);
      maxY = Math.max(maxY, ys[i]);
    }
    if (xs.length === 0) minX = minY = maxX = maxY = 0;
    this.minX = minX;
    this.minY = minY;
    this.cols = Math.max(1, Math.min(4096, Math.floor((maxX - minX) / cellDegrees) + 1));
    this.rows = Math.max(1, Math.min(4096, Math.floor((maxY - minY) / cellDegrees) + 1));
    const counts = new Uint32Array(this.cols * this.rows + 1);
    const cellOf = new Uint32Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      cellOf[i] = this.cell(xs[i], ys[i]);
      counts[cellOf[i] + 1]++;
    }
    for (let c = 1; c < counts.length; c++) counts[c] += counts[c - 1];
    this.cellStart = counts.slice();
    this.cellItems = new Uint32Array(xs.length);
    const fill = counts.slice();
    for (let i = 0; i < xs.length; i++) this.cellItems[fill[cellOf[i]]++] = i;
  }

  get size(): number {
    return this.xs.length;
  }

  private col(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cellDegrees)));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cellDegrees)));
  }

  private cell(x: number, y: number): number {
    return this.row(y) * this.cols + this.col(x);
  }

  /**
   * Up to `k` nearest points within `maxMeters`, nearest first, as [index, meters] pairs. Distances are
   * equirectangular, exact enough below tens of kilometres.
   */
  nearest(lng: number, lat: number, maxMeters: number, k = 1): Array<[number, number]> {
    const kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
    const found: Array<[number, number]> = [];
    if (this.xs.length === 0) return found;
    const c0 = this.col(lng);
    const r0 = this.row(lat);
    const cellMeters = this.cellDegrees * Math.min(kx, METERS_PER_DEGREE);
    const maxRing = Math.min(Math.max(this.cols, this.rows), Math.ceil(maxMeters / Math.max(cellMeters, 1)) + 1);
    for (let ring = 0; ring <= maxRing; ring++) {
      for (let r = r0 - ring; r <= r0 + ring; r++) {
        if (r < 0 || r >= this.rows) continue;
        const onEdge = r === r0 - ring || r === r0 + ring;
        for (let c = c0 - ring; c <= c0 + ring; c += onEdge ? 1 : 2 * ring) {
          if (c >= 0 && c < this.cols) this.scanCell(r * this.cols + c, lng, lat, kx, maxMeters, k, found);
          if (ring === 0) break;
        }
      }
      // Points in later rings are at least (ring) cells away from the query.
      if (found.length >= k && found[found.length - 1][1] <= ring * cellMeters) break;
    }
    return found;
  }

  private scanCell(cell: number, lng: number, lat: number, kx: number, maxMeters: number, k: number, found: Array<[number, number]>): void {
    for (let j = this.cellStart[cell]; j < this.cellStart[cell + 1]; j++) {
      const i = this.cellItems[j];
      const d = Math.hypot((this.xs[i] - lng) * kx, (this.ys[i] - lat) * METERS_PER_DEGREE);
      if (d > maxMeters || (found.length >= k && d >= found[found.length - 1][1])) continue;
      let at = found.length;
      while (at > 0 && found[at - 1][1] > d) at--;
      found.splice(at, 0, [i, d]);
      if (found.length > k) found.pop();
    }
  }
}
