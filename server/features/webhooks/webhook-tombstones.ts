// What a deleted webhook leaves behind: a tombstone, written in the same Store write that deletes the
// webhook, and the sweep that deletes a webhook's outbox rows.
//
// Why a tombstone: a track update that read its environment's webhooks before a delete (on this node,
// or on a node whose cached list is up to WAYMARK_WEBHOOK_CACHE_MS old) may commit an outbox row for the
// webhook after remove() swept its queue. No worker delivers such a row (they go webhook by webhook
// through the list of live ones) and the outbox has no index to find rows across webhooks, so the
// periodic purge (DeliveryWorker.purge) sweeps the queue of every tombstone again until the grace
// period is over and a sweep finds nothing.
import { put, type Scope, type WriteOp } from '../../../ports/store';
import { WEBHOOK_TOMBSTONES, type WebhookTombstone } from './webhook-docs';

export { WEBHOOK_TOMBSTONES, type WebhookTombstone };

/**
 * How long after a delete a late row can still be committed, beyond the webhook cache period (the
 * feature adds WAYMARK_WEBHOOK_CACHE_MS): the time between a track update's read of the webhook list
 * and its commit, which is seconds at worst (a lock wait, a slow transaction). Ten minutes is far past
 * that and costs one small document per deleted webhook for that long. A tombstone is dropped only
 * once this is over and a sweep of its queue found no row, so a row later still is swept as well.
 */
export const TOMBSTONE_GRACE_MS = 10 * 60_000;

export function tombstoneOp(scope: Scope, webhookId: string, now: Date): WriteOp {
  const iso = now.toISOString();
  const tombstone: WebhookTombstone = { _id: webhookId, createdAt: iso, updatedAt: iso, deletedAt: iso };
  return put(WEBHOOK_TOMBSTONES, scope, tombstone);
}
