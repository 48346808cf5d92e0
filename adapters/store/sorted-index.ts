// The composite indexes a collection declares with `sorted` (port.ts), shared by the SQL adapters: their
// names and columns, and which of them a list() query can read in order.
import type { CollectionSpec, ListQuery, Scalar } from './port';

export interface SortedIndex {
  name: string;
  /** Key slots (k0…k3) in index order, before created_at and id. */
  columns: string[];
}

function checkWord(collection: string, word: string): void {
  if (!/^[a-z0-9_]+$/i.test(word)) throw new Error(`collection ${collection}: ${word} cannot name an index`);
}

export function sortedIndexes(collection: string, spec: CollectionSpec): SortedIndex[] {
  if (!spec.sorted?.length) return [];
  checkWord(collection, collection);
  return (spec.sorted ?? []).map((keys) => {
    const columns = keys.map((key) => {
      checkWord(collection, key);
      const slot = spec.keys.indexOf(key);
      if (slot < 0) throw new Error(`collection ${collection}: sorted key ${key} must be one of its keys`);
      return `k${slot}`;
    });
    return { name: `docs_sorted_${collection}_${keys.join('_')}`.toLowerCase(), columns };
  });
}

/**
 * The equality values of a query when it can be read in order from one of the collection's sorted
 * indexes: sorted by createdAt, and every filter one value of an indexed key, together exactly one
 * declared combination. Undefined otherwise (the query then sorts its matches).
 */
export function sortedMatch(spec: CollectionSpec, query: ListQuery): Map<string, string> | undefined {
  if (query.sortBy !== 'createdAt' || !spec.sorted?.length || query.metadata && Object.keys(query.metadata).length > 0) return undefined;
  const equals = new Map<string, string>();
  for (const [field, value] of Object.entries(query.equals ?? {})) {
    const values: Scalar[] = Array.isArray(value) ? value : [value];
    if (values.length !== 1 || !spec.keys.includes(field)) return undefined;
    equals.set(field, String(values[0]));
  }
  const fits = spec.sorted.some((keys) => keys.length === equals.size && keys.every((k) => equals.has(k)));
  return fits ? equals : undefined;
}
