// GET /v1/users with our filters (search, onTrip, inside, geofenceId, fraud): a bounded scan in the list's
// own order. The users table has no index a filter could use (trip, geofences and fraud change with track
// updates, and an index on them would cost the track path an index entry per change; users are indexed
// coarsely on purpose, docs/track-path.md), so a request reads at most `scanLimit` users from the
// updatedAt index, keeps those that match, and says where it stopped: the client continues from there.
import type { DateRange, Scope, Store } from '../../../ports/store';
import type { UserDoc } from '../../../core/model/user';
import { userMatcher, type UserFilter } from '../../../core/users/user-filter';
import { USERS } from '../../api/collections';
import { listPage } from '../../api/list-query';
import { findUser } from '../../api/user-lookup';

/** The most users one request examines unless it asks for fewer. */
export const SCAN_LIMIT_MAX = 5000;
// Each read of the volatile users' updatedAt index sorts the rows of every hour it reaches: few, large
// reads cost fewer sorts than many small ones, and the first is small for the common early stop.
const FIRST_READ = 1000;
// Cursor values that bound nothing, for a scan that has not begun.
const SCAN_FROM_START = { desc: '9999-12-31T23:59:59.999Z', asc: '1970-01-01T00:00:00.000Z' };

export interface FilteredListQuery {
  filter: UserFilter;
  limit: number;
  order: 'asc' | 'desc';
  updatedBefore?: string;
  updatedAfter?: string;
  beforeId?: string;
  afterId?: string;
  scanLimit: number;
}

/** Where the scan stopped: the query parameters that continue it (the last user examined). */
export type ScanCursor = { updatedBefore: string; beforeId?: string } | { updatedAfter: string; afterId?: string };

/** The cursor that continues a list after `u`, in its order. */
export function cursorAfter(u: UserDoc, asc: boolean): ScanCursor {
  return asc ? { updatedAfter: u.updatedAt, afterId: u._id } : { updatedBefore: u.updatedAt, beforeId: u._id };
}

export interface FilteredList {
  users: UserDoc[];
  /** Users the scan examined; those found through an index are not counted. */
  scanned: number;
  /** The scan stopped at scanLimit before `limit` matches were found: fewer users than asked, more may follow. */
  scanStopped: boolean;
  /** Present while the list continues: give these parameters (with the same filters) for the next page. */
  next?: ScanCursor;
}

export async function listFilteredUsers(store: Store, scope: Scope, q: FilteredListQuery): Promise<FilteredList> {
  const matches = userMatcher(q.filter);
  const asc = q.order === 'asc';
  const users: UserDoc[] = [];
  const inRange = (u: UserDoc) => (q.updatedBefore === undefined || u.updatedAt < q.updatedBefore || (u.updatedAt === q.updatedBefore && q.beforeId !== undefined && u._id < q.beforeId))
    && (q.updatedAfter === undefined || u.updatedAt > q.updatedAfter || (u.updatedAt === q.updatedAfter && q.afterId !== undefined && u._id > q.afterId));
  // On the first page, the users whose id is the search text, then those whose userId or deviceId starts
  // with it as typed, come through their indexes wherever they are; the scan finds the rest (and may
  // find these again on a later page: a client keeps one per _id).
  const firstPage = asc ? q.updatedAfter === undefined : q.updatedBefore === undefined;
  const indexed = new Set<string>();
  const take = (u: UserDoc | undefined) => {
    if (u && users.length < q.limit && !indexed.has(u._id) && matches(u) && inRange(u)) { indexed.add(u._id); users.push(u); }
  };
  if (q.filter.search !== undefined && firstPage) {
    take(await findUser(store, scope, q.filter.search));
    for (const key of ['userId', 'deviceId']) {
      for (const u of await store.keyPrefix(USERS, scope, key, q.filter.search, q.limit)) take(u);
    }
  }

  let before = q.updatedBefore;
  let after = q.updatedAfter;
  let beforeId = q.beforeId;
  let afterId = q.afterId;
  let scanned = 0;
  let last: UserDoc | undefined;
  let atEnd = false;
  while (users.length < q.limit && scanned < q.scanLimit) {
    const read = Math.min(q.scanLimit - scanned, scanned === 0 ? FIRST_READ : q.scanLimit);
    const range: DateRange = { field: 'updatedAt', before, after };
    const page = await listPage(store, USERS, scope, {
      limit: read, sortBy: 'updatedAt', order: q.order, ranges: before || after ? [range] : [], beforeId, afterId,
    });
    let i = 0;
    for (; i < page.docs.length && users.length < q.limit; i++) {
      const u = page.docs[i];
      scanned++;
      last = u;
      if (!indexed.has(u._id) && matches(u)) users.push(u);
    }
    if ((i === page.docs.length && !page.hasMore) || !last) { atEnd = true; break; }
    if (asc) { after = last.updatedAt; afterId = last._id; } else { before = last.updatedAt; beforeId = last._id; }
  }
  let next: ScanCursor | undefined;
  if (last && !atEnd) next = cursorAfter(last, asc);
  // The indexed matches filled the page before the scan began: the next page is the scan from its start.
  else if (!last && !atEnd) next = asc ? { updatedAfter: SCAN_FROM_START.asc } : { updatedBefore: SCAN_FROM_START.desc };
  return { users, scanned, scanStopped: !atEnd && users.length < q.limit, ...(next ? { next } : {}) };
}
