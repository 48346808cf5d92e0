// What the users list asks GET /v1/users for (its search box and "Show" choice as the server's filters),
// and the line that says what the list holds. On a trip, inside a geofence and inside one geofence are
// answered exactly from the trips and presence rows (meta.exact, meta.total): the line says how many; so
// is "with fraud flags" from the flagged-users rows once the server has them all (its answer says so). The
// others are a scan of a bounded number of users per request (meta.scanned, meta.next), so the line
// counts what was searched, not only what was found.
import { count, thousands } from '../words';

export type Show = '' | 'trip' | 'inside' | 'geofence' | 'fraud' | 'hour';

export const SHOW_CHOICES: ReadonlyArray<[Show, string]> = [
  ['', 'All users'], ['trip', 'On a trip'], ['inside', 'Inside a geofence'], ['geofence', 'Inside geofence…'], ['fraud', 'With fraud flags'], ['hour', 'Seen in the last hour'],
];

/**
 * The filter parameters of one list, without paging. "Seen in the last hour" is the indexed updatedAfter
 * bound; "Inside geofence…" needs the geofence's _id (without one it lists all users).
 */
export function usersQuery(search: string, show: Show, now: number, geofenceId?: string): Record<string, string> {
  const q: Record<string, string> = {};
  if (search) q.search = search;
  if (show === 'trip') q.onTrip = 'true';
  else if (show === 'inside') q.inside = 'true';
  else if (show === 'geofence' && geofenceId) q.geofenceId = geofenceId;
  else if (show === 'fraud') q.fraud = 'true';
  else if (show === 'hour') q.updatedAfter = new Date(now - 3600_000).toISOString();
  return q;
}

/** Whether the server answers this query with a bounded scan (it filters) rather than its plain index. */
export function scans(query: Record<string, string>): boolean {
  return !exact(query) && ['search', 'onTrip', 'inside', 'fraud'].some((k) => k in query);
}

/** Whether the server answers this query exactly from trips or presence rows: one request says it all. */
export function exact(query: Record<string, string>): boolean {
  return query.onTrip === 'true' || query.inside === 'true' || 'geofenceId' in query;
}

/**
 * "3 users on a trip", "1 user inside Harbor store matches", or, past the server's cap, "100 of more than
 * 10,000 users inside a geofence shown". `what` says the exact filter; `narrowed` that a search or another
 * filter narrowed it further.
 */
export function exactLine(a: { found: number; total?: number; capped: boolean; more: boolean; what: string; narrowed: boolean }): string {
  if (a.capped) return `${thousands(a.found)} shown of more than 10,000 users ${a.what}; only 10,000 of them are searched: narrow the filter${a.more ? '; Load more' : ''}`;
  const n = a.total ?? a.found;
  const said = `${count(n, 'user')} ${a.what}${a.narrowed ? ` ${n === 1 ? 'matches' : 'match'}` : ''}`;
  return a.total !== undefined && a.found < a.total ? `${said}; ${thousands(a.found)} shown${a.more ? ': Load more' : ''}` : `${said}${a.more ? '; more may match: Load more' : ''}`;
}

/** "3 users match, among the 5,000 most recently updated searched; more may match: Load more". */
export function listLine(found: number, scanned: number | undefined, filtered: boolean, more: boolean): string {
  if (!filtered) return `${count(found, 'user')}, newest update first${more ? '; more on the server: Load more' : ''}`;
  const searched = scanned === undefined ? '' : more ? `, among the ${thousands(scanned)} most recently updated searched` : ` (all ${thousands(scanned)} searched)`;
  return `${count(found, 'user')} ${found === 1 ? 'matches' : 'match'}${searched}${more ? '; more may match: Load more' : ''}`;
}
