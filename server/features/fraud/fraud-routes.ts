// The operator's per-user fraud decisions (Waymark's own endpoints; Radar sets these in its
// dashboard): `bypassed` exempts a user from the checks (its updates always pass), `blocked` holds back
// every update of the user. They take effect from the user's next update.
//
//   GET /v1/users/:id/fraud               → { fraudOverride: { bypassed, blocked } }
//   PUT /v1/users/:id/fraud {bypassed?, blocked?} → the same, after the change
import { put, type Store } from '../../../ports/store';
import type { FraudOverride, UserDoc } from '../../../core/model/user';
import { USERS } from '../../api/collections';
import { NotFound } from '../../http/errors';
import { readBoolean } from '../../http/params';
import type { Route } from '../../http/route';
import { userLockKey } from '../../track-step';
import { findUser } from '../../api/user-lookup';

function overrideOf(user: UserDoc): Required<FraudOverride> {
  const o = user._fraudOverride ?? {};
  return { bypassed: o.bypassed === true, blocked: o.blocked === true };
}

export function fraudRoutes(store: Store): Route[] {
  const rate = { name: 'users', perSecond: 10 };
  const notFound = (id: string) => new NotFound(`No user with _id, userId or deviceId "${id}"`, 'id');
  return [
    {
      method: 'GET', path: '/v1/users/:id/fraud', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        const user = await findUser(store, scope, params.id);
        if (!user) throw notFound(params.id);
        return { body: { fraudOverride: overrideOf(user) } };
      },
    },
    {
      method: 'PUT', path: '/v1/users/:id/fraud', auth: 'secret', rate,
      handler: async ({ scope, params, body, now }) => {
        const bypassed = readBoolean(body.bypassed, 'bypassed');
        const blocked = readBoolean(body.blocked, 'blocked');
        const found = await findUser(store, scope, params.id);
        if (!found) throw notFound(params.id);
        // Under the user's track lock: an update in flight would otherwise write back the old value.
        return store.withLock(userLockKey(scope, found.userId, found.deviceId), async () => {
          const user = await store.get(USERS, scope, found._id);
          if (!user) throw notFound(params.id);
          const next = overrideOf(user);
          if (bypassed !== undefined) next.bypassed = bypassed;
          if (blocked !== undefined) next.blocked = blocked;
          await store.write([put(USERS, scope, { ...user, _fraudOverride: next, updatedAt: user.updatedAt })]);
          return { body: { fraudOverride: next } };
        });
      },
    },
  ];
}
