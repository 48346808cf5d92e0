// The places feature as the others reach it: the place at a point (context), places near a point (SDK
// region sync) and the place an event's verification names, each as the API shows it under the project's
// Places settings. The places feature implements it (server/features/places/places-service.ts).
import type { LngLat } from '../core/types';
import type { EventDoc } from '../core/model/event';
import type { Scope } from './store';
import type { PlaceView } from '../core/model/shown';

export interface PlaceViews {
  placeAt(scope: Scope, point: LngLat, now: Date): Promise<PlaceView | null>;
  near(scope: Scope, point: LngLat, radiusM: number, limit: number, now: Date): Promise<PlaceView[]>;
  /** The place object for `placeId` (the event's own, else an imported one), or undefined. */
  verifiedPlace(scope: Scope, event: EventDoc, placeId: string, now: Date): Promise<PlaceView | undefined>;
}
