// The webhook documents the Store keeps (an endpoint and its outbox rows), which the API, the track path's
// outbox and the delivery worker all read. The delivery log, leases and tombstones are the webhooks
// feature's own (server/features/webhooks/webhook-docs.ts).
import type { DeliveryMode, WebhookPayload } from '../webhooks/delivery-plan';
import type { DeadReason } from '../webhooks/retry-policy';
import type { DocBase } from './document';

export interface WebhookDoc extends DocBase {
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
export interface OutboxRow extends DocBase {
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
