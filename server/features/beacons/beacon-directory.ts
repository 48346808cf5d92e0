// The beacon index of each project environment, for track: loaded from the Store on first use, then
// kept current by the beacon endpoints, which report every put and delete here. Beacons written by
// another process (another gateway node, announced by the store) drop the environment's index: it is
// read again on next use (an environment has a few hundred beacons, not geofences' hundred thousand).
import type { RemoteChange, Scope, Store } from '../../../ports/store';
import type { BeaconDoc } from '../../../core/model/beacon';
import { BEACONS } from '../../api/collections';
import { scopeKey } from '../../../adapters/store/scope-key';
import { BeaconIndex, type IndexedBeacon } from '../../../core/beacons';

interface Loaded {
  /** Every stored beacon, disabled ones too (an update may enable them). */
  docs: Map<string, IndexedBeacon>;
  index: BeaconIndex;
}

export class BeaconDirectory {
  private readonly loaded = new Map<string, Promise<Loaded>>();

  constructor(private readonly store: Store) {
    store.onRemoteChange((change) => this.remoteChange(change));
  }

  private remoteChange(change: RemoteChange): void {
    if (change.collection === '*') this.loaded.clear();
    else if (change.collection === 'beacons' && change.scope) this.loaded.delete(scopeKey(change.scope));
  }

  async index(scope: Scope): Promise<BeaconIndex> {
    return (await this.entry(scope)).index;
  }

  /** After a beacon was written: the index is rebuilt from memory, without reading the Store. */
  put(scope: Scope, doc: BeaconDoc): void {
    this.change(scope, (docs) => docs.set(doc._id, doc));
  }

  deleted(scope: Scope, id: string): void {
    this.change(scope, (docs) => docs.delete(id));
  }

  private change(scope: Scope, edit: (docs: Map<string, IndexedBeacon>) => void): void {
    const key = scopeKey(scope);
    const current = this.loaded.get(key);
    // Not loaded yet: the first load reads the Store after this write and sees it.
    if (!current) return;
    // Chained on the load so a change made while it runs is applied after it, never lost.
    this.loaded.set(key, current.then(({ docs }) => {
      edit(docs);
      return { docs, index: new BeaconIndex([...docs.values()]) };
    }));
  }

  private entry(scope: Scope): Promise<Loaded> {
    const key = scopeKey(scope);
    let entry = this.loaded.get(key);
    if (!entry) {
      entry = (async () => {
        const docs = new Map<string, IndexedBeacon>();
        await this.store.scan(BEACONS, scope, (batch) => {
          for (const d of batch) docs.set(d._id, d);
        });
        return { docs, index: new BeaconIndex([...docs.values()]) };
      })();
      // A failed load is not cached: the next update tries again.
      entry.catch(() => this.loaded.delete(key));
      this.loaded.set(key, entry);
    }
    return entry;
  }
}
