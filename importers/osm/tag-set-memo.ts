// Remembers what a pure function of an entity's tags answered, keyed on the values of the tags that
// function reads, so that the millions of ways of a region that share a tag set (every residential
// street of a county is `highway=residential` plus a name) are evaluated once per distinct set.
//
// Which tags count is learnt, not listed: an evaluation that misses runs on a recording view of the
// tags, and every key it reads (present or not) joins the keys the memo keys on. A verdict is then
// stored under the values of those keys in the tags it was computed from, and is handed to any later
// tag set whose values for the keys known by then are the same, absent keys included. That is exact:
// every key the stored evaluation read was known when it was stored, so a later tag set with the same
// key agrees with the stored one on each of them, and the function, reading the same values, takes
// the same path to the same answer. Names and other tags it never reads (tiger:*, source, wikidata)
// never split the key. What it cannot see through: reading the tags' key list (for…in, Object.keys)
// makes an evaluation's answer unstorable (it is returned, not kept), and the function must not depend
// on anything but the tags (state, other arguments): the caller evaluates those cases itself.
import type { OsmTags } from './stage';

/** How a memo did: lookups answered from memory, evaluated and kept, evaluated and not kept. */
export interface TagSetMemoCounts {
  hits: number;
  misses: number;
  /** Evaluations that read the key list, or that came when the memo was full. */
  unkept: number;
  /** Distinct verdicts kept. */
  entries: number;
  /** Keys the key is made of. */
  keys: number;
}

/** Records the keys read through it; `enumerated` once the key list itself was read. */
class RecordingTags {
  readonly keys = new Set<string>();
  enumerated = false;
  readonly view: OsmTags;

  constructor(tags: OsmTags) {
    // The target is a fresh, extensible object: the view is never frozen, so code that takes a short
    // cut for frozen tags (profiles' forwardBackward) reads key by key through it instead.
    this.view = new Proxy({} as OsmTags, {
      get: (_, key) => {
        if (typeof key === 'string') this.keys.add(key);
        else this.enumerated = true;
        return Reflect.get(tags, key);
      },
      has: (_, key) => {
        if (typeof key === 'string') this.keys.add(key);
        else this.enumerated = true;
        return Reflect.has(tags, key);
      },
      getOwnPropertyDescriptor: (_, key) => {
        if (typeof key === 'string') this.keys.add(key);
        else this.enumerated = true;
        const own = Reflect.getOwnPropertyDescriptor(tags, key);
        // Reported configurable: the target does not hold it, and a proxy may not say otherwise.
        return own === undefined ? undefined : { value: own.value, writable: false, enumerable: own.enumerable, configurable: true };
      },
      ownKeys: () => {
        this.enumerated = true;
        return Reflect.ownKeys(tags);
      },
    });
  }
}

export class TagSetMemo<V extends object | null> {
  /** Every key an evaluation has read, numbered in the order first read (the number stands for it in keys). */
  private readonly keyNumbers = new Map<string, number>();
  private readonly verdicts = new Map<string, V>();
  private hits = 0;
  private misses = 0;
  private unkept = 0;

  /** `maxEntries` bounds the memory: past it, new tag sets are evaluated and not kept. */
  constructor(private readonly evaluate: (tags: OsmTags) => V, private readonly maxEntries = 1 << 18) {}

  get(tags: OsmTags): V {
    const known = this.verdicts.get(this.keyOf(tags));
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    if (this.verdicts.size >= this.maxEntries) {
      this.unkept++;
      return this.evaluate(tags);
    }
    const recording = new RecordingTags(tags);
    const verdict = this.evaluate(recording.view);
    if (recording.enumerated) {
      this.unkept++;
      return verdict;
    }
    this.misses++;
    for (const key of recording.keys) if (!this.keyNumbers.has(key)) this.keyNumbers.set(key, this.keyNumbers.size);
    // Keyed again: the keys just learnt are part of this verdict's key.
    this.verdicts.set(this.keyOf(tags), verdict);
    return verdict;
  }

  counts(): TagSetMemoCounts {
    return { hits: this.hits, misses: this.misses, unkept: this.unkept, entries: this.verdicts.size, keys: this.keyNumbers.size };
  }

  /**
   * The values of the known keys the tags hold, in the tags' order, each as its key's number, the
   * value's length and the value: no value, however odd, makes two different sets read alike. (Two
   * orders of the same tags make two keys: a second evaluation, never a wrong answer.)
   */
  private keyOf(tags: OsmTags): string {
    let key = '';
    for (const k in tags) {
      const n = this.keyNumbers.get(k);
      if (n === undefined) continue;
      const v = tags[k];
      key += `${n},${v.length}:${v}`;
    }
    return key;
  }
}
