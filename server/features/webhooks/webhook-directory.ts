// The webhooks of each environment, cached: every track update with events asks "who wants these?",
// and that must not cost a query. Writes through this node drop the entry at once; writes made on
// another node (or by the CLI) are seen once the entry is older than the cache period.
import type { Scope, Store } from '../../../ports/store';
import { scopeKey } from '../../../adapters/store/scope-key';
import type { WebhookDoc } from './webhook-docs';
import { WEBHOOKS } from '../../api/collections';

/** Webhooks per environment at most; the create endpoint enforces it. */
export const MAX_WEBHOOKS_PER_ENVIRONMENT = 25;

export interface ScopedWebhook {
  scope: Scope;
  webhook: WebhookDoc;
}

export class WebhookDirectory {
  private readonly byScope = new Map<string, { loadedMs: number; webhooks: WebhookDoc[] }>();
  private everything: { loadedMs: number; list: ScopedWebhook[] } | undefined;
  private editCount = 0;

  constructor(
    private readonly store: Store,
    private readonly cacheMs: number,
  ) {}

  async forScope(scope: Scope, nowMs: number): Promise<WebhookDoc[]> {
    const key = scopeKey(scope);
    const cached = this.byScope.get(key);
    if (cached && nowMs - cached.loadedMs < this.cacheMs) return cached.webhooks;
    const { docs: webhooks } = await this.store.list(WEBHOOKS, scope, { limit: MAX_WEBHOOKS_PER_ENVIRONMENT * 4, sortBy: 'createdAt', order: 'asc' });
    this.byScope.set(key, { loadedMs: nowMs, webhooks });
    return webhooks;
  }

  /** Every webhook of every environment: what the delivery worker sweeps. */
  async all(nowMs: number): Promise<ScopedWebhook[]> {
    if (this.everything && nowMs - this.everything.loadedMs < this.cacheMs) return this.everything.list;
    const list: ScopedWebhook[] = [];
    for (const scope of await this.store.scopes(WEBHOOKS)) {
      for (const webhook of await this.forScope(scope, nowMs)) list.push({ scope, webhook });
    }
    this.everything = { loadedMs: nowMs, list };
    return list;
  }

  /** Webhook writes through this node so far: a delivery drain reads its webhook again when it changed. */
  get edits(): number {
    return this.editCount;
  }

  invalidate(scope: Scope): void {
    this.editCount++;
    this.byScope.delete(scopeKey(scope));
    this.everything = undefined;
  }
}
