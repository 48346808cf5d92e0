// Places for the API: search (GET /v1/search/places), the place at a point (context), places near a
// point (SDK region sync) and a place by id (geofences made from a placeId). Settings are read per
// call: a PATCH of /v1/settings takes effect on the next request.
import type { Scope, Store } from '../../../ports/store';
import type { EventDoc } from '../../../core/model/event';
import type { PlaceViews } from '../../../ports/places';
import { haversineMeters } from '../../../core/geo/sphere';
import { detectPlace } from '../../../core/places/place-detection';
import type { NearbyPlace, PlaceIndex } from '../../../core/places/place-index';
import type { Place, PlaceKind } from '../../../core/places/place';
import type { LngLat, Metadata } from '../../../core/types';
import type { CurrentPlaces } from '../../../adapters/places/embedded/current-places';
import { placeView } from './place-view';
import { withoutTwins } from './place-twins';
import { readPlacesSettings, type PlacesSettings } from './places-settings';
import type { SearchPlacesInput } from './search-places-input';
import { verifiedPlace } from './verified-place';
import type { PlaceView } from '../../../core/model/shown';

/** Most candidates examined around a point for "which place is this": plenty for a city block. */
const CANDIDATES_AT_POINT = 50;

export class PlacesService implements PlaceViews {
  constructor(
    private readonly store: Store,
    readonly current: CurrentPlaces,
  ) {}

  settings(scope: Scope): Promise<PlacesSettings> {
    return readPlacesSettings(this.store, scope);
  }

  index(now: Date): PlaceIndex {
    return this.current.current(now.getTime());
  }

  async search(scope: Scope, q: SearchPlacesInput, now: Date): Promise<PlaceView[]> {
    const settings = await this.settings(scope);
    if (q.iataCode !== undefined) {
      const airports = this.current.airports(q.iataCode, now.getTime());
      const near = q.near;
      const sorted = near ? [...airports].sort((a, b) => haversineMeters(near, [a.lng, a.lat]) - haversineMeters(near, [b.lng, b.lat])) : airports;
      return sorted.slice(0, q.limit).map((p) => placeView(p, settings));
    }
    // Callers may name chains by their own IDs (chainMappings) as well as by slug.
    const chains = q.chains ? new Set(q.chains.map((c) => settings.slugsByExternalId.get(c) ?? c)) : undefined;
    const categories = q.categories;
    const wanted = q.chainMetadata;
    const filter = (p: PlaceKind): boolean => {
      const byChain = chains !== undefined && p.chain !== undefined && chains.has(p.chain.slug);
      const byCategory = categories !== undefined && p.categories.some((c) => categories.includes(c));
      if (!byChain && !byCategory) return false;
      return wanted === undefined || metadataMatches(p.chain ? settings.metadata.get(p.chain.slug) : undefined, wanted);
    };
    // Asked for a few more than the limit: twins dropped must not shorten the list.
    const found = this.index(now).near(q.near!, { radiusM: q.radius, limit: q.limit * 2, filter });
    return withoutTwins(found).slice(0, q.limit).map(({ place }) => placeView(place, settings));
  }

  /** Places within radiusM of a point, nearest first, in the API's shape. */
  async near(scope: Scope, point: LngLat, radiusM: number, limit: number, now: Date): Promise<PlaceView[]> {
    const settings = await this.settings(scope);
    return this.index(now).near(point, { radiusM, limit }).map(({ place }) => placeView(place, settings));
  }

  /** Candidates for "which place is the user in": every place whose area may reach the point. */
  candidates(point: LngLat, accuracyM: number, now: Date, filter?: (p: PlaceKind) => boolean): NearbyPlace[] {
    const index = this.index(now);
    if (index.size === 0) return [];
    // The accuracy disk can touch an area from farther out; capped so a 10 km accuracy is not a city scan.
    const radiusM = Math.min(this.current.reachM + Math.min(accuracyM, 1000), 20_000);
    return index.near(point, { radiusM, limit: CANDIDATES_AT_POINT, filter });
  }

  /** The place at a point (context): the detection rules without a previous visit or stop detection. */
  async placeAt(scope: Scope, point: LngLat, now: Date): Promise<PlaceView | null> {
    const candidates = this.candidates(point, 0, now);
    if (candidates.length === 0) return null;
    const found = detectPlace({
      location: point, accuracy: 0, stopped: true, foreground: true, at: now, stopDetection: false, candidates, previous: undefined, lookup: () => undefined,
    });
    return found.place ? placeView(found.place, await this.settings(scope)) : null;
  }

  get(id: string, now: Date): Place | undefined {
    return this.index(now).get(id);
  }

  verifiedPlace(scope: Scope, event: EventDoc, placeId: string, now: Date): Promise<PlaceView | undefined> {
    return verifiedPlace(this, scope, event, placeId, now);
  }
}

/** chainMetadata[key] filters: each wanted value equals the chain's (a stored "true" matches true). */
function metadataMatches(have: Metadata | undefined, wanted: Metadata): boolean {
  if (have === undefined) return false;
  for (const [key, value] of Object.entries(wanted)) {
    const v = have[key];
    if (v === undefined) return false;
    if (v !== value && String(v) !== String(value)) return false;
  }
  return true;
}
