// Removes a shared user (outbox-bundle.ts ShareUser: one track update's user, stored once for its rows
// to several webhooks) as soon as no row points at it any more, rather than after the retry policy's
// maximum age and a day: at 600 updates/s that would keep ~150 GB of users.
//
// A document written at T for webhooks S is read only by pending rows of S created at T: rows are
// written in the document's own transaction, and a row that becomes a dead letter takes its user inline
// (delivery-outcomes.ts), so no other row ever points at it. Each webhook's queue is in createdAt order
// (the outbox's sorted index), so once every webhook of S has its oldest pending row created after T,
// or none at all, none of S has a row of that write left, and none can come back: the document goes.
// The heads are read after the page of documents, so every row written with a document of the page is
// visible to them; a head as old as T keeps the document (rows of another write in the same millisecond
// are possible), and outcomes still buffered in memory leave their rows pending in the Store, which
// keeps it too.
//
// Documents are read oldest first, a page at a time from where the last run stopped: documents a failing
// webhook keeps (its queue up to its cap) are read again only once the run has gone past the newer
// ones, so they do not hold back the removal of the documents behind them.
import { remove, type Scope, type Store } from '../../../../ports/store';
import { scopeKey } from '../../../../adapters/store/scope-key';
import type { WebhookDirectory } from '../webhook-directory';
import { SHARED_USERS, type SharedUserDoc } from '../webhook-docs';
import { OUTBOX } from '../../../api/collections';

/** How often a delivering node runs the sweep (ms): at 600 updates/s about 3.6 MB of users between runs. */
export const SHARED_USER_SWEEP_MS = 2000;
const PAGE = 500;
/** Pages one run reads at most per environment. */
const PAGES_PER_RUN = 4;

export class SharedUserSweep {
  /** Per environment, the last document a run read (the next run goes on after it). */
  private readonly cursors = new Map<string, string>();

  constructor(private readonly store: Store, private readonly directory: WebhookDirectory) {}

  /** One run over every environment with webhooks; returns how many documents it removed. */
  async run(now: Date): Promise<number> {
    const scopes = new Map<string, Scope>();
    for (const { scope } of await this.directory.all(now.getTime())) scopes.set(scopeKey(scope, ''), scope);
    let removed = 0;
    for (const [key, scope] of scopes) {
      for (let page = 0; page < PAGES_PER_RUN; page++) {
        const after = this.cursors.get(key);
        const { docs, hasMore } = await this.store.list(SHARED_USERS, scope, {
          sortBy: 'createdAt', order: 'asc', limit: PAGE, ranges: after === undefined ? undefined : [{ field: 'createdAt', after }],
        });
        removed += await this.removeUnread(scope, docs);
        // At the end: the next run starts again from the oldest (documents kept back are looked at again).
        if (!hasMore || docs.length === 0) {
          this.cursors.delete(key);
          break;
        }
        this.cursors.set(key, docs[docs.length - 1].createdAt);
      }
    }
    return removed;
  }

  /** Removes the page's documents no pending row can read any more. */
  private async removeUnread(scope: Scope, docs: SharedUserDoc[]): Promise<number> {
    // Each webhook's oldest pending row, read once per page, after the page (see the top of this file).
    const heads = new Map<string, Promise<number>>();
    const headOf = (webhookId: string): Promise<number> => {
      let head = heads.get(webhookId);
      if (head === undefined) {
        head = this.store
          .list(OUTBOX, scope, { equals: { webhookId, state: 'pending' }, sortBy: 'createdAt', order: 'asc', limit: 1 })
          .then(({ docs: rows }) => (rows.length === 0 ? Infinity : Date.parse(rows[0].createdAt)));
        heads.set(webhookId, head);
      }
      return head;
    };
    const gone: string[] = [];
    for (const doc of docs) {
      // Written by earlier versions, for one webhook's rows: kept until expiresAt (delivery-retention.ts).
      if (doc.webhookIds === undefined) continue;
      const at = Date.parse(doc.createdAt);
      let read = false;
      for (const webhookId of doc.webhookIds) {
        if ((await headOf(webhookId)) <= at) {
          read = true;
          break;
        }
      }
      if (!read) gone.push(doc._id);
    }
    if (gone.length > 0) await this.store.write(gone.map((id) => remove(SHARED_USERS, scope, id)));
    return gone.length;
  }
}
