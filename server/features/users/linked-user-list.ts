// GET /v1/users with onTrip=true, inside=true, geofenceId or fraud=true: exact, from the collections that
// link users to trips, geofences and fraud flags rather than a scan of users. The users of active trips
// come from the trips' status index, those inside from the presence rows (one per user and geofence while
// inside), the flagged ones from the flagged-users rows (once the environment's are complete), as
// distinct user ids read from the key columns; at most LINKED_MAX of them are considered (meta.capped
// says when more match). Those users are then listed by their _ids through the primary key, newest update
// first, with the plain list's cursors; the rest of the filter (search, fraud, a `false`) is tested on
// each. All these rows are written by the track path (and the trips API) in the user's own write.
import type { Scope, Store } from '../../../ports/store';
import type { UserDoc } from '../../../core/model/user';
import { pendingUserRef } from '../../../core/model/trip';
import { ACTIVE_STATUSES } from '../../../core/trips/status';
import { filters, hasFraudFlag, userMatcher, type UserFilter, type UserLinks } from '../../../core/users/user-filter';
import { FLAGGED_USERS, PRESENCE, TRIPS, USERS } from '../../api/collections';
import { listPage } from '../../api/list-query';
import { cursorAfter, type ScanCursor } from './user-list';

/** The most linked users one request considers: each is a primary-key lookup per page read. */
export const LINKED_MAX = 10_000;
// With the rest of the filter to test, users are read in pages of this many until the page is full.
const FILTER_READ = 2_000;
// A trip created for a userId that has not tracked yet links to this prefix, not to a user.
const PENDING = pendingUserRef('');

export interface LinkedListQuery {
  links: UserLinks;
  rest: UserFilter;
  limit: number;
  order: 'asc' | 'desc';
  updatedBefore?: string;
  updatedAfter?: string;
  beforeId?: string;
  afterId?: string;
}

export interface LinkedList {
  users: UserDoc[];
  /** More than LINKED_MAX users are linked: only LINKED_MAX of them (the lowest _ids) were considered. */
  capped: boolean;
  /**
   * How many users the whole filter matches, over all pages and ignoring updatedBefore/updatedAfter, when
   * known: always without a rest of the filter unless capped; with one, when this request saw them all.
   */
  total?: number;
  next?: ScanCursor;
}

/** The distinct user ids the links give, at most LINKED_MAX, and whether more are linked. */
async function linkedIds(store: Store, scope: Scope, links: UserLinks): Promise<{ ids: string[]; capped: boolean }> {
  const sets: string[][] = [];
  if (links.onTrip) {
    const refs = await store.distinctKeys(TRIPS, scope, 'userRef', { status: [...ACTIVE_STATUSES] }, LINKED_MAX + 1);
    sets.push(refs.filter((ref) => !ref.startsWith(PENDING)));
  }
  if (links.inside) {
    sets.push(await store.distinctKeys(PRESENCE, scope, 'userRef', links.geofenceId !== undefined ? { geofenceId: links.geofenceId } : {}, LINKED_MAX + 1));
  }
  if (links.fraud) {
    // The marker row has no userRef: it is not among the values.
    sets.push(await store.distinctKeys(FLAGGED_USERS, scope, 'userRef', {}, LINKED_MAX + 1));
  }
  // Of two capped sets the intersection may miss users: capped too.
  const capped = sets.some((s) => s.length > LINKED_MAX);
  const [first, ...others] = sets.map((s) => s.slice(0, LINKED_MAX));
  const ids = others.reduce((kept, s) => { const set = new Set(s); return kept.filter((id) => set.has(id)); }, first);
  return { ids, capped };
}

export async function listLinkedUsers(store: Store, scope: Scope, q: LinkedListQuery): Promise<LinkedList> {
  const { ids, capped } = await linkedIds(store, scope, q.links);
  const asc = q.order === 'asc';
  const ranges = q.updatedBefore !== undefined || q.updatedAfter !== undefined ? [{ field: 'updatedAt' as const, before: q.updatedBefore, after: q.updatedAfter }] : [];
  const narrowed = filters(q.rest);

  // A flagged-users row names a user flagged when it was written; each user read is tested again, so a
  // row out of step with its user (written by a node from before the rows, during an upgrade) never shows.
  const linked = q.links.fraud ? hasFraudFlag : () => true;

  if (!narrowed) {
    const page = await listPage(store, USERS, scope, { limit: q.limit, sortBy: 'updatedAt', order: q.order, ranges, beforeId: q.beforeId, afterId: q.afterId, ids });
    const last = page.docs[page.docs.length - 1];
    page.docs = page.docs.filter(linked);
    // The users themselves are counted (an active trip may still name a deleted user), whatever the page.
    const whole = ranges.length === 0 && !page.hasMore;
    const total = capped ? undefined : whole ? page.docs.length : await store.count(USERS, scope, { limit: LINKED_MAX, sortBy: 'updatedAt', ids });
    return { users: page.docs, capped, ...(total !== undefined ? { total } : {}), ...(page.hasMore ? { next: cursorAfter(last, asc) } : {}) };
  }

  const rest = userMatcher(q.rest);
  const matches = (u: UserDoc) => linked(u) && rest(u);
  const users: UserDoc[] = [];
  let before = q.updatedBefore;
  let after = q.updatedAfter;
  let beforeId = q.beforeId;
  let afterId = q.afterId;
  let last: UserDoc | undefined;
  let more = true;
  while (users.length < q.limit && more) {
    const read = users.length === 0 && last === undefined ? Math.max(q.limit, 100) : FILTER_READ;
    const page = await listPage(store, USERS, scope, {
      limit: read, sortBy: 'updatedAt', order: q.order, ids, beforeId, afterId,
      ranges: before !== undefined || after !== undefined ? [{ field: 'updatedAt', before, after }] : [],
    });
    more = page.hasMore;
    for (const u of page.docs) {
      if (users.length === q.limit) { more = true; break; }
      last = u;
      if (matches(u)) users.push(u);
    }
    if (!last) break;
    if (asc) { after = last.updatedAt; afterId = last._id; } else { before = last.updatedAt; beforeId = last._id; }
  }
  // Counted only when this one request saw every linked user.
  const total = !capped && ranges.length === 0 && !more ? users.length : undefined;
  return { users, capped, ...(total !== undefined ? { total } : {}), ...(more && last ? { next: cursorAfter(last, asc) } : {}) };
}
