// Geofences: list, get, create, upsert, delete (by _id or tag/externalId), the users inside one, and
// search by distance.
import type { Store } from '../../../ports/store';
import { BadRequest, NotFound } from '../../http/errors';
import { readString, required } from '../../http/params';
import { bracketFilters, flag, latLng, list, number, paramSpec, takes, text } from '../../http/params/param-spec';
import type { Reply, RequestContext, Route } from '../../http/route';
import { publicGeofence, publicView } from '../../../core/model/views';
import { GEOFENCES, PRESENCE, USERS } from '../../api/collections';
import { AFTER_ID, BEFORE_ID, CREATED_CURSORS, ORDER, UPDATED_CURSORS, checkAfterId, checkBeforeId, dateRange, limitField, listPage, ranges } from '../../api/list-query';
import { findTagged, requireTagged, taggedAddress, taggedLockKey } from '../../api/tagged-lookup';
import { parseGeofenceInput } from '../../../core/input/geofence-input';
import type { GeofenceService } from './geofence-service';

const KEY_TEXT = { maxLength: 256 };

const LIST = paramSpec('query', {
  limit: limitField(1000, 100),
  tag: text(KEY_TEXT),
  externalId: text(KEY_TEXT),
  ...CREATED_CURSORS,
  ...UPDATED_CURSORS,
  order: ORDER,
  beforeId: BEFORE_ID,
  afterId: AFTER_ID,
  metadata: bracketFilters(),
});


const SEARCH = paramSpec('query', {
  near: latLng().required(),
  limit: limitField(1000, 100).describe('above 100 needs includeGeometry=false'),
  includeGeometry: flag().default(true),
  radius: number({ greaterThan: 0, max: 100_000_000 }).describe('metres; absent: any distance'),
  tags: list(),
  metadata: bracketFilters(),
});

const USERS_INSIDE = paramSpec('query', { limit: limitField(1000, 100) });

/** The users inside a geofence now, from its presence rows. */
async function usersIn(store: Store, geofenceId: string, ctx: RequestContext): Promise<Reply> {
  const { limit } = USERS_INSIDE.readFrom(ctx);
  const { docs, hasMore } = await store.list(PRESENCE, ctx.scope, { limit, sortBy: 'createdAt', equals: { geofenceId } });
  const users = await Promise.all(docs.map((p) => store.get(USERS, ctx.scope, p.userRef)));
  return { meta: { hasMore }, body: { users: users.filter((u) => u !== undefined).map((u) => publicView(u)) } };
}

