// Events over several days written straight into the store (as a busy environment's would be), for the
// analytics tests: 12,013 events, more than the 10,000 the dashboard used to read, with exact counts known; and
// events on fixed instants either side of New York's midnights (midnightEvents).
import { put, type Scope, type Store } from '../../ports/store';
import { newObjectId } from '../../core/object-id';
import type { EventDoc } from '../../core/model/event';
import { EVENTS } from '../../server/api/collections';

export const DAY = 86_400_000;
export const todayStart = Math.floor(Date.now() / DAY) * DAY;
export const dayOf = (ago: number) => new Date(todayStart - ago * DAY).toISOString().slice(0, 10);
const at = (ago: number, ms: number) => new Date(todayStart - ago * DAY + ms).toISOString();

function event(type: string, createdAt: string, fields: Partial<EventDoc> = {}): EventDoc {
  return { _id: newObjectId(new Date(createdAt)), type, live: false, createdAt, updatedAt: createdAt, actualCreatedAt: createdAt, ...fields };
}
const geofence = (id: string, description: string) => ({ _id: id.padStart(24, '0'), tag: 'store', externalId: id, description, type: 'circle' as const });
const A = geofence('a1', 'Harbor store');
export const B = geofence('b2', 'North store');
const arrival = (createdAt: string, minutes: number, late?: number) => event('user.arrived_at_trip_destination', createdAt, {
  trip: {
    createdAt: new Date(Date.parse(createdAt) - minutes * 60_000).toISOString(), arrivedAt: createdAt,
    delay: late === undefined ? { delayed: false, scheduledArrivalTimeDelay: 0 } : { delayed: true, scheduledArrivalTimeDelay: late },
  },
});

/**
 * 5 days ago: 6,000 entries (4,000 at A, 2,000 at B) and 1,000 exits, 5,400 of them in one millisecond (more
 * than a page of the server's reading);
 * 4 days ago: 5,000 entries at B; 3 days ago: 3 trips started and arrived (10, 20, 30 min; one 5 min
 * late); today: 7 entries at A. 12,013 events, 12,006 of them on closed days.
 */
export function seedEvents(): EventDoc[] {
  const docs: EventDoc[] = [];
  for (let i = 0; i < 3000; i++) docs.push(event('user.entered_geofence', at(5, 3600_000), { geofence: A }));
  for (let i = 0; i < 1000; i++) docs.push(event('user.entered_geofence', at(5, 7200_000 + i), { geofence: A }));
  for (let i = 0; i < 2000; i++) docs.push(event('user.entered_geofence', at(5, 3600_000), { geofence: B }));
  // Visit lengths 0–399, 400 of 16 min, 200 of 300 min: 5 | 10 | … by bucket below.
  for (let i = 0; i < 400; i++) docs.push(event('user.exited_geofence', at(5, 3600_000), { geofence: A, duration: i % 20 }));
  for (let i = 0; i < 400; i++) docs.push(event('user.exited_geofence', at(5, 30_000_000 + i), { geofence: A, duration: 16 }));
  for (let i = 0; i < 200; i++) docs.push(event('user.exited_geofence', at(5, 40_000_000 + i), { geofence: B, duration: 300 }));
  for (let i = 0; i < 5000; i++) docs.push(event('user.entered_geofence', at(4, i * 1000), { geofence: B }));
  for (let i = 0; i < 3; i++) docs.push(event('user.started_trip', at(3, 1000 + i)));
  docs.push(arrival(at(3, 3600_000), 10), arrival(at(3, 3700_000), 20), arrival(at(3, 3800_000), 30, 5));
  for (let i = 0; i < 7; i++) docs.push(event('user.entered_geofence', at(0, i), { geofence: A }));
  return docs;
}

export async function writeAll(store: Store, scope: Scope, docs: EventDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 1000) await store.write(docs.slice(i, i + 1000).map((d) => put(EVENTS, scope, d)));
}


/**
 * Events on fixed instants either side of New York's local midnights, around the 2026 daylight-saving
 * changes (2026-03-08 lasts 23 hours there, 2026-11-01 25), so that New York's days and UTC's count them
 * differently; each group's size is a power of two, so a day's count says which groups it holds.
 *   New York: 03-07 256, 03-08 128, 03-09 64; 10-31 1, 11-01 30 (2 + 4 + 8 + 16), 11-02 32.
 *   UTC:      03-08 256, 03-09 192;            11-01 7 (1 + 2 + 4), 11-02 56 (8 + 16 + 32).
 */
export function midnightEvents(): EventDoc[] {
  const groups: Array<[string, number]> = [
    ['2026-03-08T04:59:59.999Z', 256], // New York 03-07 23:59:59.999 EST
    ['2026-03-09T03:59:59.999Z', 128], // 03-08 23:59:59.999 EDT: the 23-hour day's last moment
    ['2026-03-09T04:00:00.000Z', 64], // 03-09 00:00 EDT
    ['2026-11-01T03:59:59.999Z', 1], // 10-31 23:59:59.999 EDT
    ['2026-11-01T04:00:00.000Z', 2], // 11-01 00:00 EDT
    ['2026-11-01T05:30:00.000Z', 2], // 01:30 EDT, and the same wall time again an hour later:
    ['2026-11-01T06:30:00.000Z', 2], // 01:30 EST
    ['2026-11-02T04:30:00.000Z', 8], // 11-01 23:30 EST: the 25th hour
    ['2026-11-02T04:59:59.999Z', 16], // 11-01 23:59:59.999 EST
    ['2026-11-02T05:00:00.000Z', 32], // 11-02 00:00 EST
  ];
  return groups.flatMap(([createdAt, n]) => Array.from({ length: n }, () => event('user.entered_geofence', createdAt, { geofence: A })));
}
