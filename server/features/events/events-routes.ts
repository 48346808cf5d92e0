// Stored events: list, get, delete (secret), and POST /v1/events to record a conversion (publishable).
import type { EventOutbox } from '../../../ports/event-outbox';
import type { Store } from '../../../ports/store';
import { NotFound } from '../../http/errors';
import { readDatetime, readList, readMetadata, readNumber, readString, required } from '../../http/params';
import type { Route } from '../../http/route';
import { newObjectId } from '../../../core/object-id';
import { publicView } from '../../../core/model/views';
import { list, paramSpec, takes } from '../../http/params/param-spec';
import { AFTER_ID, BEFORE_ID, CREATED_CURSORS, ORDER, checkAfterId, checkBeforeId, dateRange, limitField, listPage, ranges } from '../../api/list-query';
import { findUser } from '../../api/user-lookup';
import { eventUser, publicEvent } from '../../../core/model/views';
import type { EventDoc } from '../../../core/model/event';
import { MAX_USER_ID_LENGTH } from '../../../core/model/user';
import { put, remove } from '../../../ports/store';
import { EVENTS } from '../../api/collections';

const NAME = { maxLength: 128, pattern: /^[A-Za-z0-9_]+$/, patternMessage: 'name must contain only letters, digits and underscores' };

const LIST = paramSpec('query', {
  limit: limitField(1000, 100),
  type: list().describe('event types to list (also accepted as types)'),
  types: list(),
  ...CREATED_CURSORS,
  order: ORDER,
  beforeId: BEFORE_ID,
  afterId: AFTER_ID,
});

export function eventRoutes(context: { store: Store; outbox: EventOutbox }): Route[] {
  const { store } = context;
  const rate = { name: 'events', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/events', auth: 'secret',
      ...takes(LIST, async ({ scope }, q) => {
        const types = q.type ?? q.types;
        const { docs, hasMore } = await listPage(store, EVENTS, scope, {
          limit: q.limit, sortBy: 'createdAt', order: q.order, ranges: ranges(dateRange('createdAt', q.createdBefore, q.createdAfter)),
          beforeId: checkBeforeId(q.beforeId, q.createdBefore, 'createdAt', q.order), afterId: checkAfterId(q.afterId, q.createdAfter, 'createdAt', q.order), equals: types ? { type: types } : undefined,
        });
        return { meta: { hasMore }, body: { events: docs.map(publicEvent) } };
      }),
    },
    {
      method: 'GET', path: '/v1/events/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        const e = await store.get(EVENTS, scope, params.id);
        if (!e) throw new NotFound(`No event with _id "${params.id}"`, 'id');
        return { body: { event: publicEvent(e) } };
      },
    },
    {
      method: 'DELETE', path: '/v1/events/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        const e = await store.get(EVENTS, scope, params.id);
        if (!e) throw new NotFound(`No event with _id "${params.id}"`, 'id');
        await store.write([remove(EVENTS, scope, e._id)]);
        return {};
      },
    },
    {
      // Conversions. The JS SDK sends `name`, the mobile SDKs `type`; both mean the conversion's name.
      method: 'POST', path: '/v1/events', auth: 'publishable', rate: { name: 'conversions', perSecond: 10 },
      handler: async ({ scope, body, now }) => {
        const nameParam = body.name !== undefined && body.name !== null ? 'name' : 'type';
        const name = required(readString(body[nameParam], nameParam, NAME), 'name');
        const metadata = readMetadata(body.metadata, 'metadata', 32);
        const revenue = readNumber(body.revenue, 'revenue') ?? (typeof metadata?.revenue === 'number' ? metadata.revenue : undefined);
        const duration = readNumber(body.duration, 'duration', { min: 0 });
        // The limit of track: a conversion names the user track created.
        const userId = readString(body.userId, 'userId', { maxLength: MAX_USER_ID_LENGTH });
        const deviceId = readString(body.deviceId, 'deviceId', { maxLength: MAX_USER_ID_LENGTH });
        const installId = readString(body.installId, 'installId');
        const createdAt = readDatetime(body.createdAt, 'createdAt') ?? now;
        const user = (userId !== undefined ? await findUser(store, scope, userId) : undefined)
          ?? (deviceId !== undefined ? await findUser(store, scope, deviceId) : undefined);
        const nowIso = now.toISOString();
        const event: EventDoc = {
          _id: newObjectId(now),
          type: name,
          conversion: true,
          createdAt: createdAt.toISOString(),
          actualCreatedAt: nowIso,
          updatedAt: nowIso,
          live: scope.live,
        };
        if (user) {
          event.user = eventUser(user);
          event.userRef = user._id;
          if (user.location) event.location = user.location;
        } else {
          event.user = publicView({ userId, deviceId, installId });
        }
        if (metadata !== undefined) event.metadata = metadata;
        if (revenue !== undefined) event.revenue = revenue;
        if (duration !== undefined) event.duration = duration;
        if (installId !== undefined) event.installId = installId;
        // Conversions reach webhooks like track's events: outbox rows in the same write.
        const outbox = await context.outbox.opsFor(scope, [event], user ? publicView(user) : null, now);
        await store.write([put(EVENTS, scope, event), ...outbox]);
        return { body: { event: publicEvent(event) } };
      },
    },
  ];
}
