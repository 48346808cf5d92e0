// One user's rows of a collection read by user (their location history, their events): the user found by
// `_id`, `userId` or `deviceId` as GET /v1/users/:id finds them, then a page newest first from the
// collection's (userRef, createdAt) index.
import type { Collection, DocBase, Scope, Store } from '../../../ports/store';
import { listPage, type PageQuery } from '../../api/list-query';
import { findUser } from '../../api/user-lookup';
import { NotFound } from '../../http/errors';

/** A page of the list, without the sort and the user, which are this module's. */
export type UserPage = Omit<PageQuery, 'sortBy' | 'equals'>;

export async function pageOfUser<T extends DocBase>(store: Store, collection: Collection<T>, scope: Scope, id: string, page: UserPage): Promise<{ docs: T[]; hasMore: boolean }> {
  const user = await findUser(store, scope, id);
  if (!user) throw new NotFound(`No user with _id, userId or deviceId "${id}"`, 'id');
  return listPage(store, collection, scope, { ...page, sortBy: 'createdAt', equals: { userRef: user._id } });
}
