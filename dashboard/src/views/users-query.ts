// What the users list asks GET /v1/users for (its search box and "Show" choice as the server's filters),
// and the line that says what the list holds. The server scans a bounded number of users per request
// (meta.scanned, meta.next), so the line counts what was searched, not only what was found.
import { count, thousands } from '../words';

export type Show = '' | 'trip' | 'inside' | 'fraud' | 'hour';

export const SHOW_CHOICES: ReadonlyArray<[Show, string]> = [
  ['', 'All users'], ['trip', 'On a trip'], ['inside', 'Inside a geofence'], ['fraud', 'With fraud flags'], ['hour', 'Seen in the last hour'],
];

/** The filter parameters of one list, without paging. "Seen in the last hour" is the indexed updatedAfter bound. */
export function usersQuery(search: string, show: Show, now: number): Record<string, string> {
  const q: Record<string, string> = {};
  if (search) q.search = search;
  if (show === 'trip') q.onTrip = 'true';
  else if (show === 'inside') q.inside = 'true';
  else if (show === 'fraud') q.fraud = 'true';
  else if (show === 'hour') q.updatedAfter = new Date(now - 3600_000).toISOString();
  return q;
}

/** Whether the server answers this query with a bounded scan (it filters) rather than its plain index. */
export function scans(query: Record<string, string>): boolean {
  return ['search', 'onTrip', 'inside', 'fraud'].some((k) => k in query);
}

/** "3 users match, among the 5,000 most recently updated searched; more may match: Load more". */
export function listLine(found: number, scanned: number | undefined, filtered: boolean, more: boolean): string {
  if (!filtered) return `${count(found, 'user')}, newest update first${more ? '; more on the server: Load more' : ''}`;
  const searched = scanned === undefined ? '' : more ? `, among the ${thousands(scanned)} most recently updated searched` : ` (all ${thousands(scanned)} searched)`;
  return `${count(found, 'user')} ${found === 1 ? 'matches' : 'match'}${searched}${more ? '; more may match: Load more' : ''}`;
}
