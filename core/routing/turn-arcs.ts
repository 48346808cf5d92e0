// The turn arcs of an edge-based mode graph while they are collected (mode-graph.ts,
// via-way-restrictions.ts): parallel typed arrays that grow by half when full. A region's bike graph has
// tens of millions of turns; held as JavaScript number arrays they took about 60 bytes a turn (five
// doubles and the arrays' slack), as typed arrays 20, in the precision the graph keeps them.
import { grownTo } from './typed-array-growth';

export class TurnArcs {
  count = 0;
  tail: Uint32Array;
  head: Uint32Array;
  /** Seconds, as routed (a restricted road's entry weighs more than it takes: mode-graph.ts). */
  weight: Float32Array;
  /** Seconds, as travelled. */
  seconds: Float32Array;
  /** Metres. */
  distance: Float32Array;

  constructor(capacity = 1024) {
    const size = Math.max(16, capacity);
    this.tail = new Uint32Array(size);
    this.head = new Uint32Array(size);
    this.weight = new Float32Array(size);
    this.seconds = new Float32Array(size);
    this.distance = new Float32Array(size);
  }

  push(tail: number, head: number, weight: number, seconds: number, distance: number): void {
    if (this.count === this.tail.length) this.grow();
    const i = this.count++;
    this.tail[i] = tail;
    this.head[i] = head;
    this.weight[i] = weight;
    this.seconds[i] = seconds;
    this.distance[i] = distance;
  }

  /**
   * The arcs in arrays of their exact length (copies when the arrays have room left, else the arrays
   * themselves); the collection is left empty, so its larger arrays are not held while the graph is
   * contracted.
   */
  take(): { tail: Uint32Array; head: Uint32Array; weight: Float32Array; seconds: Float32Array; distance: Float32Array } {
    const n = this.count;
    const fit = <T extends Uint32Array | Float32Array>(a: T): T => (a.length === n ? a : (a.slice(0, n) as T));
    const taken = { tail: fit(this.tail), head: fit(this.head), weight: fit(this.weight), seconds: fit(this.seconds), distance: fit(this.distance) };
    this.count = 0;
    this.tail = this.head = new Uint32Array(0);
    this.weight = this.seconds = this.distance = new Float32Array(0);
    return taken;
  }

  private grow(): void {
    const size = Math.ceil(this.tail.length * 1.5);
    this.tail = grownTo(this.tail, size);
    this.head = grownTo(this.head, size);
    this.weight = grownTo(this.weight, size);
    this.seconds = grownTo(this.seconds, size);
    this.distance = grownTo(this.distance, size);
  }
}
