// The documents event delivery keeps in the Store: webhooks, outbox rows, delivery-log entries,
// endpoint leases and deleted webhooks' tombstones, with the small builders every writer shares.
import { collection, type DocBase } from '../../../ports/store';
import type { PlannedDelivery, WebhookPayload } from '../../../core/webhooks/delivery-plan';
import type { OutboxRow, WebhookDoc } from '../../../core/model/webhook';
import { newObjectId } from '../../../core/object-id';

export type { OutboxPart, OutboxRow, OutboxState, WebhookDoc } from '../../../core/model/webhook';

/** What a webhook is doing, as the API shows it. */
export function webhookStatus(w: WebhookDoc): 'active' | 'queue-full' | 'disabled' | 'disabled-failing' {
  if (!w.enabled) return w.disabledReason === 'failing' ? 'disabled-failing' : 'disabled';
  return w._queueFullSince !== undefined ? 'queue-full' : 'active';
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'dead' | 'expired';

/** One attempt (or one expiry) in a webhook's delivery log. */
export interface DeliveryLogEntry extends DocBase {
  webhookId: string;
  /** The request's delivery id (X-Waymark-Delivery-Id): its row's id, with the part's place for a bundle's. */
  outboxId: string;
  outcome: DeliveryOutcome;
  eventIds: string[];
  attempt: number;
  /** HTTP status of the final response; null when none came (timeout, refused address, connection error). */
  status: number | null;
  latencyMs: number;
  error?: string;
  url: string;
  nextAttemptAt?: string;
  expiresAt: string;
}

/** Who is delivering to an endpoint right now, so that two workers never send its rows at once. */
export interface EndpointLease extends DocBase {
  owner: string;
  until: string;
}

// An entry is written once per attempt and never updated, so each index is an entry per attempt. The
// log is only ever read a webhook at a time (GET /v1/webhooks/:id/deliveries, the CLI), newest first,
// optionally narrowed to one outcome: the webhook's ordered index serves it, the outcome is a filter
// read along the way. Nothing looks entries up by outbox row or lists them across webhooks.
export const DELIVERY_LOG = collection<DeliveryLogEntry>('webhook_deliveries', { keys: ['webhookId'], sorted: [['webhookId']], orders: [], due: 'expiresAt' });
// Read by id only, and rewritten with every outcome a worker writes: no date index.
export const ENDPOINT_LEASES = collection<EndpointLease>('webhook_leases', { keys: [], orders: [] });

/**
 * Each payload's user once per write for its outbox rows, as earlier versions wrote them (shared-user.ts).
 */
export interface SharedUserDoc extends DocBase {
  /**
   * The user's JSON text, as the request bodies carry it: a stored object would be parsed and serialised
   * again for every update's first delivery, and PostgreSQL's JSONB would reorder its keys.
   */
  userJson?: string;
  /** The user as an object: documents written before `userJson`. */
  user?: Record<string, unknown>;
  /**
   * The webhooks whose rows of this write point at it (one track update's rows for several webhooks).
   * Once none of them has a pending row as old as this document, nothing reads it any more and the sweep
   * removes it (delivery-shared-users.ts); documents without it wait for `expiresAt`.
   */
  webhookIds?: string[];
  /** The backstop: the retry policy's maximum age plus SHARED_USER_KEEP_BEYOND_MAX_AGE_MS after the write. */
  expiresAt: string;
}
// Listed oldest first per environment by the sweep (createdAt order), and across environments by due date.
export const SHARED_USERS = collection<SharedUserDoc>('outbox_users', { keys: [], due: 'expiresAt', orders: ['createdAt'] });
/** How long past the retry policy's maximum age a shared user is kept at most (a paused webhook's rows may still point at it). */
export const SHARED_USER_KEEP_BEYOND_MAX_AGE_MS = 24 * 3600_000;

/** A deleted webhook, under the webhook's own `_id`, in the webhook's environment (webhook-tombstones.ts). */
export interface WebhookTombstone extends DocBase {
  /** When the webhook was deleted; the collection's due field, so that `due(now)` lists every tombstone, oldest first. */
  deletedAt: string;
}
// Read only through due(), by the clean-up job: no key, no date index.
export const WEBHOOK_TOMBSTONES = collection<WebhookTombstone>('webhook_tombstones', { keys: [], due: 'deletedAt', orders: [] });

/** The collections the webhooks feature declares besides the gateway's webhooks and outbox. */
export const WEBHOOK_COLLECTIONS = [DELIVERY_LOG, ENDPOINT_LEASES, SHARED_USERS, WEBHOOK_TOMBSTONES] as const;

export function newOutboxRow(planned: PlannedDelivery, at: Date, origin: OutboxRow['origin']): OutboxRow {
  const iso = at.toISOString();
  return {
    _id: newObjectId(at),
    createdAt: iso,
    updatedAt: iso,
    webhookId: planned.webhookId,
    state: 'pending',
    nextAttemptAt: iso,
    enqueuedAt: iso,
    eventIds: planned.eventIds,
    eventTypes: planned.eventTypes,
    payload: planned.payload,
    attempts: 0,
    origin,
  };
}

/** A row's payload as JSON text, whichever way the row holds it. */
export function payloadText(row: OutboxRow): string {
  return row.payloadJson ?? JSON.stringify(row.payload);
}

/** A row's payload as an object (the API shows dead letters' payloads). */
export function payloadOf(row: OutboxRow): WebhookPayload {
  return row.payload ?? (JSON.parse(row.payloadJson!) as WebhookPayload);
}

export function publicWebhook(w: WebhookDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {
    _id: w._id, createdAt: w.createdAt, updatedAt: w.updatedAt, live: w.live, url: w.url, types: w.types,
    mode: w.mode, enabled: w.enabled, token: w.token, status: webhookStatus(w),
  };
  if (w.description !== undefined) out.description = w.description;
  if (w._queueFullSince !== undefined) out.queueFullSince = w._queueFullSince;
  if (w.disabledReason !== undefined) Object.assign(out, { disabledReason: w.disabledReason, disabledAt: w.disabledAt });
  return out;
}

export function publicDeadLetter(row: OutboxRow): Record<string, unknown> {
  return {
    _id: row._id, createdAt: row.createdAt, webhookId: row.webhookId, eventIds: row.eventIds, eventTypes: row.eventTypes,
    attempts: row.attempts, lastAttemptAt: row.lastAttemptAt, lastStatus: row.lastStatus ?? null, lastError: row.lastError,
    deadAt: row.deadAt, deadReason: row.deadReason, payload: row.payloadDropped ? null : payloadOf(row), ...(row.payloadDropped ? { payloadDropped: true } : {}),
  };
}

export function publicDelivery(e: DeliveryLogEntry): Record<string, unknown> {
  return {
    _id: e._id, createdAt: e.createdAt, webhookId: e.webhookId, outboxId: e.outboxId, outcome: e.outcome, eventIds: e.eventIds,
    attempt: e.attempt, status: e.status, latencyMs: e.latencyMs, error: e.error, url: e.url, nextAttemptAt: e.nextAttemptAt,
  };
}
