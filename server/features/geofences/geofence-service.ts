// Geofence writes and the in-memory spatial index that track and search read. The index of a project
// environment loads from the Store on first use and is kept current on every write, delete and expiry
// made through this service, and on those other nodes announce through the store (PostgreSQL
// LISTEN/NOTIFY): the changed geofences are read again, or the whole index when a change was too big
// to list or the announcements were interrupted.
import { RouterRejected, RouterUnavailable } from '../../../adapters/router/engine-errors';
import { OutsideNetwork, RouterLoading, type RouterMode } from '../../../ports/router';
import type { Geofences } from '../../../ports/geofences';
import { put, remove, type RemoteChange, type Scope, type Store } from '../../../ports/store';
import { GEOFENCES } from '../../api/collections';
import type { GeofenceDoc } from '../../../core/model/geofence';
import { scopeKey } from '../../../adapters/store/scope-key';
import { GeofenceIndex, type PreparedGeofence } from '../../../core/geofencing';
import { prepareForIndex } from '../../../core/geofencing/geofence-index';
import { newObjectId } from '../../../core/object-id';
import { LeastRecentlyUsed } from '../../../core/cache/least-recently-used';
import type { Geofence, LngLat } from '../../../core/types';
import { MAX_ISOCHRONE_MINUTES, MIN_ISOCHRONE_MINUTES, TRAVEL_MODES, type GeofenceInput, type GeofenceInputOptions, type PlaceShape } from '../../../core/input/geofence-input';
import { EngineLoading } from '../../http/errors';

export type ZoneLookup = (point: LngLat) => string | undefined;

/** Where GeofenceService.preload is: environments found and built, geofences read so far. */
export interface PreloadProgress {
  environments: number;
  built: number;
  geofences: number;
}

