// Which node drains an endpoint. Before draining an endpoint a worker takes its lease (a Store document
// written under the Store's lock) and renews it with every outcome it writes; the lease lapses on its own
// when the node stops delivering, and is handed back on shutdown. A node that dies mid-drain holds the
// endpoint until the lease runs out; then any node takes over and resends the row that was in flight.
import { randomBytes } from 'node:crypto';
import { put, remove, type Scope, type Store, type WriteOp } from '../../../../ports/store';
import { scopeKey } from '../../../../adapters/store/scope-key';
import { ENDPOINT_LEASES, type EndpointLease } from '../webhook-docs';

/** How long a webhook being deleted keeps its endpoint from every worker (retire()): far beyond a removal's sweep. */
const RETIRE_PARK_MS = 10 * 60_000;

export interface LeaseDeps {
  store: Store;
  /** How long a lease lasts from its last renewal: beyond anything one attempt and its writes can take. */
  leaseMs: number;
  clock: () => Date;
  /** Another node holds the endpoint until `untilMs`: the worker leaves it alone till then. */
  heldElsewhere(scope: Scope, webhookId: string, untilMs: number): void;
}

export class EndpointLeases {
  /** This process's identity in leases; a restarted process is a new owner. */
  readonly owner = `node-${randomBytes(6).toString('hex')}`;
  /** Endpoints whose lease this node may hold: handed back on shutdown. */
  private readonly leased = new Map<string, { scope: Scope; webhookId: string }>();

  constructor(private readonly deps: LeaseDeps) {}

  private leaseOp(scope: Scope, webhookId: string, now: Date): WriteOp {
    const iso = now.toISOString();
    const lease: EndpointLease = { _id: webhookId, createdAt: iso, updatedAt: iso, owner: this.owner, until: new Date(now.getTime() + this.deps.leaseMs).toISOString() };
    return put(ENDPOINT_LEASES, scope, lease);
  }

  private heldByOther(lease: EndpointLease | undefined, now: Date): boolean {
    return lease !== undefined && lease.owner !== this.owner && Date.parse(lease.until) > now.getTime();
  }

  private lockKey(scope: Scope, webhookId: string): string {
    return `webhook-lease:${scopeKey(scope, webhookId)}`;
  }

  /**
   * Takes (or keeps) the endpoint's lease. A lease of ours with more than half its time left is kept
   * as it is: an endpoint woken for every new event would otherwise cost a write per wake.
   */
  claim(scope: Scope, webhookId: string): Promise<'kept' | 'taken' | undefined> {
    const { store, clock, leaseMs } = this.deps;
    return store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = clock();
      const lease = await store.get(ENDPOINT_LEASES, scope, webhookId);
      if (this.heldByOther(lease, now)) {
        this.deps.heldElsewhere(scope, webhookId, Date.parse(lease!.until));
        return undefined;
      }
      this.leased.set(scopeKey(scope, webhookId), { scope, webhookId });
      if (lease?.owner === this.owner && Date.parse(lease.until) - now.getTime() > leaseMs / 2) return 'kept';
      await store.write([this.leaseOp(scope, webhookId, now)]);
      return 'taken';
    });
  }

  /**
   * Writes an outcome with a renewed lease. When another owner holds the endpoint now (this node
   * stalled past its lease, or the webhook was deleted) nothing is written: false, and the drain stops;
   * the new owner sends the row again, which at-least-once delivery allows.
   */
  commit(scope: Scope, webhookId: string, ops: WriteOp[]): Promise<boolean> {
    const { store, clock } = this.deps;
    return store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = clock();
      if (this.heldByOther(await store.get(ENDPOINT_LEASES, scope, webhookId), now)) return false;
      await store.write([...ops, this.leaseOp(scope, webhookId, now)]);
      return true;
    });
  }

  /**
   * A webhook is being deleted: park its lease with an owner no worker has, so no drain claims it or
   * writes an outcome (which could bring a deleted row back) while its rows are removed. For
   * RETIRE_PARK_MS only: a node that dies between this and the delete leaves the webhook in place, and
   * it must not stay silent long. A removal that outlasts the park may see a row delivered or a bundle's
   * progress written back; the tombstone's sweep (delivery-retention.ts) takes such rows.
   */
  retire(scope: Scope, webhookId: string): Promise<void> {
    const { store, clock } = this.deps;
    return store.withLock(this.lockKey(scope, webhookId), async () => {
      const now = clock();
      const iso = now.toISOString();
      const lease: EndpointLease = { _id: webhookId, createdAt: iso, updatedAt: iso, owner: 'deleted', until: new Date(now.getTime() + RETIRE_PARK_MS).toISOString() };
      await store.write([put(ENDPOINT_LEASES, scope, lease)]);
    });
  }

  /** Hands back every lease this node holds, so that another node takes over at once (shutdown). */
  async releaseAll(): Promise<void> {
    const { store } = this.deps;
    for (const { scope, webhookId } of this.leased.values()) {
      await store.withLock(this.lockKey(scope, webhookId), async () => {
        const lease = await store.get(ENDPOINT_LEASES, scope, webhookId);
        if (lease?.owner === this.owner) await store.write([remove(ENDPOINT_LEASES, scope, webhookId)]);
      });
    }
    this.leased.clear();
  }
}
