// A user is addressed by `_id`, `userId` or `deviceId`, tried in that order.
import type { Doc, Scope, Store } from '../../../ports/store';
import { isObjectId } from '../../../core/object-id';

export async function findUser(store: Store, scope: Scope, id: string): Promise<Doc | undefined> {
  if (isObjectId(id)) {
    const byId = await store.get('users', scope, id);
    if (byId) return byId;
  }
  return (await store.findOne('users', scope, { userId: id })) ?? (await store.findOne('users', scope, { deviceId: id }));
}
