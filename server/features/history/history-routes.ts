// One user's location history and events, newest first from an index each (ours, not Radar's API):
//
//   GET /v1/users/:id/locations?createdBefore&createdAfter&limit&order&beforeId&afterId → { locations }
//   GET /v1/users/:id/events?…the same…                                                  → { events }
//
// `:id` is the user's _id, userId or deviceId, as GET /v1/users/:id. The cursors are those of
// GET /v1/events (list-query.ts): the next page is createdBefore = the last item's createdAt.
import type { Store } from '../../../ports/store';
import { EVENTS, LOCATIONS } from '../../api/collections';
import { AFTER_ID, BEFORE_ID, CREATED_CURSORS, ORDER, checkAfterId, checkBeforeId, dateRange, limitField, ranges } from '../../api/list-query';
import { pageOfUser, type UserPage } from './user-history';
import { paramSpec, takes, type ParamValues } from '../../http/params/param-spec';
import type { Route } from '../../http/route';
import { publicLocation } from '../../../core/model/location';
import { publicEvent } from '../../../core/model/views';

const PAGE = paramSpec('query', { limit: limitField(1000, 100), ...CREATED_CURSORS, order: ORDER, beforeId: BEFORE_ID, afterId: AFTER_ID });

type Page = ParamValues<(typeof PAGE)['fields']>;

/** The query's page, its cursors checked before the user is looked up: a bad cursor is the caller's mistake whether or not the user exists. */
function userPage(q: Page): UserPage {
  return {
    limit: q.limit, order: q.order, ranges: ranges(dateRange('createdAt', q.createdBefore, q.createdAfter)),
    beforeId: checkBeforeId(q.beforeId, q.createdBefore, 'createdAt', q.order), afterId: checkAfterId(q.afterId, q.createdAfter, 'createdAt', q.order),
  };
}

export function historyRoutes(store: Store): Route[] {
  const rate = { name: 'users', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/users/:id/locations', auth: 'secret', rate,
      ...takes(PAGE, async ({ scope, params }, q) => {
        const { docs, hasMore } = await pageOfUser(store, LOCATIONS, scope, params.id, userPage(q));
        return { meta: { hasMore }, body: { locations: docs.map(publicLocation) } };
      }),
    },
    {
      method: 'GET', path: '/v1/users/:id/events', auth: 'secret', rate,
      ...takes(PAGE, async ({ scope, params }, q) => {
        const { docs, hasMore } = await pageOfUser(store, EVENTS, scope, params.id, userPage(q));
        return { meta: { hasMore }, body: { events: docs.map(publicEvent) } };
      }),
    },
  ];
}
