// Removing a deleted webhook's queue in the background. A dead receiver's queue can hold tens of
// thousands of rows; deleting them inside DELETE /v1/webhooks/:id took 12–33 s on SQLite and cut track
// to a tenth meanwhile (issue 31). The delete now answers once the webhook and its tombstone are
// written; the rows go here, a small batch per write with a pause after each, so the track writes
// queued behind a batch commit before the next one. A crash or a store error mid-way leaves rows
// that the clean-up job's tombstone sweep (webhook-tombstones.ts) takes later: nothing is lost but time.
import { setTimeout as sleep } from 'node:timers/promises';
import { remove, type Scope, type Store } from '../../../../ports/store';
import { scopeKey } from '../../../../adapters/store/scope-key';
import type { Logger } from '../../../../ports/logger';
import type { Counter } from '../../../http/prometheus-text';
import { OUTBOX } from '../../../api/collections';

/** Rows per write: a transaction of a few milliseconds, after which track's queued writes go first. */
export const PURGE_BATCH_ROWS = 200;
/**
 * Pause after each batch, at least: a group commit of waiting track updates takes about this long. On
 * a busy host a batch takes longer, and the pause grows to the batch's own time, so the removal takes
 * at most about half of the store's (and the event loop's) time whatever the load.
 */
const PAUSE_MS = 10;

export interface QueuePurgeDeps {
  store: Store;
  logger: Logger;
  /** Counts the rows removed. */
  purged: Counter;
}

export class QueuePurge {
  private readonly waiting = new Map<string, { scope: Scope; webhookId: string }>();
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly deps: QueuePurgeDeps) {}

  /** Queues the removal of a deleted webhook's rows; returns at once. */
  add(scope: Scope, webhookId: string): void {
    if (this.stopping) return;
    this.waiting.set(scopeKey(scope, webhookId), { scope, webhookId });
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no removal is waiting or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops after the batch in progress; what is left is the tombstone sweep's. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  private async run(): Promise<void> {
    for (const [key, { scope, webhookId }] of this.waiting) {
      this.waiting.delete(key);
      try {
        await deleteQueuePaced(this.deps.store, scope, webhookId, () => this.stopping, (n) => this.deps.purged.inc({}, n));
      } catch (err) {
        this.deps.logger.warn('webhook queue purge stopped; the clean-up job takes the rest', {
          webhookId, error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }
}

/**
 * Deletes every outbox row of the webhook, whatever its state, PURGE_BATCH_ROWS per write with a pause
 * after each; stops early when `stop()` says so. Returns how many rows it deleted. State by state: the
 * outbox's ordered index is (webhook, state, createdAt), so each page is read from the index, where a
 * page by webhook alone would sort all its rows every time. A last pass by webhook alone takes rows of
 * any other state (none today) once the queue is small.
 */
export async function deleteQueuePaced(store: Store, scope: Scope, webhookId: string, stop: () => boolean = () => false, onBatch?: (rows: number) => void): Promise<number> {
  let deleted = 0;
  const passes: Array<Record<string, string>> = [{ webhookId, state: 'pending' }, { webhookId, state: 'dead' }, { webhookId }];
  for (const equals of passes) {
    for (;;) {
      if (stop()) return deleted;
      const startedMs = performance.now();
      const { docs, hasMore } = await store.list(OUTBOX, scope, { equals, sortBy: 'createdAt', order: 'asc', limit: PURGE_BATCH_ROWS });
      if (docs.length > 0) await store.write(docs.map((d) => (remove(OUTBOX, scope, d._id))));
      deleted += docs.length;
      onBatch?.(docs.length);
      if (!hasMore) break;
      await sleep(Math.max(PAUSE_MS, performance.now() - startedMs));
    }
  }
  return deleted;
}
