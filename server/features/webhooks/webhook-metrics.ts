// Delivery metrics of this node. Counters and latency histograms count what this process did since it
// started (Prometheus sums them across nodes); the pending and dead-letter gauges are read from the
// Store at scrape time, so every node reports the cluster-wide queue.
import type { Store } from '../../../ports/store';
import { Counter, Gauge, Histogram, renderMetrics } from '../../http/prometheus-text';
import type { WebhookDirectory } from './webhook-directory';
import { OUTBOX, WEBHOOKS } from '../../api/collections';

/** Rows counted per environment at most, per scrape: counting reads documents, and a scrape must stay cheap. */
export const GAUGE_COUNT_CAP = 10_000;
const GAUGE_CACHE_MS = 10_000;

export class WebhookMetrics {
  readonly requests = new Counter('waymark_webhook_requests_total', 'Delivery attempts by result (delivered: 2xx; failed: anything else).');
  readonly eventsDelivered = new Counter('waymark_webhook_events_delivered_total', 'Events acknowledged by a receiver (a batch counts each event).');
  readonly retries = new Counter('waymark_webhook_retries_total', 'Failed attempts that were scheduled for another try.');
  readonly dead = new Counter('waymark_webhook_dead_letters_total', 'Rows that became dead letters, by reason (max-attempts, max-age).');
  readonly redelivered = new Counter('waymark_webhook_redeliveries_total', 'Rows queued again on request (dead letters or past events).');
  readonly dropped = new Counter('waymark_webhook_events_dropped_total', 'Events not queued for a webhook, by reason (queue-full: its queue was at WAYMARK_WEBHOOK_MAX_QUEUED).');
  readonly disabled = new Counter('waymark_webhook_disabled_total', 'Webhooks the gateway disabled, by reason (failing: the head request kept failing for WAYMARK_WEBHOOK_DISABLE_AFTER_MS).');
  readonly queueFull = new Gauge('waymark_webhook_queue_full', 'Webhooks whose queue is at its cap (new events dropped), at the last check of this node.');
  readonly purged = new Counter('waymark_webhook_purged_rows_total', 'Outbox rows of deleted webhooks removed in the background.');
  readonly pending = new Gauge(
    'waymark_webhook_pending',
    `Outbox rows waiting for delivery; a row holds the requests one write made to a webhook (counted up to ${GAUGE_COUNT_CAP} per environment).`,
  );
  readonly deadStored = new Gauge('waymark_webhook_dead_letters', `Dead letters kept for redelivery (counted up to ${GAUGE_COUNT_CAP} per environment).`);
  readonly latency = new Histogram(
    'waymark_webhook_delivery_duration_seconds', 'Duration of one delivery attempt, DNS to response.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  readonly lag = new Histogram(
    'waymark_webhook_delivery_lag_seconds', 'Time from queueing a row to its successful delivery.',
    [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300, 1800, 3600, 21600, 86400],
  );
  private gaugesReadMs = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly directory: WebhookDirectory,
  ) {}

  /**
   * Rows in `state`, webhook by webhook (the outbox's only index starts with the webhook): rows of a
   * webhook deleted meanwhile are gone with it (those written after its delete, within a clean-up run:
   * webhook-tombstones.ts), so these are all the rows that count.
   */
  private async countRows(state: 'pending' | 'dead', nowMs: number): Promise<number> {
    let total = 0;
    for (const scope of await this.store.scopes(WEBHOOKS)) {
      let counted = 0;
      for (const webhook of await this.directory.forScope(scope, nowMs)) {
        if (counted >= GAUGE_COUNT_CAP) break;
        const { docs } = await this.store.list(OUTBOX, scope, { limit: GAUGE_COUNT_CAP - counted, sortBy: 'createdAt', equals: { webhookId: webhook._id, state } });
        counted += docs.length;
      }
      total += counted;
    }
    return total;
  }

  async render(nowMs: number): Promise<string> {
    if (nowMs - this.gaugesReadMs >= GAUGE_CACHE_MS) {
      this.pending.set(await this.countRows('pending', nowMs));
      this.deadStored.set(await this.countRows('dead', nowMs));
      this.gaugesReadMs = nowMs;
    }
    return renderMetrics([this.requests, this.eventsDelivered, this.retries, this.dead, this.redelivered, this.dropped, this.disabled, this.queueFull, this.purged, this.pending, this.deadStored, this.latency, this.lag]);
  }
}
