// Geofences and beacons are addressed by `_id` or by the pair (tag, externalId).
import type { Collection, DocBase, Scope, Store } from '../../ports/store';
import { NotFound } from '../http/errors';

export interface TaggedAddress {
  id?: string;
  tag?: string;
  externalId?: string;
}

/** The address in a route's path: `:id`, or `:tag/:externalId`. */
export function taggedAddress(params: Record<string, string>): TaggedAddress {
  const { id, tag, externalId } = params;
  return id !== undefined ? { id } : { tag, externalId };
}

/**
 * Create and upsert read, then write: two at once for the same new (tag, externalId) would each find
 * nothing and make twins. Callers serialise them per address with a Store lock on this key (in every
 * gateway process sharing the Store).
 */
export function taggedLockKey(kind: string, scope: Scope, at: TaggedAddress): string {
  return JSON.stringify([kind, scope.projectId, scope.live, at.id ?? null, at.tag ?? null, at.externalId ?? null]);
}

export async function findTagged<T extends DocBase>(store: Store, collection: Collection<T>, scope: Scope, at: TaggedAddress): Promise<T | undefined> {
  if (at.id !== undefined) return store.get(collection, scope, at.id);
  if (at.tag !== undefined && at.externalId !== undefined) return store.findOne(collection, scope, { tag: at.tag, externalId: at.externalId });
  return undefined;
}

export async function requireTagged<T extends DocBase>(store: Store, collection: Collection<T>, scope: Scope, at: TaggedAddress, noun: string): Promise<T> {
  const doc = await findTagged(store, collection, scope, at);
  if (!doc) {
    const what = at.id !== undefined ? `_id "${at.id}"` : `tag "${at.tag}" and externalId "${at.externalId}"`;
    throw new NotFound(`No ${noun} with ${what}`, at.id !== undefined ? 'id' : 'externalId');
  }
  return doc;
}
