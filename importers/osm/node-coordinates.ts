// Node coordinates by OSM id in typed arrays (osmium's "location index"), for the whole extract.
//
// Coordinates are kept as 32-bit integers of 1e-7 degree (OSM's own precision), ids as a sorted array
// of doubles (OSM ids pass 2^32, stay far below 2^53). About 16 bytes a node: a US state of 150 M
// nodes needs ~2.4 GB; `waymark data import` reports the peak. Lookups are binary searches, with a
// per-block index of the first id so the search touches few cache lines.
//
// Extracts are written sorted by id (osmium, osmosis, Geofabrik); an unsorted node list is sorted once
// when the builder is frozen, so lookups stay valid either way.
import type { NodeCoordinates } from './stage';

const SCALE = 1e7;
const INITIAL_CAPACITY = 1 << 16;

export class NodeCoordinatesBuilder {
  private ids = new Float64Array(INITIAL_CAPACITY);
  private lons = new Int32Array(INITIAL_CAPACITY);
  private lats = new Int32Array(INITIAL_CAPACITY);
  private count = 0;
  private sorted = true;
  private last = -Infinity;
  /** [west, south, east, north], fixed point. */
  private west = Infinity;
  private south = Infinity;
  private east = -Infinity;
  private north = -Infinity;

  get size(): number {
    return this.count;
  }

  add(id: number, lon: number, lat: number): void {
    if (this.count === this.ids.length) this.grow();
    const i = this.count++;
    const x = Math.round(lon * SCALE);
    const y = Math.round(lat * SCALE);
    this.ids[i] = id;
    this.lons[i] = x;
    this.lats[i] = y;
    if (id <= this.last) this.sorted = false;
    this.last = id;
    if (x < this.west) this.west = x;
    if (x > this.east) this.east = x;
    if (y < this.south) this.south = y;
    if (y > this.north) this.north = y;
  }

  /** [west, south, east, north] in degrees, or null when no node was added. */
  bbox(): [number, number, number, number] | null {
    if (this.count === 0) return null;
    return [this.west / SCALE, this.south / SCALE, this.east / SCALE, this.north / SCALE];
  }

  /** The finished index; the builder must not be used afterwards. */
  freeze(): SortedNodeCoordinates {
    let ids: Float64Array = this.ids.subarray(0, this.count);
    let lons: Int32Array = this.lons.subarray(0, this.count);
    let lats: Int32Array = this.lats.subarray(0, this.count);
    if (!this.sorted) ({ ids, lons, lats } = sortById(ids, lons, lats));
    // Copies to the exact length so the spare capacity is given back.
    return new SortedNodeCoordinates(ids.slice(), lons.slice(), lats.slice());
  }

  private grow(): void {
    // 1.5x keeps the momentary copy smaller than doubling on large extracts.
    const capacity = Math.ceil(this.ids.length * 1.5);
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    const lons = new Int32Array(capacity);
    lons.set(this.lons);
    const lats = new Int32Array(capacity);
    lats.set(this.lats);
    this.ids = ids;
    this.lons = lons;
    this.lats = lats;
  }
}

function sortById(ids: Float64Array, lons: Int32Array, lats: Int32Array): { ids: Float64Array; lons: Int32Array; lats: Int32Array } {
  const order = new Uint32Array(ids.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => ids[a] - ids[b]);
  const sIds = new Float64Array(ids.length);
  const sLons = new Int32Array(ids.length);
  const sLats = new Int32Array(ids.length);
  let n = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    // A duplicate id keeps its last occurrence, as a later version of the node would.
    if (n > 0 && sIds[n - 1] === ids[i]) n--;
    sIds[n] = ids[i];
    sLons[n] = lons[i];
    sLats[n] = lats[i];
    n++;
  }
  return { ids: sIds.subarray(0, n), lons: sLons.subarray(0, n), lats: sLats.subarray(0, n) };
}

/** Every BLOCK-th id is copied into a small array searched first. */
const BLOCK = 64;

export class SortedNodeCoordinates implements NodeCoordinates {
  private readonly blockFirst: Float64Array;

  constructor(private readonly ids: Float64Array, private readonly lons: Int32Array, private readonly lats: Int32Array) {
    this.blockFirst = new Float64Array(Math.ceil(ids.length / BLOCK));
    for (let b = 0; b < this.blockFirst.length; b++) this.blockFirst[b] = ids[b * BLOCK];
  }

  get size(): number {
    return this.ids.length;
  }

  indexOf(id: number): number {
    const firsts = this.blockFirst;
    let lo = 0;
    let hi = firsts.length - 1;
    if (hi < 0 || id < firsts[0]) return -1;
    // Last block whose first id is <= id.
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (firsts[mid] <= id) lo = mid;
      else hi = mid - 1;
    }
    const ids = this.ids;
    let a = lo * BLOCK;
    let b = Math.min(a + BLOCK, ids.length) - 1;
    while (a <= b) {
      const mid = (a + b) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) a = mid + 1;
      else b = mid - 1;
    }
    return -1;
  }

  lonAt(index: number): number {
    return this.lons[index] / SCALE;
  }

  latAt(index: number): number {
    return this.lats[index] / SCALE;
  }

  /** Bytes held, for the import summary. */
  get bytes(): number {
    return this.ids.byteLength + this.lons.byteLength + this.lats.byteLength + this.blockFirst.byteLength;
  }
}
