// Which project environments have no open trip, so that track updates there skip the open-trips query
// (one SQL read per update, run for every user although most environments never use trips: #14).
// An environment is asked once; the answer "none" holds until a trip is written in it, here (the
// store's commit listener) or on another node (its change notices; trips are a broadcast collection).
// A write that lands while the question is being asked wins: the answer is then thrown away.
import { putInto, type Scope, type Store } from '../../../ports/store';
import { TRIPS } from '../../api/collections';
import { scopeKey } from '../../../adapters/store/scope-key';
import { OPEN_STATUSES } from '../../../core/trips/status';

const OPEN = new Set<string>(OPEN_STATUSES);

export class OpenTripScopes {
  private readonly none = new Set<string>();
  /** Scopes where a trip was seen or written: asked no more (as before this cache existed). */
  private readonly some = new Set<string>();
  /** Trip writes seen per scope, to tell whether one landed while a question was out. */
  private readonly writes = new Map<string, number>();

  constructor(private readonly store: Store) {
    store.onCommit((ops) => {
      for (const op of ops) {
        if (op.collection !== TRIPS.name) continue;
        const trip = putInto(TRIPS, op);
        this.written(op.scope, trip !== undefined && OPEN.has(trip.status));
      }
    });
    store.onRemoteChange((change) => {
      if (change.collection === 'trips' && change.scope) this.written(change.scope, false);
      else if (change.collection === '*') this.forgetAll();
    });
  }

  /** An open trip written: the scope has some. Anything else (a trip closed, deleted, or unseen): ask again. */
  private written(scope: Scope, open: boolean): void {
    const key = scopeKey(scope);
    this.none.delete(key);
    if (open) this.some.add(key);
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
  }

  private forgetAll(): void {
    this.none.clear();
    for (const key of this.some) this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    this.some.clear();
  }

  /** False only when the environment is known to have no open trip. */
  async mayHaveOpenTrips(scope: Scope): Promise<boolean> {
    const key = scopeKey(scope);
    if (this.none.has(key)) return false;
    if (this.some.has(key)) return true;
    const before = this.writes.get(key) ?? 0;
    const { docs } = await this.store.list(TRIPS, scope, { limit: 1, sortBy: 'createdAt', equals: { status: [...OPEN_STATUSES] } });
    if ((this.writes.get(key) ?? 0) !== before) return true;
    if (docs.length === 0) this.none.add(key);
    else this.some.add(key);
    return docs.length > 0;
  }
}
