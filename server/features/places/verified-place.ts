// The place an event's verification names (PUT /v1/events/:id/verification with verifiedPlaceId): the
// SDK picks it from the event's place or alternatePlaces, whose objects the event already holds as
// they were then; any other id is looked up among the imported places.
import type { Scope } from '../../../ports/store';
import type { EventDoc } from '../../../core/model/event';
import { placeView } from './place-view';
import type { Place } from '../../../core/places/place';
import type { PlacesSettings } from './places-settings';
import type { PlaceView } from '../../../core/model/shown';

/** What the lookup reads of the places service (PlacesService.verifiedPlace). */
interface ImportedPlaces {
  get(id: string, now: Date): Place | undefined;
  settings(scope: Scope): Promise<PlacesSettings>;
}

function placesOn(event: EventDoc): PlaceView[] {
  const out: PlaceView[] = [];
  // Stored events are JSON written by older versions too: only objects count as places.
  const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (event.place && isObject(event.place)) out.push(event.place);
  if (Array.isArray(event.alternatePlaces)) out.push(...event.alternatePlaces.filter(isObject));
  return out;
}

/** The place object for `placeId`, or undefined when neither the event nor the imported places know it. */
export async function verifiedPlace(places: ImportedPlaces, scope: Scope, event: EventDoc, placeId: string, now: Date): Promise<PlaceView | undefined> {
  const onEvent = placesOn(event).find((p) => p._id === placeId);
  if (onEvent) return onEvent;
  const imported = places.get(placeId, now);
  return imported ? placeView(imported, await places.settings(scope)) : undefined;
}
