// What the base map stage keeps while the extract is read: shapes and labels in typed lists (a state's
// million buildings are a few hundred bytes each as objects, ~60 as typed rows), coordinates as 1e-7
// degree integers.
import { TypedList } from '../routing/typed-list';

export class CollectedShapes {
  readonly kind = new TypedList(Uint8Array);
  readonly minZoom = new TypedList(Uint8Array);
  /** Shape i's parts are partEnd entries firstPart[i] … firstPart[i+1]-1. */
  private readonly firstPart = new TypedList(Uint32Array);
  /** Part j's coordinates end (exclusive) at coords index partEnd[j]; it starts where part j-1 ends. */
  private readonly partEnd = new TypedList(Uint32Array);
  private readonly coords = new TypedList(Int32Array);

  constructor() {
    this.firstPart.push(0);
  }

  get size(): number {
    return this.kind.length;
  }

  get points(): number {
    return this.coords.length / 2;
  }

  /** Adds a shape of flat [lon, lat, …] parts in 1e-7 degree. */
  add(kind: number, minZoom: number, parts: ReadonlyArray<ArrayLike<number>>): void {
    for (const part of parts) {
      for (let i = 0; i < part.length; i++) this.coords.push(part[i]);
      this.partEnd.push(this.coords.length);
    }
    this.kind.push(kind);
    this.minZoom.push(minZoom);
    this.firstPart.push(this.partEnd.length);
  }

  /** Shape i's parts as views (valid until the next `add`). */
  parts(i: number): Int32Array[] {
    const out: Int32Array[] = [];
    for (let j = this.firstPart.get(i); j < this.firstPart.get(i + 1); j++) {
      out.push(this.coords.view(j === 0 ? 0 : this.partEnd.get(j - 1), this.partEnd.get(j)));
    }
    return out;
  }
}

export class CollectedLabels {
  readonly kind = new TypedList(Uint8Array);
  readonly minZoom = new TypedList(Uint8Array);
  readonly lon = new TypedList(Int32Array);
  readonly lat = new TypedList(Int32Array);
  readonly angle = new TypedList(Int32Array);
  readonly names: string[] = [];

  get size(): number {
    return this.names.length;
  }

  add(kind: number, minZoom: number, lon: number, lat: number, name: string, angle = 0): void {
    this.angle.push(angle);
    this.kind.push(kind);
    this.minZoom.push(minZoom);
    this.lon.push(lon);
    this.lat.push(lat);
    this.names.push(name);
  }
}
