// GET /v1/users, GET /v1/users/:id, DELETE /v1/users/:id.
import { remove, type Store, type WriteOp } from '../../../ports/store';
import { PRESENCE, USERS } from '../../api/collections';
import { NotFound } from '../../http/errors';
import type { Route } from '../../http/route';
import { publicView } from '../../../core/model/views';
import { paramSpec, takes } from '../../http/params/param-spec';
import { AFTER_ID, BEFORE_ID, ORDER, UPDATED_CURSORS, checkAfterId, checkBeforeId, dateRange, limitField, listPage, ranges } from '../../api/list-query';
import { userLockKey } from '../../track-step';
import { findUser } from '../../api/user-lookup';

const PRESENCE_BATCH = 500;

const LIST = paramSpec('query', { limit: limitField(1000, 100), ...UPDATED_CURSORS, order: ORDER, beforeId: BEFORE_ID, afterId: AFTER_ID });

export function userRoutes(store: Store): Route[] {
  const rate = { name: 'users', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/users', auth: 'secret',
      ...takes(LIST, async ({ scope }, q) => {
        const { docs, hasMore } = await listPage(store, USERS, scope, {
          limit: q.limit, sortBy: 'updatedAt', order: q.order, ranges: ranges(dateRange('updatedAt', q.updatedBefore, q.updatedAfter)),
          beforeId: checkBeforeId(q.beforeId, q.updatedBefore, 'updatedAt', q.order), afterId: checkAfterId(q.afterId, q.updatedAfter, 'updatedAt', q.order),
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
          let ops: WriteOp[] = [remove(USERS, scope, user._id)];
          for (;;) {
            const { docs } = await store.list(PRESENCE, scope, { limit: PRESENCE_BATCH, sortBy: 'createdAt', equals: { userRef: user._id } });
            for (const p of docs) ops.push(remove(PRESENCE, scope, p._id));
            await store.write(ops);
            if (docs.length < PRESENCE_BATCH) return;
            ops = [];
          }
        });
        return {};
      },
    },
  ];
}
