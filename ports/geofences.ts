// The geofences feature as the other features reach it: track, trips, context and the data endpoints
// read a project's spatial index; the CSV import and place geofences write through it, so that the index
// stays current. The geofences feature implements it (server/features/geofences/geofence-service.ts).
import type { GeofenceIndex } from '../core/geofencing';
import type { GeofenceInput, GeofenceInputOptions, PlaceShape } from '../core/input/geofence-input';
import type { GeofenceDoc } from '../core/model/geofence';
import type { Geofence, LngLat } from '../core/types';
import type { RouterMode } from './router';
import type { Scope } from './store';

export interface Geofences {
  /** The project environment's index, loaded on first use and kept current by every write. */
  index(scope: Scope): Promise<GeofenceIndex>;
  /** A write body with its address placed and its isochrone computed, before the input rules read it. */
  prepareBody(body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The geometry of a known place, for geofences written with placeId (set by the places feature). */
  placeShape: ((placeId: string) => PlaceShape | undefined) | undefined;
  readonly isochroneShape: NonNullable<GeofenceInputOptions['isochroneShape']>;
  build(scope: Scope, input: GeofenceInput, tag: string, externalId: string, existing: Geofence | undefined, now: Date): Geofence;
  /** One atomic Store write, then the index. */
  save(scope: Scope, geofences: Geofence[]): Promise<void>;
  findByKey(scope: Scope, tag: string, externalId: string): Promise<GeofenceDoc | undefined>;
  /** The geocoder that turns a write's `address` into its centre (the geocode feature). */
  placeAddressesWith(placer: (body: Record<string, unknown>) => Promise<Record<string, unknown>>): void;
  /** The router that outlines isochrone geofences. */
  makeIsochronesWith(maker: (center: LngLat, mode: RouterMode, minutes: number) => Promise<LngLat[]>): void;
}
