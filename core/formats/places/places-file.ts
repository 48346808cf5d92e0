// The places stage's output, one file per extract: `<extract>/places/places.bin`. Version 2 is columns
// in one binary file, read into one buffer and used in place (places-table.ts): a region's few hundred
// thousand places cost about their file size in the gateway (a region of 280 k places, ~30 MB), where
// version 1's JSON became a JS object per place, per category list and per outline vertex.
//
// Layout, little-endian, every section starting on a multiple of 8 bytes:
//   "WMPLACES"  u32 version  u32 header length  header (JSON: format, version, extract, brands, count,
//               categoryLists, chains, iata by row, sections by name → [offset, bytes])
//   lng, lat        Float64 × count           the place's centre
//   ids             12 bytes × count          the _id's 24 hex digits as bytes
//   byId            Uint32 × count            rows in order of _id, for lookups by id
//   textStart       Uint32 × (2 count + 1)    name of row i at [2i, 2i+1), its `osm` at [2i+1, 2i+2) of text
//   text            UTF-8
//   categoryList    Uint16 × count            index into the header's distinct category lists
//   chain           Uint32 × count            0, or 1 + index into the header's chains
//   outlineStart    Uint32 × (count + 1)      vertices of row i's outline at [i, i+1) of outline
//   outline         Int32 × 2 × vertices      lng, lat in 1e-7 degrees (OSM's own precision)
import { closeSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Place, PlaceChain } from '../../places/place';
import { OUTLINE_SCALE, PLACES_FORMAT, PLACES_MAGIC, PLACES_VERSION, SECTIONS, type PlacesHeader, type SectionName } from './places-layout';
import { PlacesTable } from './places-table';

export type { PlaceChain } from '../../places/place';
/** What the stage writes for a place: the engine's Place. */
export type PlaceRecord = Place;

export const PLACES_FILE = 'places.bin';
export { OUTLINE_SCALE, PLACES_FORMAT, PLACES_MAGIC, PLACES_VERSION, SECTIONS, type PlacesHeader, type SectionName } from './places-layout';

export interface PlacesFile {
  format: typeof PLACES_FORMAT;
  version: typeof PLACES_VERSION;
  extract: string;
  /** name-suggestion-index version the chains were matched with. */
  brands: string;
  places: PlaceRecord[];
}

const OSM_TYPE_CODE = { n: 1, w: 2, r: 3 } as const;
const HEX_ID = /^[0-9a-f]{24}$/;

/**
 * A place's _id from its OSM object: type code then id, in 24 hex digits. Re-importing the same data
 * keeps the same ids, so geofences made from a place (placeId) and stored events still find it.
 */
export function placeIdOf(type: keyof typeof OSM_TYPE_CODE, id: number): string {
  return OSM_TYPE_CODE[type].toString(16).padStart(2, '0') + Math.trunc(Math.abs(id)).toString(16).padStart(22, '0');
}

function bytesOf(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** Distinct values by a key, numbered in order of first use. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();

  idOf(key: string, value: T): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(key, i);
    }
    return i;
  }
}

