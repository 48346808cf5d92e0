// Track skips the open-trips query in environments known to have no open trip (#14). The knowledge must
// never be stale: a trip written here (commit listener) or while the question is out makes it "maybe".
// (The other-node path, change notices, is covered by test/api/postgres-change-notification.test.ts for
// geofences with the same mechanism.)
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { CORE_COLLECTIONS, TRIPS } from '../../server/api/collections';
import { OpenTripScopes } from '../../server/features/trips/open-trip-scopes';
import { named } from '../support/named-collection';
import { put } from '../../ports/store';

const scope = { projectId: 'p1', live: false };
const other = { projectId: 'p2', live: false };
const trip = (id: string, status: string) => ({ _id: id.padEnd(24, '0'), createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', externalId: id, status });

test('none until a trip is written; a write during the question wins', async () => {
  const store = new SqliteStore({ file: ':memory:' });
  await store.define(CORE_COLLECTIONS.trips);
  const scopes = new OpenTripScopes(store);
  try {
    expect(await scopes.mayHaveOpenTrips(scope)).toBe(false);
    expect(await scopes.mayHaveOpenTrips(scope)).toBe(false);
    await store.write([put(TRIPS, scope, trip('a', 'started'))]);
    expect(await scopes.mayHaveOpenTrips(scope)).toBe(true);
    // Another environment is asked on its own.
    expect(await scopes.mayHaveOpenTrips(other)).toBe(false);

    // Only completed trips: nothing open.
    const fresh = new OpenTripScopes(store);
    await store.write([put(TRIPS, other, trip('b', 'completed'))]);
    expect(await fresh.mayHaveOpenTrips(other)).toBe(false);
    // A trip committed while the question is out: the "none" answer is not kept.
    const asking = fresh.mayHaveOpenTrips({ projectId: 'p3', live: true });
    await store.write([put(TRIPS, { projectId: 'p3', live: true }, trip('c', 'pending'))]);
    await asking;
    expect(await fresh.mayHaveOpenTrips({ projectId: 'p3', live: true })).toBe(true);
  } finally {
    await store.close();
  }
});
