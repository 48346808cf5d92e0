// Append-only typed arrays that grow, for collecting millions of values during an import without
// boxing each one in a JS array.
import { grownTo } from '../../../../core/routing/typed-array-growth';

type Ctor<T> = { new (length: number): T; new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

export class TypedList<T extends Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array> {
  private data: T;
  length = 0;

  constructor(private readonly Type: Ctor<T>, capacity = 1024) {
    this.data = new Type(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      this.data = grownTo(this.data, Math.ceil(this.data.length * 1.5) + 16);
    }
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i];
  }

  /** Values start … end-1 as a view: valid until the next push. */
  view(start: number, end: number): T {
    return this.data.subarray(start, end) as T;
  }

  /**
   * The values in a SharedArrayBuffer, trimmed to length: worker threads sent the array share it instead
   * of each getting a copy (the routing stage's network, mode-graphs.ts).
   */
  toShared(): T {
    const out = new this.Type(new SharedArrayBuffer(this.length * this.Type.BYTES_PER_ELEMENT));
    out.set(this.data.subarray(0, this.length) as never);
    return out;
  }

  /** The values, trimmed to length (a copy, so the spare capacity goes). */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
}