/** `onProgress`: places laid out so far, every 20,000 (a state's 280 k places take seconds on a busy machine). */
export function writePlacesFile(dir: string, file: PlacesFile, onProgress?: (done: number, total: number) => void): void {
  if (os.endianness() !== 'LE') throw new Error('the places file is written little-endian; this machine is big-endian');
  const places = file.places;
  const n = places.length;
  const lng = new Float64Array(n);
  const lat = new Float64Array(n);
  const ids = Buffer.alloc(12 * n);
  const textParts: Buffer[] = [];
  const textStart = new Uint32Array(2 * n + 1);
  const categoryList = new Uint16Array(n);
  const chain = new Uint32Array(n);
  const outlineStart = new Uint32Array(n + 1);
  let vertices = 0;
  for (const p of places) vertices += p.outline?.length ?? 0;
  const outline = new Int32Array(2 * vertices);
  const lists = new Interned<string[]>();
  const chains = new Interned<PlaceChain>();
  const iata: Record<string, string> = {};
  let textBytes = 0;
  let v = 0;
  places.forEach((p, i) => {
    if (!HEX_ID.test(p._id)) throw new Error(`place ${JSON.stringify(p._id)} has no 24-hex-digit _id`);
    lng[i] = p.lng;
    lat[i] = p.lat;
    ids.write(p._id, 12 * i, 'hex');
    for (const [k, text] of [p.name, p.osm].entries()) {
      const bytes = Buffer.from(text, 'utf8');
      textParts.push(bytes);
      textStart[2 * i + k] = textBytes;
      textBytes += bytes.length;
    }
    categoryList[i] = lists.idOf(p.categories.join('\n'), [...p.categories]);
    if (lists.values.length > 0xffff) throw new Error('more than 65,535 distinct category lists');
    chain[i] = p.chain ? 1 + chains.idOf(`${p.chain.slug}\n${p.chain.name}`, { slug: p.chain.slug, name: p.chain.name }) : 0;
    if (p.iata !== undefined) iata[String(i)] = p.iata;
    if (onProgress && i % 20_000 === 0) onProgress(i, n);
    outlineStart[i] = v;
    for (const [x, y] of p.outline ?? []) {
      outline[2 * v] = Math.round(x * OUTLINE_SCALE);
      outline[2 * v + 1] = Math.round(y * OUTLINE_SCALE);
      v++;
    }
  });
  textStart[2 * n] = textBytes;
  outlineStart[n] = v;
  const byId = new Uint32Array(n);
  for (let i = 0; i < n; i++) byId[i] = i;
  byId.sort((a, b) => Buffer.compare(ids.subarray(12 * a, 12 * a + 12), ids.subarray(12 * b, 12 * b + 12)));

  const bodies: Record<SectionName, Buffer> = {
    lng: bytesOf(lng), lat: bytesOf(lat), ids, byId: bytesOf(byId), textStart: bytesOf(textStart), text: Buffer.concat(textParts, textBytes),
    categoryList: bytesOf(categoryList), chain: bytesOf(chain), outlineStart: bytesOf(outlineStart), outline: bytesOf(outline),
  };
  // The header names the offsets, which depend on the header's length: lay out with a fixed-width guess, then fix.
  const align = (x: number) => Math.ceil(x / 8) * 8;
  const header: PlacesHeader = {
    format: PLACES_FORMAT, version: PLACES_VERSION, extract: file.extract, brands: file.brands, count: n,
    categoryLists: lists.values, chains: chains.values, iata, sections: {} as PlacesHeader['sections'],
  };
  let headerBytes = 0;
  for (;;) {
    let at = align(16 + headerBytes);
    for (const name of SECTIONS) {
      header.sections[name] = [at, bodies[name].length];
      at = align(at + bodies[name].length);
    }
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    if (json.length <= headerBytes) break;
    headerBytes = json.length + 64;
  }
  const json = Buffer.from(JSON.stringify(header).padEnd(headerBytes, ' '), 'utf8');
  const fd = openSync(path.join(dir, PLACES_FILE), 'w');
  try {
    const head = Buffer.alloc(16);
    head.write(PLACES_MAGIC, 0, 'latin1');
    head.writeUInt32LE(PLACES_VERSION, 8);
    head.writeUInt32LE(json.length, 12);
    let pos = 0;
    const put = (b: Buffer) => {
      writeSync(fd, b, 0, b.length, pos);
      pos += b.length;
    };
    put(head);
    put(json);
    for (const name of SECTIONS) {
      const [offset] = header.sections[name];
      if (offset > pos) put(Buffer.alloc(offset - pos));
      put(bodies[name]);
    }
  } finally {
    closeSync(fd);
  }
}

/** The places of an extract's file, compactly (what the gateway serves from). */
export function openPlacesTable(dir: string): PlacesTable {
  return PlacesTable.open(path.join(dir, PLACES_FILE));
}

/** The whole file as records: for tests and tools; the gateway uses openPlacesTable. */
export function readPlacesFile(dir: string): PlacesFile {
  const table = openPlacesTable(dir);
  const places: PlaceRecord[] = [];
  for (let i = 0; i < table.size; i++) places.push(table.placeAt(i));
  return { format: PLACES_FORMAT, version: PLACES_VERSION, extract: table.extract, brands: table.brands, places };
}

/** Calls `each` with every place of the file, in order, one object at a time. */
export function eachPlaceRecord(dir: string, each: (place: PlaceRecord) => void): void {
  const table = openPlacesTable(dir);
  for (let i = 0; i < table.size; i++) each(table.placeAt(i));
}
