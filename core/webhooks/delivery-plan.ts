// Which requests a set of new events turns into, per webhook: the event-type filter, then one request
// per event (single) or up to five events per request (batched), in event order. Payload shapes are
// Radar's: `{event, user}` and `{events: [...], user}`.

export const MAX_EVENTS_PER_BATCH = 5;

export type DeliveryMode = 'single' | 'batch';

export interface WebhookSubscription {
  _id: string;
  enabled: boolean;
  mode: DeliveryMode;
  /** Event types to send; null sends all. A trailing `*` matches a prefix (`user.entered_*`). */
  types: readonly string[] | null;
}

export interface WebhookEvent {
  _id: string;
  type: string;
  [field: string]: unknown;
}

export type WebhookPayload =
  | { event: WebhookEvent; user: object | null }
  | { events: WebhookEvent[]; user: object | null };

export interface PlannedDelivery {
  webhookId: string;
  eventIds: string[];
  eventTypes: string[];
  payload: WebhookPayload;
}

export function typeMatches(type: string, patterns: readonly string[] | null): boolean {
  if (patterns === null) return true;
  return patterns.some((p) => (p.endsWith('*') ? type.startsWith(p.slice(0, -1)) : p === type));
}

/** Requests for one webhook: its events (already filtered) in order, one per request or five per batch. */
export function chunkForWebhook(webhookId: string, mode: DeliveryMode, events: readonly WebhookEvent[], user: object | null): PlannedDelivery[] {
  const out: PlannedDelivery[] = [];
  const size = mode === 'batch' ? MAX_EVENTS_PER_BATCH : 1;
  for (let i = 0; i < events.length; i += size) {
    const chunk = events.slice(i, i + size);
    out.push({
      webhookId,
      eventIds: chunk.map((e) => e._id),
      eventTypes: chunk.map((e) => e.type),
      payload: mode === 'batch' ? { events: chunk, user } : { event: chunk[0], user },
    });
  }
  return out;
}

/**
 * Requests for the events of one user written together (one track update, one trip change…), for
 * every enabled webhook. Disabled webhooks get nothing: pausing a webhook pauses its queue's growth.
 */
export function planDeliveries(webhooks: readonly WebhookSubscription[], events: readonly WebhookEvent[], user: object | null): PlannedDelivery[] {
  const out: PlannedDelivery[] = [];
  if (events.length === 0) return out;
  for (const w of webhooks) {
    if (!w.enabled) continue;
    const wanted = events.filter((e) => typeMatches(e.type, w.types));
    out.push(...chunkForWebhook(w._id, w.mode, wanted, user));
  }
  return out;
}

/** Consecutive runs of events belonging to the same user, order kept: redelivery of a time range. */
export function runsByUser<T>(items: readonly T[], userOf: (item: T) => string): T[][] {
  const runs: T[][] = [];
  let last: string | undefined;
  for (const item of items) {
    const key = userOf(item);
    if (runs.length === 0 || key !== last) runs.push([]);
    runs[runs.length - 1].push(item);
    last = key;
  }
  return runs;
}
