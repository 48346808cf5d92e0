// GET /v1/users, GET /v1/users/:id, DELETE /v1/users/:id.
import { remove, type Store, type WriteOp } from '../../../ports/store';
import { PRESENCE, USERS } from '../../api/collections';
import { NotFound } from '../../http/errors';
import type { Route } from '../../http/route';
import { publicView } from '../../../core/model/views';
import { flag, integer, paramSpec, takes, text } from '../../http/params/param-spec';
import { AFTER_ID, BEFORE_ID, ORDER, UPDATED_CURSORS, checkAfterId, checkBeforeId, dateRange, limitField, listPage, ranges } from '../../api/list-query';
import { userLockKey } from '../../track-step';
import { findUser } from '../../api/user-lookup';
import { filters, splitFilter } from '../../../core/users/user-filter';
import { LINKED_MAX, listLinkedUsers } from './linked-user-list';
import { listFilteredUsers, SCAN_LIMIT_MAX } from './user-list';
import { deleteUserLocations } from '../../api/location-history';
import { FlaggedUsersState, removeFlaggedUser } from '../../api/flagged-users';

const PRESENCE_BATCH = 500;

const noControl = (name: string) => ({ pattern: /^[^\u0000-\u001f\u007f]*$/, patternMessage: `${name} must not contain control characters` });

// The filters are ours (Radar lists users unfiltered). onTrip=true, inside=true, geofenceId and fraud=true
// are answered exactly from trips, presence and flagged-users rows (linked-user-list.ts); the others alone
// make the list a bounded scan (user-list.ts).
const LIST = paramSpec('query', {
  limit: limitField(1000, 100), ...UPDATED_CURSORS, order: ORDER, beforeId: BEFORE_ID, afterId: AFTER_ID,
  search: text({ maxLength: 256, ...noControl('search') }).describe('ours: the start of a userId, deviceId or _id, or part of the description, ignoring case; on the first page an exact id, then userIds and deviceIds starting with it as typed, come first through their indexes'),
  onTrip: flag().describe(`ours: only users on an active trip (true: exact, from the trips, at most ${LINKED_MAX.toLocaleString('en')} considered, meta.total, meta.capped) or not (false: a scan)`),
  inside: flag().describe(`ours: only users inside at least one geofence (true: exact, from the presence rows, at most ${LINKED_MAX.toLocaleString('en')} considered) or none (false: a scan)`),
  geofenceId: text({ maxLength: 64, ...noControl('geofenceId') }).describe('ours: only users inside this geofence (its _id); exact, as inside=true'),
  fraud: flag().describe(`ours: only users with a fraud flag raised (true: exact, from the flagged-users rows once the environment's are complete, at most ${LINKED_MAX.toLocaleString('en')} considered; a scan before) or none (false: a scan)`),
  scanLimit: integer({ min: 100, max: SCAN_LIMIT_MAX }).default(SCAN_LIMIT_MAX).describe('ours: with a filter answered by a scan, the most users examined (meta.scanned); meta.next continues'),
});

export function userRoutes(store: Store): Route[] {
  const rate = { name: 'users', perSecond: 10 };
  const flagged = new FlaggedUsersState(store);
  return [
    {
      method: 'GET', path: '/v1/users', auth: 'secret',
      ...takes(LIST, async ({ scope }, q) => {
        const beforeId = checkBeforeId(q.beforeId, q.updatedBefore, 'updatedAt', q.order);
        const afterId = checkAfterId(q.afterId, q.updatedAfter, 'updatedAt', q.order);
        const filter = { search: q.search, onTrip: q.onTrip, inside: q.inside, geofenceId: q.geofenceId, fraud: q.fraud };
        const { links, rest } = splitFilter(filter, filter.fraud === true && await flagged.isComplete(scope));
        if (links) {
          const found = await listLinkedUsers(store, scope, {
            links, rest, limit: q.limit, order: q.order, beforeId, afterId,
            updatedBefore: q.updatedBefore?.toISOString(), updatedAfter: q.updatedAfter?.toISOString(),
          });
          return {
            meta: {
              hasMore: found.next !== undefined, exact: !found.capped, capped: found.capped,
              ...(found.total !== undefined ? { total: found.total } : {}), ...(found.next ? { next: found.next } : {}),
            },
            body: { users: found.users.map(publicView) },
          };
        }
        if (filters(filter)) {
          const found = await listFilteredUsers(store, scope, {
            filter, limit: q.limit, order: q.order, scanLimit: q.scanLimit, beforeId, afterId,
            updatedBefore: q.updatedBefore?.toISOString(), updatedAfter: q.updatedAfter?.toISOString(),
          });
          return {
            meta: { hasMore: found.next !== undefined, scanned: found.scanned, scanStopped: found.scanStopped, ...(found.next ? { next: found.next } : {}) },
            body: { users: found.users.map(publicView) },
          };
        }
        const { docs, hasMore } = await listPage(store, USERS, scope, {
          limit: q.limit, sortBy: 'updatedAt', order: q.order, ranges: ranges(dateRange('updatedAt', q.updatedBefore, q.updatedAfter)),
          beforeId, afterId,
        });
        return { meta: { hasMore }, body: { users: docs.map(publicView) } };
      }),
    },
    {
      method: 'GET', path: '/v1/users/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        const user = await findUser(store, scope, params.id);
        if (!user) throw new NotFound(`No user with _id, userId or deviceId "${params.id}"`, 'id');
        return { body: { user: publicView(user) } };
      },
    },
    {
      method: 'DELETE', path: '/v1/users/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        const found = await findUser(store, scope, params.id);
        if (!found) throw new NotFound(`No user with _id, userId or deviceId "${params.id}"`, 'id');
        // Under the user's track lock, and with its presence rows: left behind, they would keep the user in
        // its geofences' user lists (as empty pages that say hasMore) and pile up forever.
        const lock = userLockKey(scope, found.userId, found.deviceId);
        await store.withLock(lock, async () => {
          const user = await store.get(USERS, scope, found._id);
          if (!user) throw new NotFound(`No user with _id, userId or deviceId "${params.id}"`, 'id');
          // One row per geofence the user is in: the first batch goes with the user, atomically.
          // Its flagged-users row too (whether or not it has one: a stale row a fill left goes as well).
          let ops: WriteOp[] = [remove(USERS, scope, user._id), removeFlaggedUser(scope, user._id)];
          for (;;) {
            const { docs } = await store.list(PRESENCE, scope, { limit: PRESENCE_BATCH, sortBy: 'createdAt', equals: { userRef: user._id } });
            for (const p of docs) ops.push(remove(PRESENCE, scope, p._id));
            await store.write(ops);
            if (docs.length < PRESENCE_BATCH) return;
            ops = [];
          }
        });
        // Outside the lock: the user is gone, so no update writes under its _id any more (one in flight
        // fails its revision check and makes a new user). Rows a crash leaves behind expire with the rest.
        await deleteUserLocations(store, scope, found._id);
        return {};
      },
    },
  ];
}
