// Query parameters shared by the list endpoints: limit and the date cursors.
import type { DateRange, ListQuery, ListResult, Scope, Store } from '../../adapters/store/port';
import { readDatetime, readNumber } from '../http/params';

export function readLimit(query: Record<string, unknown>, max: number, fallback: number): number {
  return readNumber(query.limit, 'limit', { min: 1, max, integer: true }) ?? fallback;
}

/** `<prefix>Before` / `<prefix>After` datetimes → a range on createdAt or updatedAt. */
export function readDateRange(query: Record<string, unknown>, field: 'createdAt' | 'updatedAt'): DateRange | undefined {
  const prefix = field === 'createdAt' ? 'created' : 'updated';
  const before = readDatetime(query[`${prefix}Before`], `${prefix}Before`);
  const after = readDatetime(query[`${prefix}After`], `${prefix}After`);
  if (!before && !after) return undefined;
  return { field, before: before?.toISOString(), after: after?.toISOString() };
}

export function ranges(...items: Array<DateRange | undefined>): DateRange[] {
  return items.filter((r): r is DateRange => r !== undefined);
}

/** The most items one timestamp may hold and still be paged without loss; see listPage(). */
export const TIE_GROUP_MAX = 10_000;

function shiftMs(iso: string, ms: number): string {
  return new Date(new Date(iso).getTime() + ms).toISOString();
}

/**
 * store.list() with pages that never end inside a run of items sharing the sort timestamp. Radar's
 * cursor is the last item's timestamp, exclusive (`createdBefore` = last `createdAt`): a page cut
 * inside a tie would make the next page skip the rest of the tie. So the page ends before the tie
 * (shorter than `limit`, hasMore true) or, when the whole page is one tie, holds the whole tie (longer
 * than `limit`, up to TIE_GROUP_MAX items). Timestamps are ISO strings with milliseconds.
 */
export async function listPage(store: Store, collection: string, scope: Scope, query: ListQuery): Promise<ListResult> {
  const { docs, hasMore } = await store.list(collection, scope, { ...query, limit: query.limit + 1 });
  const field = query.sortBy;
  if (docs.length <= query.limit) return { docs, hasMore };
  const boundary = docs[query.limit - 1][field] as string;
  if (docs[query.limit][field] !== boundary) return { docs: docs.slice(0, query.limit), hasMore: true };
  let start = query.limit - 1;
  while (start > 0 && docs[start - 1][field] === boundary) start--;
  if (start > 0) return { docs: docs.slice(0, start), hasMore: true };
  // The whole page shares one timestamp: return all of it, then the cursor moves past it.
  const tie: DateRange = { field, after: shiftMs(boundary, -1), before: shiftMs(boundary, 1) };
  const group = await store.list(collection, scope, {
    ...query, limit: TIE_GROUP_MAX, ranges: [...(query.ranges ?? []).filter((r) => r.field !== field), tie, ...(query.ranges ?? []).filter((r) => r.field === field)],
  });
  const rest = await store.list(collection, scope, {
    ...query, limit: 1, ranges: [...(query.ranges ?? []), query.order === 'asc' ? { field, after: boundary } : { field, before: boundary }],
  });
  return { docs: group.docs, hasMore: rest.docs.length > 0 };
}
