// A place as the API shows it (Radar's place shape): `_id`, `name`, `categories`, `chain` with `name`,
// `slug` and, from the Places settings, `externalId` and `metadata`; `location` as a GeoJSON point.
import type { Place } from '../../../core/places/place';
import type { PlacesSettings } from './places-settings';

export function placeView(place: Place, settings: PlacesSettings): Record<string, unknown> {
  const out: Record<string, unknown> = { _id: place._id, name: place.name, categories: [...place.categories] };
  if (place.chain) {
    const chain: Record<string, unknown> = { name: place.chain.name, slug: place.chain.slug };
    const externalId = settings.externalIds.get(place.chain.slug);
    if (externalId !== undefined) chain.externalId = externalId;
    const metadata = settings.metadata.get(place.chain.slug);
    if (metadata !== undefined) chain.metadata = { ...metadata };
    out.chain = chain;
  }
  if (place.iata !== undefined) out.iataCode = place.iata;
  out.location = { type: 'Point', coordinates: [place.lng, place.lat] };
  return out;
}
