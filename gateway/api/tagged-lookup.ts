// Geofences and beacons are addressed by `_id` or by the pair (tag, externalId).
import type { Doc, Scope, Store } from '../../adapters/store/port';
import { NotFound } from '../http/errors';

export interface TaggedAddress {
  id?: string;
  tag?: string;
  externalId?: string;
}

export async function findTagged(store: Store, collection: string, scope: Scope, at: TaggedAddress): Promise<Doc | undefined> {
  if (at.id !== undefined) return store.get(collection, scope, at.id);
  if (at.tag !== undefined && at.externalId !== undefined) return store.findOne(collection, scope, { tag: at.tag, externalId: at.externalId });
  return undefined;
}

export async function requireTagged(store: Store, collection: string, scope: Scope, at: TaggedAddress, noun: string): Promise<Doc> {
  const doc = await findTagged(store, collection, scope, at);
  if (!doc) {
    const what = at.id !== undefined ? `_id "${at.id}"` : `tag "${at.tag}" and externalId "${at.externalId}"`;
    throw new NotFound(`No ${noun} with ${what}`, at.id !== undefined ? 'id' : 'externalId');
  }
  return doc;
}
