// Deleting location history rows (collections.ts LOCATIONS): a deleted user's, and every row past its
// `expiresAt`. Both go in bounded batches, each its own write: a user with a month of history at one
// row a minute has 43,200 rows, more than one transaction should hold.
import { remove, type Scope, type Store } from '../../ports/store';
import { LOCATIONS } from './collections';

const BATCH = 1000;

/** Deletes every history row of the user `userRef`; returns how many. */
export async function deleteUserLocations(store: Store, scope: Scope, userRef: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const { docs } = await store.list(LOCATIONS, scope, { limit: BATCH, sortBy: 'createdAt', equals: { userRef } });
    if (docs.length === 0) return removed;
    await store.write(docs.map((row) => remove(LOCATIONS, scope, row._id)));
    removed += docs.length;
    if (docs.length < BATCH) return removed;
  }
}

/** Deletes the rows whose expiresAt is at or before `now`, across environments; returns how many. */
export async function deleteExpiredLocations(store: Store, now: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await store.due(LOCATIONS, now.toISOString(), BATCH);
    if (due.length === 0) return removed;
    await store.write(due.map(({ scope, doc }) => remove(LOCATIONS, scope, doc._id)));
    removed += due.length;
    if (due.length < BATCH) return removed;
  }
}
