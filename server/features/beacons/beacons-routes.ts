// Beacons: list, get, create, upsert and delete, by _id or (tag, externalId).
import { put, remove, type Scope, type Store } from '../../../ports/store';
import type { BeaconDoc } from '../../../core/model/beacon';
import { BEACONS } from '../../api/collections';
import { readString, required } from '../../http/params';
import type { RequestContext, Route } from '../../http/route';
import { newObjectId } from '../../../core/object-id';
import { publicView } from '../../../core/model/views';
import { listPage, ranges, readAfterId, readBeforeId, readDateRange, readLimit, readOrder } from '../../api/list-query';
import { findTagged, requireTagged, taggedAddress, taggedLockKey } from '../../api/tagged-lookup';
import type { BeaconDirectory } from './beacon-directory';
import { parseBeaconInput } from './beacon-input';

const KEY_TEXT = { maxLength: 256 };

function saveBeacon(scope: Scope, existing: BeaconDoc | undefined, tag: string, externalId: string, body: Record<string, unknown>, now: Date): BeaconDoc {
  const input = parseBeaconInput(body);
  const at = now.toISOString();
  return {
    _id: existing?._id ?? newObjectId(now),
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
    live: scope.live,
    tag,
    externalId,
    ...input,
  };
}

export function beaconRoutes(store: Store, directory: BeaconDirectory): Route[] {
  const rate = { name: 'beacons', perSecond: 10 };
  // PUT by tag/externalId creates or updates; PUT by _id can only update (an _id is ours to assign).
  const upsert = async (ctx: RequestContext) => {
    const at = taggedAddress(ctx.params);
    return store.withLock(taggedLockKey('beacon', ctx.scope, at), async () => {
      const existing = at.id !== undefined ? await requireTagged(store, BEACONS, ctx.scope, at, 'beacon') : await findTagged(store, BEACONS, ctx.scope, at);
      // One of the two is given: the _id found `existing`, or tag and externalId are in the path.
      const tag = at.tag ?? existing?.tag ?? '';
      const externalId = at.externalId ?? existing?.externalId ?? '';
      const doc = saveBeacon(ctx.scope, existing, tag, externalId, ctx.body, ctx.now);
      await store.write([put(BEACONS, ctx.scope, doc)]);
      directory.put(ctx.scope, doc);
      return { body: { beacon: publicView(doc) } };
    });
  };
  return [
    {
      method: 'GET', path: '/v1/beacons', auth: 'secret',
      handler: async ({ scope, query }) => {
        const limit = readLimit(query, 1000, 100);
        const equals: Record<string, string> = {};
        const tag = readString(query.tag, 'tag', KEY_TEXT);
        const externalId = readString(query.externalId, 'externalId', KEY_TEXT);
        if (tag !== undefined) equals.tag = tag;
        if (externalId !== undefined) equals.externalId = externalId;
        const { docs, hasMore } = await listPage(store, BEACONS, scope, {
          limit, sortBy: 'createdAt', order: readOrder(query), ranges: ranges(readDateRange(query, 'createdAt')),
          beforeId: readBeforeId(query, 'createdAt'), afterId: readAfterId(query, 'createdAt'), equals,
        });
        return { meta: { hasMore }, body: { beacons: docs.map(publicView) } };
      },
    },
    {
      method: 'POST', path: '/v1/beacons', auth: 'secret',
      handler: async (ctx) => {
        const tag = required(readString(ctx.body.tag, 'tag', KEY_TEXT), 'tag');
        const externalId = required(readString(ctx.body.externalId, 'externalId', KEY_TEXT), 'externalId');
        return store.withLock(taggedLockKey('beacon', ctx.scope, { tag, externalId }), async () => {
          const existing = await store.findOne(BEACONS, ctx.scope, { tag, externalId });
          const doc = saveBeacon(ctx.scope, existing, tag, externalId, ctx.body, ctx.now);
          await store.write([put(BEACONS, ctx.scope, doc)]);
          directory.put(ctx.scope, doc);
          return { body: { beacon: publicView(doc) } };
        });
      },
    },
    { method: 'PUT', path: '/v1/beacons/:tag/:externalId', auth: 'secret', handler: upsert },
    { method: 'PUT', path: '/v1/beacons/:id', auth: 'secret', handler: upsert },
    ...(['/v1/beacons/:id', '/v1/beacons/:tag/:externalId'] as const).flatMap((path): Route[] => [
      {
        method: 'GET', path, auth: 'secret', rate,
        handler: async (ctx) => ({ body: { beacon: publicView(await requireTagged(store, BEACONS, ctx.scope, taggedAddress(ctx.params), 'beacon')) } }),
      },
      {
        method: 'DELETE', path, auth: 'secret', rate,
        handler: async (ctx) => {
          const doc = await requireTagged(store, BEACONS, ctx.scope, taggedAddress(ctx.params), 'beacon');
          await store.write([remove(BEACONS, ctx.scope, doc._id)]);
          directory.deleted(ctx.scope, doc._id);
          return {};
        },
      },
    ]),
  ];
}
