// A user is addressed by `_id`, `userId` or `deviceId`, tried in that order.
import type { Scope, Store } from '../../ports/store';
import type { UserDoc } from '../../core/model/user';
import { USERS } from './collections';
import { isObjectId } from '../../core/object-id';

export async function findUser(store: Store, scope: Scope, id: string): Promise<UserDoc | undefined> {
  if (isObjectId(id)) {
    const byId = await store.get(USERS, scope, id);
    if (byId) return byId;
  }
  return (await store.findOne(USERS, scope, { userId: id })) ?? (await store.findOne(USERS, scope, { deviceId: id }));
}
