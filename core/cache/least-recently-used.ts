// The one bounded cache of the house: a map that forgets its least recently used entry. Every in-memory
// cache of a long-running gateway must be bounded (geo-tz's zone polygons alone take ~1.4 GB unbounded;
// hot users, isochrone outlines, shared webhook users and lock-key hints grow with traffic).

export class LeastRecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  /** `capacity` 0 keeps nothing (a cache switched off by configuration). */
  constructor(readonly capacity: number) {
    if (!(capacity >= 0) || !Number.isInteger(capacity)) throw new RangeError('capacity must be a whole number, 0 or more');
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting moves the key to the most recent end.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
