// Query parameters shared by the list endpoints: limit and the date cursors.
import type { Collection, DateRange, DocBase, ListQuery, ListResult, Scope, Store } from '../../ports/store';
import { BadRequest } from '../http/errors';
import { readDatetime, readEnum, readNumber, readString } from '../http/params';
import { datetime, integer, oneOf, text } from '../http/params/param-spec';

/** The page size of a list, as a param-spec field: 1 to `max`, `fallback` when absent. */
export function limitField(max: number, fallback: number) {
  return integer({ min: 1, max }).default(fallback);
}

/** The cursors of a list sorted by createdAt (Radar's createdBefore / createdAfter). */
export const CREATED_CURSORS = {
  createdBefore: datetime().describe('only items created before this time (the cursor of the next page)'),
  createdAfter: datetime().describe('only items created after this time'),
};

/** The cursors of a list sorted by updatedAt. */
export const UPDATED_CURSORS = {
  updatedBefore: datetime().describe('only items updated before this time (the cursor of the next page)'),
  updatedAfter: datetime().describe('only items updated after this time'),
};

/** Cursor values read through the fields above → a range on createdAt or updatedAt. */
export function dateRange(field: 'createdAt' | 'updatedAt', before: Date | undefined, after: Date | undefined): DateRange | undefined {
  if (!before && !after) return undefined;
  return { field, before: before?.toISOString(), after: after?.toISOString() };
}

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

/** The most items one timestamp may hold and still be paged through with `beforeId` / `afterId`; see listPage(). */
export const TIE_GROUP_MAX = 10_000;
const MAX_ID_LENGTH = 64;

type SortField = 'createdAt' | 'updatedAt';
type Order = 'asc' | 'desc';

const prefixOf = (field: SortField): string => (field === 'createdAt' ? 'created' : 'updated');

/** A list query whose page may start inside a run of items sharing the cursor's timestamp. */
export interface PageQuery extends ListQuery {
  /**
   * Newest first (the default, Radar's order): with the sort field's `before` bound T, items at exactly T
   * whose `_id` sorts below this one are taken too (before the older ones), so a page cut inside a tie
   * continues where it stopped.
   */
  beforeId?: string;
  /** Oldest first (`order: 'asc'`): the same with the `after` bound T and the items whose `_id` sorts above. */
  afterId?: string;
}

/** `order` as a param-spec field: newest first unless `asc`. */
export const ORDER = oneOf(['asc', 'desc'] as const).default('desc')
  .describe('desc (default): newest first, the next page by <field>Before (+ beforeId); asc: oldest first, the next page by <field>After (+ afterId)');

export function readOrder(query: Record<string, unknown>): Order {
  return readEnum(query.order, 'order', ['asc', 'desc'] as const) ?? 'desc';
}

/**
 * `beforeId`: the tie-breaking half of the cursor, the last item's `_id`, beside `<prefix>Before` = the
 * last item's timestamp on the list's sort field.
 */
export function readBeforeId(query: Record<string, unknown>, field: SortField): string | undefined {
  return checkBeforeId(readString(query.beforeId, 'beforeId', { maxLength: MAX_ID_LENGTH }), query[`${prefixOf(field)}Before`], field, readOrder(query));
}

/** `afterId`: the same for `order=asc`, beside `<prefix>After`. */
export function readAfterId(query: Record<string, unknown>, field: SortField): string | undefined {
  return checkAfterId(readString(query.afterId, 'afterId', { maxLength: MAX_ID_LENGTH }), query[`${prefixOf(field)}After`], field, readOrder(query));
}

/** `beforeId` as a param-spec field; checkBeforeId() then asks for its timestamp half. */
export const BEFORE_ID = text({ maxLength: MAX_ID_LENGTH }).describe('with createdBefore/updatedBefore: the last item\'s _id, to continue inside a run of equal timestamps');

/** `afterId` as a param-spec field (order=asc); checkAfterId() then asks for its timestamp half. */
export const AFTER_ID = text({ maxLength: MAX_ID_LENGTH }).describe('with order=asc and createdAfter/updatedAfter: the last item\'s _id, to continue inside a run of equal timestamps');

const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

