// One extract's places file (layout in places-file.ts) read into one buffer and used where it lies:
// typed-array views over its columns, strings decoded and Place objects made only for the rows a query
// answers. Implements the engine's PlaceSource, so the place index reads positions and ids from it.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Place, PlaceChain, PlaceKind } from '../../places/place';
import type { PlaceSource } from '../../places/place-source';
import { OUTLINE_SCALE, PLACES_FORMAT, PLACES_MAGIC, PLACES_VERSION, SECTIONS, type PlacesHeader, type SectionName } from './places-layout';

const HEX_ID = /^[0-9a-f]{24}$/;

export class PlacesTable implements PlaceSource {
  readonly size: number;
  readonly extract: string;
  readonly brands: string;
  private readonly lng: Float64Array;
  private readonly lat: Float64Array;
  private readonly ids: Buffer;
  private readonly byId: Uint32Array;
  private readonly textStart: Uint32Array;
  private readonly text: Buffer;
  private readonly categoryList: Uint16Array;
  private readonly chain: Uint32Array;
  private readonly outlineStart: Uint32Array;
  private readonly outline: Int32Array;
  private readonly categoryLists: readonly string[][];
  private readonly chains: readonly PlaceChain[];
  private readonly iata: ReadonlyMap<number, string>;

  private constructor(private readonly buf: Buffer, header: PlacesHeader) {
    this.size = header.count;
    this.extract = header.extract;
    this.brands = header.brands;
    const section = (name: SectionName): [number, number] => header.sections[name];
    const f64 = (name: SectionName) => new Float64Array(buf.buffer, buf.byteOffset + section(name)[0], section(name)[1] / 8);
    const u32 = (name: SectionName) => new Uint32Array(buf.buffer, buf.byteOffset + section(name)[0], section(name)[1] / 4);
    const bytes = (name: SectionName) => buf.subarray(section(name)[0], section(name)[0] + section(name)[1]);
    this.lng = f64('lng');
    this.lat = f64('lat');
    this.ids = bytes('ids');
    this.byId = u32('byId');
    this.textStart = u32('textStart');
    this.text = bytes('text');
    this.categoryList = new Uint16Array(buf.buffer, buf.byteOffset + section('categoryList')[0], section('categoryList')[1] / 2);
    this.chain = u32('chain');
    this.outlineStart = u32('outlineStart');
    this.outline = new Int32Array(buf.buffer, buf.byteOffset + section('outline')[0], section('outline')[1] / 4);
    // Shared by every place of the list: frozen, so one request cannot change another's.
    this.categoryLists = header.categoryLists.map((l) => Object.freeze(l) as string[]);
    this.chains = header.chains.map((c) => Object.freeze(c));
    this.iata = new Map(Object.entries(header.iata).map(([row, code]) => [Number(row), code]));
  }

  static open(file: string): PlacesTable {
    if (os.endianness() !== 'LE') throw new Error('the places file is little-endian; this machine is big-endian');
    let buf = readFileSync(file);
    const bad = (why: string) => new Error(`${file} is not a ${PLACES_FORMAT} v${PLACES_VERSION} file (${why}); re-import the extract`);
    if (buf.length < 16 || buf.toString('latin1', 0, 8) !== PLACES_MAGIC) throw bad('no header');
    if (buf.readUInt32LE(8) !== PLACES_VERSION) throw bad(`version ${buf.readUInt32LE(8)}`);
    const headerLength = buf.readUInt32LE(12);
    let header: PlacesHeader;
    try {
      header = JSON.parse(buf.toString('utf8', 16, 16 + headerLength)) as PlacesHeader;
    } catch {
      throw bad('unreadable header');
    }
    if (header.format !== PLACES_FORMAT || header.version !== PLACES_VERSION) throw bad('another format');
    for (const name of SECTIONS) {
      const s = header.sections?.[name];
      if (!s || s[0] % 8 !== 0 || s[0] + s[1] > buf.length) throw bad(`section ${name} missing or outside the file`);
    }
    // Typed views need the buffer itself aligned (a small file may share Node's pool at an odd offset).
    if (buf.byteOffset % 8 !== 0) buf = Buffer.from(new Uint8Array(buf));
    const table = new PlacesTable(buf, header);
    if (table.lng.length !== table.size || table.outlineStart.length !== table.size + 1 || table.textStart.length !== 2 * table.size + 1) throw bad('columns of the wrong length');
    return table;
  }

  /** Bytes held (the file), for logs and benchmarks. */
  get bytes(): number {
    return this.buf.length;
  }

  lngAt(row: number): number {
    return this.lng[row];
  }

  latAt(row: number): number {
    return this.lat[row];
  }

  idAt(row: number): string {
    return this.ids.toString('hex', 12 * row, 12 * row + 12);
  }

  iataAt(row: number): string | undefined {
    return this.iata.get(row);
  }

  /** Rows of the airports (places with an IATA code). */
  iataRows(): number[] {
    return [...this.iata.keys()];
  }

  rowOf(id: string): number {
    if (!HEX_ID.test(id)) return -1;
    const want = Buffer.from(id, 'hex');
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const row = this.byId[mid];
      const c = Buffer.compare(this.ids.subarray(12 * row, 12 * row + 12), want);
      if (c === 0) return row;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private textAt(k: number): string {
    return this.text.toString('utf8', this.textStart[k], this.textStart[k + 1]);
  }

  kindAt(row: number): PlaceKind {
    const chain = this.chain[row];
    return chain === 0 ? { categories: this.categoryLists[this.categoryList[row]] } : { categories: this.categoryLists[this.categoryList[row]], chain: this.chains[chain - 1] };
  }

  placeAt(row: number): Place {
    const place: Place = {
      _id: this.idAt(row),
      name: this.textAt(2 * row),
      lng: this.lng[row],
      lat: this.lat[row],
      categories: this.categoryLists[this.categoryList[row]],
      osm: this.textAt(2 * row + 1),
    };
    const chain = this.chain[row];
    if (chain !== 0) place.chain = this.chains[chain - 1];
    const iata = this.iata.get(row);
    if (iata !== undefined) place.iata = iata;
    const from = this.outlineStart[row];
    const to = this.outlineStart[row + 1];
    if (to > from) {
      const ring: Array<[number, number]> = [];
      for (let v = from; v < to; v++) ring.push([this.outline[2 * v] / OUTLINE_SCALE, this.outline[2 * v + 1] / OUTLINE_SCALE]);
      place.outline = ring;
    }
    return place;
  }
}
