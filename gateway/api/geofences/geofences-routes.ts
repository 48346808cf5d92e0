// Geofences: list, get, create, upsert, delete (by _id or tag/externalId), the users inside one, and
// search by distance.
import type { Store } from '../../../adapters/store/port';
import { BadRequest, NotFound } from '../../http/errors';
import { readBoolean, readBracketFilters, readLatLng, readList, readNumber, readString, required } from '../../http/params';
import type { Reply, RequestContext, Route } from '../../http/route';
import type { Geofence } from '../../engine/types';
import { publicView } from '../collections';
import { listPage, ranges, readBeforeId, readDateRange, readLimit } from '../list-query';
import { findTagged, requireTagged, taggedAddress, taggedLockKey } from '../tagged-lookup';
import { parseGeofenceInput } from './geofence-input';
import { publicGeofence, type GeofenceService } from './geofence-service';

const KEY_TEXT = { maxLength: 256 };

/** The users inside a geofence now, from its presence rows. */
async function usersIn(store: Store, geofenceId: string, ctx: RequestContext): Promise<Reply> {
  const limit = readLimit(ctx.query, 1000, 100);
  const { docs, hasMore } = await store.list('presence', ctx.scope, { limit, sortBy: 'createdAt', equals: { geofenceId } });
  const users = await Promise.all(docs.map((p) => store.get('users', ctx.scope, String(p.userRef))));
  return { meta: { hasMore }, body: { users: users.filter((u) => u !== undefined).map((u) => publicView(u)) } };
}

export function geofenceRoutes(store: Store, geofences: GeofenceService): Route[] {
  const rate = { name: 'geofences', perSecond: 10 };

  // PUT by tag/externalId creates or updates; PUT by _id only updates (the _id is ours to assign).
  const upsert = async (ctx: RequestContext) => {
    const at = taggedAddress(ctx.params);
    const input = parseGeofenceInput(await geofences.prepareBody(ctx.body), geofences.inputOptions('api'));
    return store.withLock(taggedLockKey('geofence', ctx.scope, at), async () => {
      const existing = (at.id !== undefined
        ? await requireTagged(store, 'geofences', ctx.scope, at, 'geofence')
        : await findTagged(store, 'geofences', ctx.scope, at)) as unknown as Geofence | undefined;
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
      handler: async ({ scope, query }) => {
        const limit = readLimit(query, 1000, 100);
        const equals: Record<string, string> = {};
        const tag = readString(query.tag, 'tag', KEY_TEXT);
        const externalId = readString(query.externalId, 'externalId', KEY_TEXT);
        if (tag !== undefined) equals.tag = tag;
        if (externalId !== undefined) equals.externalId = externalId;
        const { docs, hasMore } = await listPage(store, 'geofences', scope, {
          limit,
          sortBy: 'updatedAt',
          ranges: ranges(readDateRange(query, 'createdAt'), readDateRange(query, 'updatedAt')),
          beforeId: readBeforeId(query, 'updatedAt'),
          equals,
          metadata: readBracketFilters(query, 'metadata'),
        });
        return { meta: { hasMore }, body: { geofences: docs.map(publicGeofence) } };
      },
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
    { method: 'PUT', path: '/v1/geofences/:tag/:externalId', auth: 'secret', handler: upsert },
    { method: 'PUT', path: '/v1/geofences/:id', auth: 'secret', handler: upsert },
    {
      // radar-python asks /v1/geofences/{_id}/users; the same path also reads as the geofence with tag
      // {_id} and externalId "users", which this route still answers when no geofence has that _id.
      method: 'GET', path: '/v1/geofences/:id/users', auth: 'secret', rate,
      handler: async (ctx) => {
        const byId = await store.get('geofences', ctx.scope, ctx.params.id);
        if (byId) return usersIn(store, byId._id, ctx);
        const tagged = await findTagged(store, 'geofences', ctx.scope, { tag: ctx.params.id, externalId: 'users' });
        if (tagged) return { body: { geofence: publicGeofence(tagged) } };
        throw new NotFound(`No geofence with _id "${ctx.params.id}"`, 'id');
      },
    },
    ...(['/v1/geofences/:id', '/v1/geofences/:tag/:externalId'] as const).flatMap((path): Route[] => [
      {
        method: 'GET', path, auth: 'secret', rate,
        handler: async (ctx) => ({ body: { geofence: publicGeofence(await requireTagged(store, 'geofences', ctx.scope, taggedAddress(ctx.params), 'geofence')) } }),
      },
      {
        method: 'DELETE', path, auth: 'secret', rate,
        handler: async (ctx) => {
          const doc = await requireTagged(store, 'geofences', ctx.scope, taggedAddress(ctx.params), 'geofence');
          await geofences.remove(ctx.scope, [doc._id]);
          return {};
        },
      },
    ]),
    {
      method: 'GET', path: '/v1/geofences/:tag/:externalId/users', auth: 'secret', rate,
      handler: async (ctx) => usersIn(store, (await requireTagged(store, 'geofences', ctx.scope, taggedAddress(ctx.params), 'geofence'))._id, ctx),
    },
    {
      method: 'GET', path: '/v1/search/geofences', auth: 'publishable', rate: { name: 'search-geofences', perSecond: 100 },
      handler: async ({ scope, query }) => {
        const near = required(readLatLng(query.near, 'near'), 'near');
        const limit = readLimit(query, 1000, 100);
        const includeGeometry = readBoolean(query.includeGeometry, 'includeGeometry') ?? true;
        if (limit > 100 && includeGeometry) {
          throw new BadRequest('limit', 'limit above 100 needs includeGeometry=false');
        }
        const radiusM = readNumber(query.radius, 'radius', { greaterThan: 0, max: 100_000_000 });
        const tags = readList(query.tags, 'tags');
        const metadata = readBracketFilters(query, 'metadata');
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
      },
    },
  ];
}
