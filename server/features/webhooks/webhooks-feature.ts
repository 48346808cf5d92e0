// Event delivery as a gateway feature: its collections, endpoints, the track step that writes outbox
// rows in the update's own transaction, and the delivery and clean-up jobs. It must be the last
// feature of the pipeline so that it sees every event the update produced.
//
// Events written outside POST /v1/track (trip changes and expiry, conversions…) reach webhooks when
// their writer adds the rows of the EventOutbox port (ports/event-outbox.ts, which this feature
// provides) to the same Store write.
import type { EventOutbox } from '../../../ports/event-outbox';
import { putInto, type Scope, type Store, type WriteOp } from '../../../ports/store';
import type { EventDoc } from '../../../core/model/event';
import { scopeKey } from '../../../adapters/store/scope-key';
import { installedRuntime, type Feature, type InstalledFeatures } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Logger } from '../../../ports/logger';
import { DeliveryWorker } from './delivery/delivery-worker';
import { QUEUE_CHECK_MS, QueueCaps } from './delivery/delivery-queue-caps';
import { SHARED_USER_SWEEP_MS, SharedUserSweep } from './delivery/delivery-shared-users';
import { publicView } from '../../../core/model/views';
import { WebhookDirectory } from './webhook-directory';
import { WEBHOOK_COLLECTIONS } from './webhook-docs';
import { TOMBSTONE_GRACE_MS } from './webhook-tombstones';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookService } from './webhook-service';
import { webhookRoutes } from './webhooks-routes';
import { OUTBOX } from '../../api/collections';

/** How often delivery-log entries, old dead letters and rows of deleted webhooks are cleaned up. */
const PURGE_PERIOD_MS = 60_000;

/** What the CLI, /metrics and tests reach of the feature (its instance's `runtime`). */
export class WebhooksRuntime {
  constructor(
    readonly service: WebhookService,
    readonly worker: DeliveryWorker,
    readonly metrics: WebhookMetrics,
    readonly directory: WebhookDirectory,
    readonly caps: QueueCaps,
    readonly sharedUsers: SharedUserSweep,
  ) {}
}

/** The webhooks feature of a gateway, when installed. */
export function webhooksOf(services: InstalledFeatures): WebhooksRuntime | undefined {
  return installedRuntime(services, webhooksFeature.name, WebhooksRuntime);
}

/**
 * Wakes the worker for the endpoints of pending outbox rows a commit wrote, whoever wrote them (track,
 * trips, conversions, redelivery): the store calls this after the commit, on every adapter, so the
 * worker never looks before the rows are visible (#10.3).
 */
function wakeOnCommit(worker: DeliveryWorker, ops: readonly WriteOp[]): void {
  let byScope: Map<string, { scope: Scope; ids: Set<string> }> | undefined;
  for (const op of ops) {
    const row = putInto(OUTBOX, op);
    if (row?.state !== 'pending') continue;
    byScope ??= new Map();
    const key = scopeKey(op.scope);
    let entry = byScope.get(key);
    if (!entry) byScope.set(key, (entry = { scope: op.scope, ids: new Set() }));
    entry.ids.add(row.webhookId);
  }
  for (const { scope, ids } of byScope?.values() ?? []) worker.wake(scope, ids);
}

/** The feature's EventOutbox: rows for the webhooks that want these events ([] when none does). */
function eventOutbox(service: WebhookService): EventOutbox {
  return {
    async opsFor(scope: Scope, events: readonly EventDoc[], user: object | null, at: Date = new Date()): Promise<WriteOp[]> {
      const addition = await service.outboxFor(scope, events, user === null ? null : publicView(user), at);
      return addition.ops;
    },
  };
}

export const webhooksFeature: Feature<{ store: Store; config: Pick<GatewayConfig, 'webhooks'>; logger: Logger }> = {
  name: 'webhooks',
  collections: WEBHOOK_COLLECTIONS,
  setup(context) {
    const { store, config, logger } = context;
    const c = config.webhooks;
    const directory = new WebhookDirectory(store, c.cacheMs);
    const metrics = new WebhookMetrics(store, directory);
    const worker = new DeliveryWorker({
      store, directory, metrics, logger,
      settings: {
        timeoutMs: c.timeoutMs,
        concurrency: c.concurrency,
        retry: { baseMs: c.backoffBaseMs, maxMs: c.backoffMaxMs, maxAttempts: c.maxAttempts, maxAgeMs: c.maxAgeMs },
        policy: { allowPrivate: c.allowPrivate, allowedNetworks: c.allowedNetworks },
        logRetentionMs: c.logRetentionMs,
        deadRetentionMs: c.deadRetentionMs,
        // A node may write rows for a deleted webhook for as long as it trusts its cached list.
        tombstoneGraceMs: c.cacheMs + TOMBSTONE_GRACE_MS,
        deadPayloadMaxBytes: c.deadPayloadMaxBytes,
        sendThread: c.sendThread,
      },
    });
    const caps = new QueueCaps({ store, directory, metrics, logger, maxQueued: c.maxQueued, disableAfterMs: c.disableAfterMs });
    const sharedUsers = new SharedUserSweep(store, directory);
    const service = new WebhookService(store, directory, c, metrics, worker);
    store.onCommit((ops) => wakeOnCommit(worker, ops));
    return {
      runtime: new WebhooksRuntime(service, worker, metrics, directory, caps, sharedUsers),
      outbox: eventOutbox(service),
      routes: webhookRoutes(service),
      trackSteps: [
        {
          // After the other steps: the payloads are the update's final events and user, and their JSON
          // is the text the track path made once for its answer and its rows.
          finish: async (update, json) => {
            // Updates reach only a serving process; without this the first poll period after a start
            // would pass before anything is delivered. Poll 0 means this node does not deliver.
            if (c.pollMs > 0) worker.activate();
            if (update.events.length === 0) return;
            // Stamped now, not at the request's arrival: rows of one user then sort in commit order.
            const addition = await service.outboxFor(update.ctx.scope, update.events, publicView(update.user), new Date(), json);
            update.ops.push(...addition.ops);
          },
        },
      ],
      jobs: [
        { periodMs: c.pollMs, job: { name: 'webhook-delivery', run: (now) => worker.sweep(now) } },
        { periodMs: c.pollMs > 0 ? PURGE_PERIOD_MS : 0, job: { name: 'webhook-cleanup', run: (now) => worker.purge(now) } },
        { periodMs: c.pollMs > 0 ? QUEUE_CHECK_MS : 0, job: { name: 'webhook-queue-caps', run: (now) => caps.check(now) } },
        // Under track load it removes documents on every run: a count would log a line every 2 s.
        { periodMs: c.pollMs > 0 ? SHARED_USER_SWEEP_MS : 0, job: { name: 'webhook-shared-users', run: (now) => sharedUsers.run(now).then(() => 0) } },
      ],
      stop: () => worker.stop(),
    };
  },
};
