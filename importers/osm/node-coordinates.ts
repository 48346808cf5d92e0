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
/**
 * Nodes per chunk while reading. Chunks instead of one array grown by copying: growing by 1.5× held the
 * old and the new arrays at once (2.5× the nodes at each step) and copied every node about twice more;
 * a profile of Baltimore ×12×12 put 8% of the reading in those copies.
 */
const CHUNK = 1 << 20;

export class NodeCoordinatesBuilder {
  private readonly idChunks: Float64Array[] = [];
  private readonly lonChunks: Int32Array[] = [];
  private readonly latChunks: Int32Array[] = [];
  private ids = new Float64Array(0);
  private lons = new Int32Array(0);
  private lats = new Int32Array(0);
  /** Used entries of the current (last) chunk. */
  private used = 0;
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
    if (this.used === this.ids.length) this.nextChunk();
    const i = this.used++;
    this.count++;
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

  /**
   * The finished index; the builder must not be used afterwards. `onProgress(done, total)` is called
   * between its parts (the chunks joined, each pass of a sort, the reordering): sorting a tiled ×20×20
   * region's 20.6 M nodes took 12 s, which the import reports through.
   */
  freeze(onProgress: SortProgress = () => undefined): SortedNodeCoordinates {
    let ids: Float64Array = new Float64Array(this.count);
    let lons: Int32Array = new Int32Array(this.count);
    let lats: Int32Array = new Int32Array(this.count);
    let at = 0;
    // Each chunk is let go as soon as it is copied, so the peak is one chunk above the finished index.
    while (this.idChunks.length > 0) {
      const n = this.idChunks.length === 1 ? this.used : CHUNK;
      ids.set(this.idChunks.shift()!.subarray(0, n), at);
      lons.set(this.lonChunks.shift()!.subarray(0, n), at);
      lats.set(this.latChunks.shift()!.subarray(0, n), at);
      at += n;
    }
    this.ids = new Float64Array(0);
    this.lons = new Int32Array(0);
    this.lats = new Int32Array(0);
    if (this.sorted) {
      onProgress(1, 1);
      return new SortedNodeCoordinates(ids, lons, lats);
    }
    // Parts: the join, the radix passes (the second to the fourth said as they start), the reordering.
    onProgress(1, 6);
    ({ ids, lons, lats } = sortById(ids, lons, lats, (pass) => onProgress(1 + pass, 6)));
    onProgress(6, 6);
    return new SortedNodeCoordinates(ids, lons, lats);
  }

  private nextChunk(): void {
    this.ids = new Float64Array(CHUNK);
    this.lons = new Int32Array(CHUNK);
    this.lats = new Int32Array(CHUNK);
    this.idChunks.push(this.ids);
    this.lonChunks.push(this.lons);
    this.latChunks.push(this.lats);
    this.used = 0;
  }
}

/** Parts of the freezing done, of `total`. */
export type SortProgress = (done: number, total: number) => void;

function sortById(ids: Float64Array, lons: Int32Array, lats: Int32Array, onPass: (pass: number) => void): { ids: Float64Array; lons: Int32Array; lats: Int32Array } {
  const order = sortedOrder(ids, onPass);
  // The passes are done (at most four): the reordering is the last part.
  onPass(4);
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

const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/**
 * The positions of `ids` in ascending order, equal ids in file order (stable). OSM ids are whole and
 * below 2^53: a least-significant-digit radix sort on 16-bit digits, skipping digits all ids share.
 * A comparison sort of the positions took about 20 s of silence at the end of reading Baltimore ×20×20
 * (20.6 M nodes, the tiling tool's ids are not in file order); negative or fractional ids (JOSM files)
 * take that sort still.
 */
export function sortedOrder(ids: Float64Array, onPass: (pass: number) => void = () => undefined): Uint32Array {
  const n = ids.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let whole = true;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (!(id >= 0 && Number.isSafeInteger(id))) {
      whole = false;
      break;
    }
    if (id > max) max = id;
  }
  if (!whole) return order.sort((a, b) => ids[a] - ids[b] || a - b);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = Math.floor(ids[i] / 2 ** 32);
    hi[i] = h;
    lo[i] = ids[i] - h * 2 ** 32;
  }
  const maxHi = Math.floor(max / 2 ** 32);
  let spare = new Uint32Array(n);
  const count = new Uint32Array(DIGITS);
  const passes: Array<[Uint32Array, number]> = [[lo, 0], [lo, DIGIT_BITS]];
  if (maxHi > 0) passes.push([hi, 0]);
  if (maxHi >= DIGITS) passes.push([hi, DIGIT_BITS]);
  for (let p = 0; p < passes.length; p++) {
    const [word, shift] = passes[p];
    if (p > 0) onPass(p);
    count.fill(0);
    for (let i = 0; i < n; i++) count[(word[i] >>> shift) & (DIGITS - 1)]++;
    // Every id has the same digit here: the pass would leave the order as it is.
    if (count[(word[0] >>> shift) & (DIGITS - 1)] === n) continue;
    let sum = 0;
    for (let d = 0; d < DIGITS; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k];
      spare[count[(word[i] >>> shift) & (DIGITS - 1)]++] = i;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/** Every BLOCK-th id is copied into a small array searched first. */
const BLOCK = 64;
/** Slots of the lookups remembered (a power of two): a way's refs and its neighbours' shared nodes. */
const RECENT = 1 << 12;

export class SortedNodeCoordinates implements NodeCoordinates {
  private readonly blockFirst: Float64Array;
  /**
   * The last id looked up in each slot (id modulo RECENT) and its answer. Every stage looks up the same
   * way's refs in turn (routing, geocoding, places, base map: four binary searches a ref, each touching
   * a few cache lines of a 160 MiB array at ×20×20), and neighbouring ways share their junction nodes.
   */
  private readonly recentIds = new Float64Array(RECENT).fill(NaN);
  private readonly recentAt = new Int32Array(RECENT);

  constructor(private readonly ids: Float64Array, private readonly lons: Int32Array, private readonly lats: Int32Array) {
    this.blockFirst = new Float64Array(Math.ceil(ids.length / BLOCK));
    for (let b = 0; b < this.blockFirst.length; b++) this.blockFirst[b] = ids[b * BLOCK];
  }

  get size(): number {
    return this.ids.length;
  }

  indexOf(id: number): number {
    const slot = id & (RECENT - 1);
    if (this.recentIds[slot] === id) return this.recentAt[slot];
    const at = this.search(id);
    this.recentIds[slot] = id;
    this.recentAt[slot] = at;
    return at;
  }

  private search(id: number): number {
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
