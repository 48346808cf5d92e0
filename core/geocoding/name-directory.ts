// The distinct street or place names of an index, in memory, by word: which names a query's words can
// match at all. An FTS query of every word ("615" OR "north" OR "wolfe" OR "str"*) ranks every name
// holding a common word ("north", "street") to keep 200, and costs milliseconds on a town; here a name is
// looked up only by the words that decide whether it can match (match-name.ts), which few names share.
//
// - streets (matchName): every word of the name that is not optional must be in the query, so a name
//   can match only if its first such word is a query word (or begins with the word being typed). Each
//   name is filed under that one word; names made only of optional words ("North Avenue") are few and
//   always tried.
// - places (matchPlaceName): at least half of the query's words must be words of the name, so each
//   name is filed under each of its words and counted.
//
// The names come back in a fixed order (fewer words first, then by id), which is how equal matches are
// ordered afterwards; undefined when a query would try more than `maxCandidates` names (a one-letter
// prefix on a state), so that the caller's bounded FTS search takes over.
import { isOptionalWord } from './match-name';

export interface DirectoryName {
  id: number;
  /** The name as the index answers it: the normal form for streets, as written for places. */
  name: string;
  of: number | null;
  words: readonly string[];
}

export class NameDirectory {
  private readonly byWord = new Map<string, number[]>();
  /** The filing words, sorted: a prefix is a range. */
  private readonly words: string[];
  private readonly alwaysTried: number[] = [];
  private readonly names: readonly DirectoryName[];

  constructor(
    names: readonly DirectoryName[],
    private readonly kind: 'street' | 'place',
    private readonly maxCandidates: number,
  ) {
    this.names = [...names].sort(directoryOrder);
    this.names.forEach((n, i) => {
      if (kind === 'street') {
        const key = n.words.find((w) => !isOptionalWord(w));
        if (key === undefined) this.alwaysTried.push(i);
        else this.file(key, i);
      } else {
        for (const w of new Set(n.words)) this.file(w, i);
      }
    });
    this.words = [...this.byWord.keys()].sort();
  }

  get size(): number {
    return this.names.length;
  }

  /** Names the query's words may match, in the directory's order; undefined past maxCandidates. */
  candidates(queryWords: readonly string[], lastIsPrefix: boolean): DirectoryName[] | undefined {
    const hits = new Map<number, number>();
    let tried = 0;
    for (let q = 0; q < queryWords.length; q++) {
      const word = queryWords[q];
      if (word === '') continue;
      const seenThisWord = new Set<number>();
      const lists = lastIsPrefix && q === queryWords.length - 1 ? this.withPrefix(word) : [this.byWord.get(word) ?? []];
      for (const list of lists) {
        tried += list.length;
        if (tried > this.maxCandidates) return undefined;
        for (const i of list) {
          if (seenThisWord.has(i)) continue;
          seenThisWord.add(i);
          hits.set(i, (hits.get(i) ?? 0) + 1);
        }
      }
    }
    const needed = this.kind === 'place' ? Math.max(1, Math.ceil(queryWords.length / 2)) : 1;
    const out: number[] = [];
    for (const [i, n] of hits) if (n >= needed) out.push(i);
    if (this.kind === 'street') out.push(...this.alwaysTried.filter((i) => !hits.has(i)));
    out.sort((a, b) => a - b);
    return out.map((i) => this.names[i]);
  }

  private file(word: string, i: number): void {
    const list = this.byWord.get(word);
    if (list === undefined) this.byWord.set(word, [i]);
    else list.push(i);
  }

  private withPrefix(prefix: string): number[][] {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.words[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[][] = [];
    for (let k = lo; k < this.words.length && this.words[k].startsWith(prefix); k++) out.push(this.byWord.get(this.words[k])!);
    return out;
  }
}

/** Names in the directory's order: fewer words first (a whole name before a longer one holding it), then by id. */
export function directoryOrder(a: DirectoryName, b: DirectoryName): number {
  return a.words.length - b.words.length || a.id - b.id;
}
