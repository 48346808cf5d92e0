// Append-only typed arrays that grow, for collecting millions of values during an import without
// boxing each one in a JS array.
import { grownTo } from '../../../../core/routing/typed-array-growth';

type Ctor<T> = { new (length: number): T; new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/** The element kinds, each stored by a line of its own in push (below). */
const KINDS = new Map<unknown, number>([[Int32Array, 0], [Uint32Array, 1], [Float32Array, 2], [Float64Array, 3], [Uint8Array, 4], [Uint16Array, 5]]);

export class TypedList<T extends Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array> {
  private data: T;
  /** data.length, kept here: reading it off six kinds of array is as slow as the store below. */
  private capacity: number;
  private readonly kind: number;
  length = 0;

  constructor(private readonly Type: Ctor<T>, capacity = 1024) {
    this.data = new Type(capacity);
    this.capacity = capacity;
    this.kind = KINDS.get(Type) ?? 3;
  }

  push(value: number): void {
    if (this.length === this.capacity) {
      this.data = grownTo(this.data, Math.ceil(this.capacity * 1.5) + 16);
      this.capacity = this.data.length;
    }
    // One store for every kind of array saw six kinds and went megamorphic: a tenth of the importing
    // thread's reading went into this line (profile of Baltimore ×4×4, the routing stage pushing some
    // forty values a way). A store per kind sees one kind each.
    const i = this.length++;
    switch (this.kind) {
      case 0: (this.data as Int32Array)[i] = value; break;
      case 1: (this.data as Uint32Array)[i] = value; break;
      case 2: (this.data as Float32Array)[i] = value; break;
      case 4: (this.data as Uint8Array)[i] = value; break;
      case 5: (this.data as Uint16Array)[i] = value; break;
      default: this.data[i] = value;
    }
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