export function geofenceRoutes(store: Store, geofences: GeofenceService): Route[] {
  const rate = { name: 'geofences', perSecond: 10 };

  // PUT by tag/externalId creates or updates; PUT by _id only updates (the _id is ours to assign).
  const upsert = async (ctx: RequestContext) => {
    const at = taggedAddress(ctx.params);
    const input = parseGeofenceInput(await geofences.prepareBody(ctx.body), geofences.inputOptions('api'));
    return store.withLock(taggedLockKey('geofence', ctx.scope, at), async () => {
      const existing = at.id !== undefined
        ? await requireTagged(store, GEOFENCES, ctx.scope, at, 'geofence')
        : await findTagged(store, GEOFENCES, ctx.scope, at);
      const tag = at.tag ?? existing?.tag ?? '';
      const externalId = at.externalId ?? existing?.externalId ?? '';
      const g = geofences.build(ctx.scope, input, tag, externalId, existing, ctx.now);
      await geofences.save(ctx.scope, [g]);
      return { body: { geofence: publicGeofence(g) } };
    });
  };

  return [
    {
      method: 'GET', path: '/v1/geofences', auth: 'secret',
      ...takes(LIST, async ({ scope }, q) => {
        const equals: Record<string, string> = {};
        if (q.tag !== undefined) equals.tag = q.tag;
        if (q.externalId !== undefined) equals.externalId = q.externalId;
        const { docs, hasMore } = await listPage(store, GEOFENCES, scope, {
          limit: q.limit,
          sortBy: 'updatedAt',
          order: q.order,
          ranges: ranges(dateRange('createdAt', q.createdBefore, q.createdAfter), dateRange('updatedAt', q.updatedBefore, q.updatedAfter)),
          beforeId: checkBeforeId(q.beforeId, q.updatedBefore, 'updatedAt', q.order),
          afterId: checkAfterId(q.afterId, q.updatedAfter, 'updatedAt', q.order),
          equals,
          metadata: q.metadata,
        });
        return { meta: { hasMore }, body: { geofences: docs.map(publicGeofence) } };
      }),
    },
    {
      method: 'POST', path: '/v1/geofences', auth: 'secret',
      handler: async (ctx) => {
        const tag = required(readString(ctx.body.tag, 'tag', KEY_TEXT), 'tag');
        const externalId = required(readString(ctx.body.externalId, 'externalId', KEY_TEXT), 'externalId');
        const input = parseGeofenceInput(await geofences.prepareBody(ctx.body), geofences.inputOptions('api'));
        return store.withLock(taggedLockKey('geofence', ctx.scope, { tag, externalId }), async () => {
          const existing = await geofences.findByKey(ctx.scope, tag, externalId);
          const g = geofences.build(ctx.scope, input, tag, externalId, existing, ctx.now);
          await geofences.save(ctx.scope, [g]);
          return { body: { geofence: publicGeofence(g) } };
        });
      },
    },
    {
      // Ours: the geofence a body would make, computed as a save computes it (an isochrone's area from
      // the road network, an address placed) and not saved: the dashboard shows an isochrone's new area
      // while its time or mode is being changed.
      method: 'POST', path: '/v1/geofences/preview', auth: 'secret', rate,
      handler: async (ctx) => {
        const tag = readString(ctx.body.tag, 'tag', KEY_TEXT) ?? '';
        const externalId = readString(ctx.body.externalId, 'externalId', KEY_TEXT) ?? '';
        const input = parseGeofenceInput(await geofences.prepareBody(ctx.body), geofences.inputOptions('api'));
        return { body: { geofence: publicGeofence(geofences.build(ctx.scope, input, tag, externalId, undefined, ctx.now)) } };
      },
    },
    { method: 'PUT', path: '/v1/geofences/:tag/:externalId', auth: 'secret', handler: upsert },
    { method: 'PUT', path: '/v1/geofences/:id', auth: 'secret', handler: upsert },
    {
      // radar-python asks /v1/geofences/{_id}/users; the same path also reads as the geofence with tag
      // {_id} and externalId "users", which this route still answers when no geofence has that _id.
      method: 'GET', path: '/v1/geofences/:id/users', auth: 'secret', rate, input: USERS_INSIDE,
      handler: async (ctx) => {
        const byId = await store.get(GEOFENCES, ctx.scope, ctx.params.id);
        if (byId) return usersIn(store, byId._id, ctx);
        const tagged = await findTagged(store, GEOFENCES, ctx.scope, { tag: ctx.params.id, externalId: 'users' });
        if (tagged) return { body: { geofence: publicGeofence(tagged) } };
        throw new NotFound(`No geofence with _id "${ctx.params.id}"`, 'id');
      },
    },
    ...(['/v1/geofences/:id', '/v1/geofences/:tag/:externalId'] as const).flatMap((path): Route[] => [
      {
        method: 'GET', path, auth: 'secret', rate,
        handler: async (ctx) => ({ body: { geofence: publicGeofence(await requireTagged(store, GEOFENCES, ctx.scope, taggedAddress(ctx.params), 'geofence')) } }),
      },
      {
        method: 'DELETE', path, auth: 'secret', rate,
        handler: async (ctx) => {
          const doc = await requireTagged(store, GEOFENCES, ctx.scope, taggedAddress(ctx.params), 'geofence');
          await geofences.remove(ctx.scope, [doc._id]);
          return {};
        },
      },
    ]),
    {
      method: 'GET', path: '/v1/geofences/:tag/:externalId/users', auth: 'secret', rate,
      input: USERS_INSIDE,
      handler: async (ctx) => usersIn(store, (await requireTagged(store, GEOFENCES, ctx.scope, taggedAddress(ctx.params), 'geofence'))._id, ctx),
    },
    {
      method: 'GET', path: '/v1/search/geofences', auth: 'publishable', rate: { name: 'search-geofences', perSecond: 100 },
      ...takes(SEARCH, async ({ scope }, { near, limit, includeGeometry, radius: radiusM, tags, metadata }) => {
        if (limit > 100 && includeGeometry) {
          throw new BadRequest('limit', 'limit above 100 needs includeGeometry=false');
        }
        const index = await geofences.index(scope);
        const found = index.nearest(near, {
          radiusM,
          limit,
          filter: (g) => (!tags || tags.includes(g.tag)) && (!metadata || Object.entries(metadata).every(([k, v]) => g.metadata?.[k] === v)),
        });
        const out = found.map(({ geofence }) => {
          const view = publicGeofence(geofence);
          if (!includeGeometry) delete view.geometry;
          return view;
        });
        return { body: { geofences: out } };
      }),
    },
  ];
}
