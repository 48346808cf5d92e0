import { BandedPolygon, type BBox, type PolygonRings } from '../../../core/geo/banded-polygon';
import { BoxGrid } from './box-grid';

/** One region's geometry: the polygons of a GeoJSON Polygon or MultiPolygon. */
export interface LayerEntry<T> {
  value: T;
  polygons: ReadonlyArray<PolygonRings>;
}

/**
 * A set of regions of one type (countries, states, DMAs, ...) answering "which one
 * contains this point" and "which one's boundary is nearest, within a distance".
 * Each polygon of a MultiPolygon is indexed on its own so boxes stay tight (a
 * country's far islands do not widen its mainland's box).
 */
export class PolygonLayer<T> {
  private readonly parts: BandedPolygon[] = [];
  private readonly owners: T[] = [];
  /** Box area per part: when parts overlap (sloppy imported data), the smallest box wins. */
  private readonly areas: number[] = [];
  private readonly grid: BoxGrid;
  readonly regionCount: number;

  constructor(entries: ReadonlyArray<LayerEntry<T>>) {
    for (const entry of entries) {
      for (const rings of entry.polygons) {
        const part = new BandedPolygon(rings);
        if (part.vertexCount < 4) continue;
        this.parts.push(part);
        this.owners.push(entry.value);
        const b = part.bbox;
        this.areas.push((b.maxX - b.minX) * (b.maxY - b.minY));
      }
    }
    this.regionCount = entries.length;
    this.grid = new BoxGrid(this.parts.map((p) => p.bbox));
  }

  get vertexCount(): number {
    return this.parts.reduce((n, p) => n + p.vertexCount, 0);
  }

  get byteLength(): number {
    return this.parts.reduce((n, p) => n + p.byteLength, this.grid.byteLength);
  }

  containing(x: number, y: number): T | undefined {
    let best = -1;
    this.grid.forEachAt(x, y, (i) => {
      if ((best < 0 || this.areas[i] < this.areas[best]) && this.parts[i].contains(x, y)) best = i;
    });
    return best < 0 ? undefined : this.owners[best];
  }

  /** The region whose boundary is closest to the point, if within `maxMeters`. */
  nearestWithin(x: number, y: number, maxMeters: number): T | undefined {
    const dy = maxMeters / 111_320;
    const dx = Math.min(180, maxMeters / Math.max(1e-9, 111_320 * Math.cos((Math.min(89.9, Math.abs(y) + dy) * Math.PI) / 180)));
    const box: BBox = { minX: x - dx, minY: y - dy, maxX: x + dx, maxY: y + dy };
    let best = -1;
    let bestMeters = maxMeters;
    this.grid.forEachIn(box, (i) => {
      const d = this.parts[i].distanceToBoundary(x, y, bestMeters);
      if (d <= bestMeters) {
        bestMeters = d;
        best = i;
      }
    });
    return best < 0 ? undefined : this.owners[best];
  }
}
