// Where events written outside the track step (trip changes and expiry, conversions) go to be
// delivered: the writer adds the rows this port returns to the same Store.write as the events, so an
// event is delivered exactly when it is stored. The webhooks feature provides it; without it, no rows.
import type { EventDoc } from '../core/model/event';
import type { Scope, WriteOp } from './store';

export interface EventOutbox {
  /**
   * Rows for `events` (stored event documents of one user, in order). `user` is the user as the payload
   * should show it (internal `_` fields are dropped), or null when the events have none.
   */
  opsFor(scope: Scope, events: readonly EventDoc[], user: object | null, at?: Date): Promise<WriteOp[]>;
}
