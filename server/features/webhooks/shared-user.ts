// Rows that point at a shared user, as earlier versions wrote them.
//
// A write whose rows carried one user stored that user once, in an `outbox_users` document, and the
// rows pointed at it (`sharedUser`) with the payload's `user` left null. New writes make one bundle
// per webhook instead (outbox-bundle.ts), which keeps its user itself; rows already queued this way are
// still sent as they were. A shared document was kept for the retry policy's maximum age plus a day;
// a row of a webhook paused for longer finds it gone and is sent with the user as stored now (as a
// redelivery is). A row that becomes a dead letter gets its user back inline.
import type { Scope, Store } from '../../../ports/store';
import { scopeKey } from '../../../adapters/store/scope-key';
import { payloadOf, payloadText, SHARED_USERS, type OutboxRow } from './webhook-docs';
import { USERS } from '../../api/collections';
import { withUser } from './outbox-bundle';
import { publicView } from '../../../core/model/views';
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';

export { SHARED_USERS };

/** The `_id` of the user an outbox row's events belong to, from its first event. */
function userIdOf(row: OutboxRow): string | undefined {
  const p = payloadOf(row);
  const first = 'event' in p ? p.event : p.events[0];
  const id = (first?.user as { _id?: unknown } | undefined)?._id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Shared users recently read, as JSON: the rows of one update are sent one after the other, and to each
 * of its webhooks at about the same time (one user ~3 KB: ~3 MB at most).
 */
const CACHED = 1024;

/**
 * Builds request bodies of outbox rows for the delivery worker, reading each shared user once for the
 * rows that follow it.
 */
export class PayloadBodies {
  private readonly users = new LeastRecentlyUsed<string, string>(CACHED);

  constructor(private readonly store: Store) {}

  /** The request body of a row: byte for byte `JSON.stringify` of its payload with the user in place. */
  async body(scope: Scope, row: OutboxRow): Promise<string> {
    if (row.sharedUser === undefined) return payloadText(row);
    const user = await this.userJson(scope, row);
    const text = row.payloadJson;
    if (text === undefined) {
      // A row written before payloadJson (a store may have reordered its keys: JSONB does).
      const p = row.payload!;
      return 'event' in p ? `{"event":${JSON.stringify(p.event)},"user":${user}}` : `{"events":${JSON.stringify(p.events)},"user":${user}}`;
    }
    return withUser(text, user, row._id);
  }

  /** The row with its user inline again (a dead letter keeps no reference). */
  async inline(scope: Scope, row: OutboxRow): Promise<OutboxRow> {
    if (row.sharedUser === undefined) return row;
    const { sharedUser: _shared, payload: _payload, ...rest } = row;
    return { ...rest, payloadJson: await this.body(scope, row) };
  }

  private async userJson(scope: Scope, row: OutboxRow): Promise<string> {
    const id = row.sharedUser!;
    const key = scopeKey(scope, id);
    let json = this.users.get(key);
    if (json === undefined) {
      const shared = await this.store.get(SHARED_USERS, scope, id);
      json = shared?.userJson ?? JSON.stringify(shared ? shared.user : await this.storedUser(scope, row));
      this.users.set(key, json);
    }
    return json;
  }

  /** The fallback for a shared user gone with its time: the user as stored now, or null when deleted. */
  private async storedUser(scope: Scope, row: OutboxRow): Promise<object | null> {
    const id = userIdOf(row);
    const stored = id === undefined ? undefined : await this.store.get(USERS, scope, id);
    return stored ? publicView(stored) : null;
  }
}
