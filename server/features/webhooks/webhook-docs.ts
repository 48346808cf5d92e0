// The documents event delivery keeps in the Store: webhooks, outbox rows, delivery-log entries,
// endpoint leases and deleted webhooks' tombstones, with the small builders every writer shares.
import { collection, type CollectionSpec, type Doc } from '../../../ports/store';
import type { DeliveryMode, PlannedDelivery, WebhookPayload } from '../../../core/webhooks/delivery-plan';
import type { DeadReason } from '../../../core/webhooks/retry-policy';
import { newObjectId } from '../../../core/object-id';

export interface WebhookDoc extends Doc {
  live: boolean;
  url: string;
  /** Event types sent; null: all. */
  types: string[] | null;
  mode: DeliveryMode;
  enabled: boolean;
  description?: string;
  /** Security token: keys both signatures. Shown to secret-key holders, like Radar's dashboard does. */
  token: string;
  /** The token before the last rotation, and until when it still signs X-Waymark-Signature. */
  _previousToken?: string;
  _previousTokenUntil?: string;
  /** Set while its queue is at its cap: new events are not queued for it (queue-guard.ts). */
  _queueFullSince?: string;
  /** Set while its queue's head row keeps failing: when that was first seen. */
  _failingSince?: string;
  /** Why the gateway disabled it ('failing'); cleared when someone enables it again. */
  disabledReason?: 'failing';
  disabledAt?: string;
}

/** What a webhook is doing, as the API shows it. */
export function webhookStatus(w: WebhookDoc): 'active' | 'queue-full' | 'disabled' | 'disabled-failing' {
  if (!w.enabled) return w.disabledReason === 'failing' ? 'disabled-failing' : 'disabled';
  return w._queueFullSince !== undefined ? 'queue-full' : 'active';
}

export type OutboxState = 'pending' | 'dead';

/** One request of a bundle: its body with `"user":null` in place of the user, and the events it carries. */
export interface OutboxPart {
  json: string;
  eventIds: string[];
  eventTypes: string[];
}

/**
 * One request to one webhook, or a bundle of the requests one write makes to it (outbox-bundle.ts),
 * written in the same transaction as the events it carries. Delivered rows are deleted (the delivery
 * log keeps the record); dead letters stay, state 'dead', until redelivered or past their retention.
 * Dead letters are always single requests.
 */
export interface OutboxRow extends Doc {
  webhookId: string;
  state: OutboxState;
  /** Set while pending: when the row may next be attempted. */
  nextAttemptAt?: string;
  /** Start of the row's maximum age; a redelivery resets it. */
  enqueuedAt: string;
  eventIds: string[];
  eventTypes: string[];
  /** Payload's user stored once for the rows of one write (shared-user.ts); its user is then null. */
  sharedUser?: string;
  /**
   * The payload as its JSON text (`JSON.stringify` of it), which is what the request body is: a row is
   * parsed on every read of its queue, and a payload kept as an object (~4 KiB with its user) was parsed
   * into objects only to be serialised again for the body.
   */
  payloadJson?: string;
  /** The payload as an object: rows written before `payloadJson` (read with `payloadText`). */
  payload?: WebhookPayload;
  /** A bundle's requests, in order; `eventIds` and `eventTypes` are then those of all of them. */
  parts?: OutboxPart[];
  /** A bundle's user, as its parts' bodies carry it. */
  userJson?: string;
  /** A bundle's parts already acknowledged. */
  sent?: number;
  attempts: number;
  lastAttemptAt?: string;
  lastStatus?: number | null;
  lastError?: string;
  deadAt?: string;
  deadReason?: DeadReason;
  /** 'event' when written with its events, 'redelivery' when asked for again. */
  origin: 'event' | 'redelivery';
  /** A dead letter whose payload was larger than the kept size: only its event ids are kept (redelivery rebuilds it from the events). */
  payloadDropped?: boolean;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'dead' | 'expired';

/** One attempt (or one expiry) in a webhook's delivery log. */
export interface DeliveryLogEntry extends Doc {
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
export interface EndpointLease extends Doc {
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

export const WEBHOOK_COLLECTIONS = {
  webhook_deliveries: DELIVERY_LOG.spec,
  webhook_leases: ENDPOINT_LEASES.spec,
  // Each payload's user once per write for its outbox rows (shared-user.ts).
  outbox_users: { keys: [], due: 'expiresAt', orders: [] },
  // One per deleted webhook while its late outbox rows may still arrive (webhook-tombstones.ts). Read
  // only through due(), by the clean-up job: no key, no date index.
  webhook_tombstones: { keys: [], due: 'deletedAt', orders: [] },
} as const satisfies Record<string, CollectionSpec>;

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
