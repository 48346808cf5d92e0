// One cell's blob in basemap.bin, little-endian:
//   u32 shape count, u32 label count
//   per shape: u8 kind, u8 least zoom, u16 part count, then per part u32 point count and i32 lon, i32 lat
//     per point (1e-7 degree; a filled shape's parts are open rings, filled even-odd; a line has one part)
//   per label: u8 kind, u8 least zoom, i32 lon, i32 lat, i16 angle (version 2 on), u16 name bytes, the
//     name in UTF-8
import { BASEMAP_VERSION } from './basemap-layout';

export interface CellShape {
  kind: number;
  minZoom: number;
  /** Flat [lon, lat, …] per part, 1e-7 degree. */
  parts: ArrayLike<number>[];
}

export interface CellLabel {
  kind: number;
  minZoom: number;
  lon: number;
  lat: number;
  /**
   * The direction the name is written in, tenths of a degree clockwise from east on a north-up map,
   * -900 … 900 (so the text is never upside down): a road's at its label point, 0 for every other name.
   */
  angle: number;
  name: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeCell(shapes: readonly CellShape[], labels: readonly CellLabel[]): Uint8Array {
  const names = labels.map((l) => encoder.encode(l.name).subarray(0, 0xffff));
  let size = 8;
  for (const s of shapes) {
    size += 4;
    for (const p of s.parts) size += 4 + p.length * 4;
  }
  for (const n of names) size += 14 + n.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, shapes.length, true);
  view.setUint32(4, labels.length, true);
  let at = 8;
  for (const s of shapes) {
    view.setUint8(at, s.kind);
    view.setUint8(at + 1, s.minZoom);
    view.setUint16(at + 2, s.parts.length, true);
    at += 4;
    for (const p of s.parts) {
      view.setUint32(at, p.length / 2, true);
      at += 4;
      for (let i = 0; i < p.length; i++, at += 4) view.setInt32(at, p[i], true);
    }
  }
  labels.forEach((l, k) => {
    view.setUint8(at, l.kind);
    view.setUint8(at + 1, l.minZoom);
    view.setInt32(at + 2, l.lon, true);
    view.setInt32(at + 6, l.lat, true);
    view.setInt16(at + 10, l.angle, true);
    view.setUint16(at + 12, names[k].length, true);
    bytes.set(names[k], at + 14);
    at += 14 + names[k].length;
  });
  return bytes;
}

/**
 * Calls back for each shape of the blob whose least zoom is at most `zoom` (its parts as Int32Array views
 * copied out of the blob), then for each such label. `version` is the file's: a version 1 blob has no angles.
 */
export function decodeCell(
  bytes: Uint8Array,
  zoom: number,
  onShape: (kind: number, parts: Int32Array[]) => void,
  onLabel: (label: CellLabel) => void,
  version: number = BASEMAP_VERSION,
): void {
  const angled = version >= 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shapeCount = view.getUint32(0, true);
  const labelCount = view.getUint32(4, true);
  let at = 8;
  for (let s = 0; s < shapeCount; s++) {
    const kind = view.getUint8(at);
    const minZoom = view.getUint8(at + 1);
    const partCount = view.getUint16(at + 2, true);
    at += 4;
    const wanted = minZoom <= zoom;
    const parts: Int32Array[] = [];
    for (let p = 0; p < partCount; p++) {
      const points = view.getUint32(at, true);
      at += 4;
      if (wanted) {
        const part = new Int32Array(points * 2);
        for (let i = 0; i < part.length; i++) part[i] = view.getInt32(at + i * 4, true);
        parts.push(part);
      }
      at += points * 8;
    }
    if (wanted) onShape(kind, parts);
  }
  for (let l = 0; l < labelCount; l++) {
    const kind = view.getUint8(at);
    const minZoom = view.getUint8(at + 1);
    const lon = view.getInt32(at + 2, true);
    const lat = view.getInt32(at + 6, true);
    const angle = angled ? view.getInt16(at + 10, true) : 0;
    const nameAt = at + (angled ? 14 : 12);
    const length = view.getUint16(nameAt - 2, true);
    if (minZoom <= zoom) onLabel({ kind, minZoom, lon, lat, angle, name: decoder.decode(bytes.subarray(nameAt, nameAt + length)) });
    at = nameAt + length;
  }
}
