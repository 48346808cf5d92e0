// A binary min-heap of (key, id) on typed arrays with lazy deletion: a search pushes an id again when
// its key improves and skips stale entries on pop (cheaper than decrease-key bookkeeping here).
export class MinHeap {
  private keys: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(id: number, key: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    const keys = this.keys;
    const ids = this.ids;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      ids[i] = ids[parent];
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Smallest key; only when size > 0. */
  peekKey(): number {
    return this.keys[0];
  }

  /** Removes the smallest; its key is `lastKey` afterwards. */
  pop(): number {
    const keys = this.keys;
    const ids = this.ids;
    const top = ids[0];
    this.lastKey = keys[0];
    const n = --this.size;
    if (n > 0) {
      const key = keys[n];
      const id = ids[n];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= key) break;
        keys[i] = keys[child];
        ids[i] = ids[child];
        i = child;
      }
      keys[i] = key;
      ids[i] = id;
    }
    return top;
  }

  lastKey = 0;

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }
}