export class GeofenceService implements Geofences {
  private readonly indexes = new Map<string, Promise<GeofenceIndex>>();
  /** Geofences read so far by each index load still reading, by scope key. */
  private readonly readCounts = new Map<string, number>();
  /** Set by the places feature: the geometry of a known place, for geofences written with placeId. */
  placeShape: ((placeId: string) => PlaceShape | undefined) | undefined = undefined;
  /** The latest refresh of each scope's index after other nodes' changes, so refreshes run in order. */
  private readonly refreshes = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly zoneAt: ZoneLookup = () => undefined,
  ) {
    store.onRemoteChange((change) => this.remoteChange(change));
  }

  private remoteChange(change: RemoteChange): void {
    if (change.collection === '*') {
      this.indexes.clear();
      return;
    }
    if (change.collection !== 'geofences' || !change.scope) return;
    const { scope, ids } = change;
    const key = scopeKey(scope);
    const loading = this.indexes.get(key);
    // Not loaded here: the first use will read the current set anyway.
    if (!loading) return;
    if (!ids) {
      this.indexes.delete(key);
      return;
    }
    // After the load (which may or may not have seen the change) and after earlier notices of the scope
    // (so an older read never lands after a newer one), read each geofence as it is now.
    const previous = this.refreshes.get(key) ?? Promise.resolve();
    const refresh = previous.then(() => loading).then(async (index) => {
      for (const id of ids) {
        const doc = await this.store.get(GEOFENCES, scope, id);
        if (doc) index.set(doc);
        else index.delete(id);
      }
    }).catch(() => {
      // A failed read leaves the index unsure of these geofences: read it all again on next use.
      if (this.indexes.get(key) === loading) this.indexes.delete(key);
    }).finally(() => {
      if (this.refreshes.get(key) === refresh) this.refreshes.delete(key);
    });
    this.refreshes.set(key, refresh);
  }

  /**
   * The index of one project environment, loaded once; requests asking for it while it loads wait for
   * that load (shared, not repeated). `onRead` hears how many geofences each batch read, when this call
   * starts the load. The read yields to the event loop between the store's batches (a SQLite scan does),
   * so other requests are answered while it runs; a write or delete meanwhile is applied to the index once
   * the load ends (save() and remove() wait for it), whether or not the scan saw it.
   */
  index(scope: Scope, onRead?: (geofences: number) => void): Promise<GeofenceIndex> {
    const key = scopeKey(scope);
    let loading = this.indexes.get(key);
    if (!loading) {
      loading = (async () => {
        const fences: PreparedGeofence[] = [];
        this.readCounts.set(key, 0);
        try {
          await this.store.scan(GEOFENCES, scope, (docs) => {
            // Prepared as read: each batch of full documents (rings and all) is garbage at once.
            for (const d of docs) fences.push(prepareForIndex(d, true));
            this.readCounts.set(key, fences.length);
            onRead?.(docs.length);
          });
        } finally {
          this.readCounts.delete(key);
        }
        const index = new GeofenceIndex();
        // One piece: packing the tree is ~50 ms at 100,000 geofences, against 2.2–2.8 CPU-s for the read.
        index.loadPrepared(fences);
        return index;
      })();
      loading.catch(() => this.indexes.delete(key));
      this.indexes.set(key, loading);
    }
    return loading;
  }

  /** Geofences read so far by the load of this scope's index while it is being read, else undefined. */
  reading(scope: Scope): number | undefined {
    return this.readCounts.get(scopeKey(scope));
  }

  /**
   * Builds the index of every project environment the store holds, one after another, so that the first
   * request of an environment (a dashboard's first map, a first track update after a restart) does not
   * pay for it (issue 33). Run once the gateway listens; a scope whose index a request asked for meanwhile
   * is not built twice (index() shares the load). Each environment's read yields between the store's
   * batches, so requests that do not need the index being built are answered while it builds, and those
   * that do wait for it. `progress` hears the environments found, then after each batch the geofences read
   * so far. Resolves to what it built.
   */
  async preload(progress?: (p: PreloadProgress) => void): Promise<{ environments: number; geofences: number }> {
    const projects = await this.store.projects.list();
    const state: PreloadProgress = { environments: projects.length * 2, built: 0, geofences: 0 };
    progress?.({ ...state });
    let geofences = 0;
    for (const project of projects) {
      for (const live of [false, true]) {
        const index = await this.index({ projectId: project._id, live }, (read) => {
          state.geofences += read;
          progress?.({ ...state });
        });
        // Counted from the index: a load a request started meanwhile reported nothing here.
        geofences += index.size;
        state.built++;
        state.geofences = geofences;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return { environments: state.built, geofences };
  }

  private addressPlacer?: (body: Record<string, unknown>) => Promise<Record<string, unknown>>;

  /** Set by the geocoding feature: turns a body's `address` into coordinates (server/features/geocode/geofence-address.ts). */
  placeAddressesWith(placer: (body: Record<string, unknown>) => Promise<Record<string, unknown>>): void {
    this.addressPlacer = placer;
  }

  private isochroneMaker?: (center: LngLat, mode: RouterMode, minutes: number) => Promise<LngLat[]>;
  /** Outlines (or why there is none) computed by prepareBody, for the parser; oldest dropped first. */
  private readonly isochrones = new LeastRecentlyUsed<string, LngLat[] | string>(MAX_CACHED_ISOCHRONES);

  /** Set at start-up with the router: the outline of the area reachable within minutes. */
  makeIsochronesWith(maker: (center: LngLat, mode: RouterMode, minutes: number) => Promise<LngLat[]>): void {
    this.isochroneMaker = maker;
  }

  /**
   * The work a geofence body needs before the (synchronous) parser: `coordinates` from its `address`
   * when a geocoder is installed, and an isochrone's outline from the router. Anything malformed is
   * left for the parser to report.
   */
  async prepareBody(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const placed = this.addressPlacer ? await this.addressPlacer(body) : body;
    const wanted = isochroneRequest(placed);
    if (wanted && this.isochroneMaker && !this.isochrones.has(wanted.key)) {
      let shape: LngLat[] | string;
      try {
        shape = await this.isochroneMaker(wanted.center, wanted.mode, wanted.minutes);
      } catch (err) {
        // A network still being read: the geofence is not written without its outline; the client retries.
        if (err instanceof RouterLoading) throw new EngineLoading('The routing engine', err.message, err.retryAfterSeconds);
        if (!(err instanceof OutsideNetwork || err instanceof RouterRejected || err instanceof RouterUnavailable)) throw err;
        shape = `no ${wanted.mode} road network reaches (${wanted.center[1]},${wanted.center[0]}) to compute the isochrone: ${err.message}`;
      }
      this.isochrones.set(wanted.key, shape);
    }
    return placed;
  }

  readonly isochroneShape = (center: LngLat, mode: string, minutes: number): LngLat[] | string | undefined =>
    this.isochroneMaker ? this.isochrones.get(isochroneKey(center, mode, minutes)) : undefined;

  /** The parser's options for this service's places and isochrones. */
  inputOptions(mode: GeofenceInputOptions['mode']): GeofenceInputOptions {
    return { mode, placeShape: this.placeShape, isochroneShape: this.isochroneShape };
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

  private doc(g: Geofence): GeofenceDoc {
    // deleteAfter doubles as the Store's due date so the expiry job finds it without a scan.
    return { ...g, expiresAt: g.deleteAfter };
  }

  async save(scope: Scope, geofences: Geofence[]): Promise<void> {
    await this.store.write(geofences.map((g) => put(GEOFENCES, scope, this.doc(g))));
    const index = await this.index(scope);
    for (const g of geofences) index.set(g);
  }

  async remove(scope: Scope, ids: string[]): Promise<void> {
    await this.store.write(ids.map((id) => remove(GEOFENCES, scope, id)));
    const index = await this.index(scope);
    for (const id of ids) index.delete(id);
  }

  async findByKey(scope: Scope, tag: string, externalId: string): Promise<GeofenceDoc | undefined> {
    return this.store.findOne(GEOFENCES, scope, { tag, externalId });
  }

  /** Deletes every geofence whose deleteAfter has passed; returns how many. */
  async deleteExpired(now: Date, batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.store.due(GEOFENCES, now.toISOString(), batch);
      if (due.length === 0) return total;
      for (const { scope, doc } of due) await this.remove(scope, [doc._id]);
      total += due.length;
      if (due.length < batch) return total;
    }
  }
}

/** Isochrone outlines kept between prepareBody and the parser (a CSV import of many isochrones reuses them). */
const MAX_CACHED_ISOCHRONES = 1000;

function isochroneKey(center: LngLat, mode: string, minutes: number): string {
  return `${center[0].toFixed(7)},${center[1].toFixed(7)},${mode},${minutes}`;
}

/** Centre, mode and minutes of an isochrone body when they read as such; the parser judges the rest. */
function isochroneRequest(body: Record<string, unknown>): { key: string; center: LngLat; mode: RouterMode; minutes: number } | undefined {
  if (typeof body.type !== 'string' || body.type.trim().toLowerCase() !== 'isochrone') return undefined;
  let coordinates = body.coordinates;
  if (typeof coordinates === 'string') {
    try {
      coordinates = JSON.parse(coordinates);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(coordinates) || coordinates.length < 2) return undefined;
  const center: LngLat = [Number(coordinates[0]), Number(coordinates[1])];
  const minutes = Number(body.radius);
  const mode = typeof body.mode === 'string' ? body.mode.trim().toLowerCase() : '';
  if (!center.every(Number.isFinite) || Math.abs(center[0]) > 180 || Math.abs(center[1]) > 90) return undefined;
  if (!Number.isFinite(minutes) || minutes < MIN_ISOCHRONE_MINUTES || minutes > MAX_ISOCHRONE_MINUTES) return undefined;
  if (!(TRAVEL_MODES as readonly string[]).includes(mode)) return undefined;
  return { key: isochroneKey(center, mode, minutes), center, mode: mode as RouterMode, minutes };
}
