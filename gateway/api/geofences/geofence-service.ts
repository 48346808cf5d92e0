// Geofence writes and the in-memory spatial index that track and search read. The index of a project
// environment loads from the Store on first use and is kept current on every write, delete and expiry
// made through this service. (Several gateway nodes sharing one PostgreSQL need change notifications
// to stay current; see docs/architecture.md.)
import type { Doc, Scope, Store } from '../../../adapters/store/port';
import { GeofenceIndex } from '../../engine/geofencing';
import { newObjectId } from '../../engine/object-id';
import type { Geofence, LngLat } from '../../engine/types';
import type { GeofenceInput } from './geofence-input';

export type ZoneLookup = (point: LngLat) => string | undefined;

/** Fields stored with a geofence that are ours, not the API's. */
const INTERNAL_FIELDS = ['projectId', 'timeZone', 'expiresAt'] as const;

/** Stored as arrays (the engine matches on them); the spec's Geofence types them as comma-separated strings. */
const LIST_FIELDS = ['userIds', 'ip'] as const;

export function publicGeofence(g: Geofence | Doc): Record<string, unknown> {
  const out: Record<string, unknown> = { ...g };
  for (const f of INTERNAL_FIELDS) delete out[f];
  for (const f of LIST_FIELDS) if (Array.isArray(out[f])) out[f] = (out[f] as unknown[]).join(',');
  return out;
}

function scopeKey(scope: Scope): string {
  return `${scope.projectId}:${scope.live ? 'live' : 'test'}`;
}

export class GeofenceService {
  private readonly indexes = new Map<string, Promise<GeofenceIndex>>();

  constructor(
    private readonly store: Store,
    private readonly zoneAt: ZoneLookup = () => undefined,
  ) {}

  /** The index of one project environment, loaded once. */
  index(scope: Scope): Promise<GeofenceIndex> {
    const key = scopeKey(scope);
    let loading = this.indexes.get(key);
    if (!loading) {
      loading = (async () => {
        const all: Geofence[] = [];
        await this.store.scan('geofences', scope, (docs) => {
          for (const d of docs) all.push(d as unknown as Geofence);
        });
        const index = new GeofenceIndex();
        index.load(all);
        return index;
      })();
      loading.catch(() => this.indexes.delete(key));
      this.indexes.set(key, loading);
    }
    return loading;
  }

  /** Builds the stored geofence for an input, keeping identity and creation time of `existing`. */
  build(scope: Scope, input: GeofenceInput, tag: string, externalId: string, existing: Geofence | undefined, now: Date): Geofence {
    const at = now.toISOString();
    const { tag: _tag, externalId: _externalId, address: _address, ...fields } = input;
    const g: Geofence = {
      ...fields,
      _id: existing?._id ?? newObjectId(now),
      projectId: scope.projectId,
      live: scope.live,
      tag,
      externalId,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    if (g.operatingHours) g.timeZone = this.zoneAt(g.geometryCenter.coordinates);
    return g;
  }

  private doc(g: Geofence): Doc {
    // deleteAfter doubles as the Store's due date so the expiry job finds it without a scan.
    return { ...g, expiresAt: g.deleteAfter } as unknown as Doc;
  }

  async save(scope: Scope, geofences: Geofence[]): Promise<void> {
    await this.store.write(geofences.map((g) => ({ op: 'put' as const, collection: 'geofences', scope, doc: this.doc(g) })));
    const index = await this.index(scope);
    for (const g of geofences) index.set(g);
  }

  async remove(scope: Scope, ids: string[]): Promise<void> {
    await this.store.write(ids.map((id) => ({ op: 'delete' as const, collection: 'geofences', scope, id })));
    const index = await this.index(scope);
    for (const id of ids) index.delete(id);
  }

  async findByKey(scope: Scope, tag: string, externalId: string): Promise<Geofence | undefined> {
    return (await this.store.findOne('geofences', scope, { tag, externalId })) as unknown as Geofence | undefined;
  }

  /** Deletes every geofence whose deleteAfter has passed; returns how many. */
  async deleteExpired(now: Date, batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.store.due('geofences', now.toISOString(), batch);
      if (due.length === 0) return total;
      for (const { scope, doc } of due) await this.remove(scope, [doc._id]);
      total += due.length;
      if (due.length < batch) return total;
    }
  }
}
