// A cell's blob in basemap.bin (core/formats/basemap/basemap-cells.ts): labels carry their angle from
// version 2 on, and a version 1 file, written before, still reads (every name level).
import { decodeCell, encodeCell, type CellLabel } from '../../../core/formats/basemap/basemap-cells';
import { labelAngleAt } from '../../../importers/osm/stages/basemap/basemap-stage';

const LABELS: CellLabel[] = [
  { kind: 8, minZoom: 13, lon: -765_800_000, lat: 392_900_000, angle: -39, name: 'East Fayette Street' },
  { kind: 0, minZoom: 8, lon: -766_100_000, lat: 392_900_000, angle: 0, name: 'Baltimore' },
];

function labelsOf(blob: Uint8Array, version?: number): CellLabel[] {
  const out: CellLabel[] = [];
  decodeCell(blob, 20, () => undefined, (l) => out.push(l), version);
  return out;
}

test('labels come back with their angles, shapes before them unchanged', () => {
  const shapes: Array<{ kind: number; parts: number[][] }> = [];
  const blob = encodeCell([{ kind: 3, minZoom: 15, parts: [[1, 2, 3, 4, 5, 6]] }], LABELS);
  decodeCell(blob, 20, (kind, parts) => shapes.push({ kind, parts: parts.map((p) => [...p]) }), () => undefined);
  expect(shapes).toEqual([{ kind: 3, parts: [[1, 2, 3, 4, 5, 6]] }]);
  expect(labelsOf(blob)).toEqual(LABELS);
});

test('a version 1 blob (no angle field) reads with every name whole and angle 0', () => {
  // Laid out as version 1 wrote it: u8 kind, u8 zoom, i32 lon, i32 lat, u16 length, the name.
  const names = LABELS.map((l) => new TextEncoder().encode(l.name));
  const blob = new Uint8Array(8 + names.reduce((n, b) => n + 12 + b.length, 0));
  const view = new DataView(blob.buffer);
  view.setUint32(4, LABELS.length, true);
  let at = 8;
  LABELS.forEach((l, k) => {
    view.setUint8(at, l.kind);
    view.setUint8(at + 1, l.minZoom);
    view.setInt32(at + 2, l.lon, true);
    view.setInt32(at + 6, l.lat, true);
    view.setUint16(at + 10, names[k].length, true);
    blob.set(names[k], at + 12);
    at += 12 + names[k].length;
  });
  expect(labelsOf(blob, 1)).toEqual(LABELS.map((l) => ({ ...l, angle: 0 })));
});

test('a line\'s angle at a point: east 0, north 90, rising to the east negative, a westward line read left to right', () => {
  const at = (points: Array<[number, number]>, i: number) => labelAngleAt(points.flat().map((v) => Math.round(v * 1e7)), 2 * i);
  expect(at([[0, 0], [0.001, 0], [0.002, 0]], 1)).toBe(0);
  expect(at([[0, 0], [0, 0.001], [0, 0.002]], 1)).toBe(900);
  expect(at([[0, 0.002], [0, 0.001], [0, 0]], 1)).toBe(900);
  expect(at([[0, 0], [0.001, 0.001], [0.002, 0.002]], 1)).toBe(-450);
  expect(at([[0.002, 0.002], [0.001, 0.001], [0, 0]], 1)).toBe(-450);
  // At 60° north a degree of longitude is half a degree of latitude on the map: 0.002 east by 0.001 north is 45°.
  expect(at([[10, 60], [10.002, 60.001]], 0)).toBe(-450);
  expect(at([[0, 0], [0, 0]], 0)).toBe(0);
});
