// Which of the composite indexes a collection declares with `sorted` (port.ts; built by
// collection-table.ts) a list() query can read in order, for the SQL adapters.
import type { CollectionSpec, ListQuery, Scalar } from '../../ports/store';

/**
 * The equality values of a query when it can be read in order from one of the collection's sorted
 * indexes: sorted by createdAt, and its filters on indexed keys one value each, together exactly one
 * declared combination. Filters on fields that are not keys (and metadata) are then checked on the rows
 * read in order: no index could serve them anyway, and without the order every row of the combination
 * would be read and sorted. Undefined otherwise (the query then sorts its matches).
 */
export function sortedMatch(spec: CollectionSpec, query: ListQuery): Map<string, string> | undefined {
  if (query.sortBy !== 'createdAt' || !spec.sorted?.length) return undefined;
  const equals = new Map<string, string>();
  for (const [field, value] of Object.entries(query.equals ?? {})) {
    if (!spec.keys.includes(field)) continue;
    const values: Scalar[] = Array.isArray(value) ? value : [value];
    if (values.length !== 1) return undefined;
    equals.set(field, String(values[0]));
  }
  const fits = spec.sorted.some((keys) => keys.length === equals.size && keys.every((k) => equals.has(k)));
  return fits ? equals : undefined;
}
