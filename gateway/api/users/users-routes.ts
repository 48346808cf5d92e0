// GET /v1/users, GET /v1/users/:id, DELETE /v1/users/:id.
import type { Store } from '../../../adapters/store/port';
import { NotFound } from '../../http/errors';
import type { Route } from '../../http/route';
import { publicView } from '../collections';
import { ranges, readDateRange, readLimit } from '../list-query';
import { findUser } from './user-lookup';

export function userRoutes(store: Store): Route[] {
  const rate = { name: 'users', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/users', auth: 'secret',
      handler: async ({ scope, query }) => {
        const limit = readLimit(query, 1000, 100);
        const { docs, hasMore } = await store.list('users', scope, { limit, sortBy: 'updatedAt', ranges: ranges(readDateRange(query, 'updatedAt')) });
        return { meta: { hasMore }, body: { users: docs.map(publicView) } };
      },
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
        const user = await findUser(store, scope, params.id);
        if (!user) throw new NotFound(`No user with _id, userId or deviceId "${params.id}"`, 'id');
        await store.write([{ op: 'delete', collection: 'users', scope, id: user._id }]);
        return {};
      },
    },
  ];
}