/** beforeId is only meaningful newest first, beside the `<prefix>Before` timestamp of the same cursor. */
export function checkBeforeId(beforeId: string | undefined, before: unknown, field: SortField, order: Order = 'desc'): string | undefined {
  if (beforeId === undefined) return undefined;
  const prefix = prefixOf(field);
  if (order === 'asc') throw new BadRequest('beforeId', `beforeId continues a newest-first list; with order=asc the cursor is ${prefix}After and afterId`);
  if (absent(before)) throw new BadRequest('beforeId', `beforeId continues a page from ${prefix}Before: give both, the last item's ${field} and its _id`);
  return beforeId;
}

/** afterId is only meaningful oldest first (order=asc), beside the `<prefix>After` timestamp of the same cursor. */
export function checkAfterId(afterId: string | undefined, after: unknown, field: SortField, order: Order): string | undefined {
  if (afterId === undefined) return undefined;
  const prefix = prefixOf(field);
  if (order !== 'asc') throw new BadRequest('afterId', `afterId continues an oldest-first list: give order=asc with ${prefix}After and afterId`);
  if (absent(after)) throw new BadRequest('afterId', `afterId continues a page from ${prefix}After: give both, the last item's ${field} and its _id`);
  return afterId;
}

function shiftMs(iso: string, ms: number): string {
  return new Date(new Date(iso).getTime() + ms).toISOString();
}

/**
 * store.list() with pages of at most `limit` items that a client can follow exactly, newest first or
 * (order asc) oldest first. Radar's cursor is the last item's timestamp, exclusive (`createdBefore` = last
 * `createdAt`; oldest first, `createdAfter`): a page cut inside a run of items sharing that timestamp
 * would make the next page skip the rest of the run. So a page ends before such a run when it can
 * (shorter than `limit`, hasMore true), and the timestamp cursor alone stays exact. When the whole page
 * is one run it is cut at `limit` in `_id` order (the stores sort ties by `_id`, in the list's direction),
 * and the next page is asked with `beforeId` / `afterId` = the last `_id` beside the timestamp.
 * Timestamps are ISO strings with milliseconds.
 */
export async function listPage<T extends DocBase>(store: Store, collection: Collection<T>, scope: Scope, page: PageQuery): Promise<ListResult<T>> {
  const { beforeId, afterId, ...query } = page;
  const field = query.sortBy;
  const asc = query.order === 'asc';
  const sameField = (query.ranges ?? []).filter((r) => r.field === field);
  const cursorAt = asc ? sameField.find((r) => r.after !== undefined)?.after : sameField.find((r) => r.before !== undefined)?.before;
  const cursorId = asc ? afterId : beforeId;
  const tieRest = cursorId !== undefined && cursorAt !== undefined
    ? await restOfTie(store, collection, scope, query, cursorAt, cursorId)
    : [];
  const { docs: beyond, hasMore } = await store.list(collection, scope, { ...query, limit: query.limit + 1 });
  const docs = [...tieRest, ...beyond];
  if (docs.length <= query.limit) return { docs, hasMore };
  const boundary = docs[query.limit - 1][field];
  if (docs[query.limit][field] !== boundary) return { docs: docs.slice(0, query.limit), hasMore: true };
  let start = query.limit - 1;
  while (start > 0 && docs[start - 1][field] === boundary) start--;
  return { docs: docs.slice(0, start > 0 ? start : query.limit), hasMore: true };
}

/**
 * The items at exactly `at` (one millisecond) that come after the cursor's `_id` in list order: below it
 * newest first, above it oldest first.
 */
async function restOfTie<T extends DocBase>(store: Store, collection: Collection<T>, scope: Scope, query: ListQuery, at: string, cursorId: string): Promise<T[]> {
  const asc = query.order === 'asc';
  const others = (query.ranges ?? []).filter((r) => r.field !== query.sortBy);
  const same = (query.ranges ?? []).filter((r) => r.field === query.sortBy);
  // The other end of the range may already exclude the tie.
  if (asc ? same.some((r) => r.before !== undefined && r.before <= at) : same.some((r) => r.after !== undefined && r.after >= at)) return [];
  const tie: DateRange = { field: query.sortBy, after: shiftMs(at, -1), before: shiftMs(at, 1) };
  const group = await store.list(collection, scope, { ...query, limit: TIE_GROUP_MAX, ranges: [...others, tie] });
  return group.docs.filter((doc) => (asc ? doc._id > cursorId : doc._id < cursorId));
}
