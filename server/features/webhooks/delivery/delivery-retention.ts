// The periodic clean-up of what delivery leaves behind: delivery-log entries past retention, shared
// payload users past theirs, dead letters past theirs, and rows of deleted webhooks.
import { remove, type Collection, type DocBase, type Store } from '../../../../ports/store';
import type { WebhookDirectory } from '../webhook-directory';
import { WEBHOOK_TOMBSTONES } from '../webhook-tombstones';
import { deleteQueuePaced } from './delivery-queue-purge';
import { DELIVERY_LOG, ENDPOINT_LEASES, SHARED_USERS } from '../webhook-docs';
import { OUTBOX } from '../../../api/collections';

const PURGE_BATCH = 1000;

export interface RetentionDeps {
  store: Store;
  directory: WebhookDirectory;
  deadRetentionMs: number;
  /** How long a deleted webhook's tombstone is kept at least (webhook-tombstones.ts). */
  tombstoneGraceMs: number;
  /** True once the gateway is stopping: a long sweep gives up between batches. */
  stopping: () => boolean;
}

export class DeliveryRetention {
  constructor(private readonly deps: RetentionDeps) {}

  /** One clean-up run; returns how many documents it removed. */
  async purge(now: Date): Promise<number> {
    const { store, deadRetentionMs, directory } = this.deps;
    let removed = 0;
    for (const collection of [DELIVERY_LOG, SHARED_USERS] as Array<Collection<DocBase>>) {
      const expired = await store.due(collection, now.toISOString(), PURGE_BATCH);
      if (expired.length > 0) {
        await store.write(expired.map(({ scope, doc }) => remove(collection, scope, doc._id)));
        removed += expired.length;
      }
    }
    const cutoff = new Date(now.getTime() - deadRetentionMs).toISOString();
    // Webhook by webhook: the outbox's one index starts with the webhook (collections.ts), and a deleted
    // webhook's dead letters went with it.
    for (const { scope, webhook } of await directory.all(now.getTime())) {
      const { docs } = await store.list(OUTBOX, scope, {
        limit: PURGE_BATCH, sortBy: 'createdAt', order: 'asc', equals: { webhookId: webhook._id, state: 'dead' }, ranges: [{ field: 'updatedAt', before: cutoff }],
      });
      if (docs.length === 0) continue;
      await store.write(docs.map((d) => (remove(OUTBOX, scope, d._id))));
      removed += docs.length;
    }
    return removed + (await this.purgeDeletedQueues(now));
  }

  /**
   * Outbox rows committed for a webhook after its delete swept its queue (webhook-tombstones.ts): every
   * tombstone's queue is swept, and the tombstone, with the lease the delete parked, goes once the grace
   * period is over and its sweep found nothing.
   */
  private async purgeDeletedQueues(now: Date): Promise<number> {
    const { store, tombstoneGraceMs, stopping } = this.deps;
    let removed = 0;
    for (const { scope, doc } of await store.due(WEBHOOK_TOMBSTONES, now.toISOString(), PURGE_BATCH)) {
      const { _id: webhookId, deletedAt } = doc;
      const deleted = await deleteQueuePaced(store, scope, webhookId, stopping);
      removed += deleted;
      if (deleted === 0 && now.getTime() - Date.parse(deletedAt) >= tombstoneGraceMs) {
        await store.write([
          remove(WEBHOOK_TOMBSTONES, scope, webhookId),
          remove(ENDPOINT_LEASES, scope, webhookId),
        ]);
      }
    }
    return removed;
  }
}
