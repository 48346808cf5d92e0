// A place as the API shows it (Radar's place shape): `_id`, `name`, `categories`, `chain` with `name`,
// `slug` and, from the Places settings, `externalId` and `metadata`; `location` as a GeoJSON point.
import type { Place } from '../../../core/places/place';
import type { PlacesSettings } from './places-settings';
import type { PlaceView } from '../../../core/model/shown';

export function placeView(place: Place, settings: PlacesSettings): PlaceView {
  // Built in one literal with optional parts spread in place: the key order is the API's.
  let chain: PlaceView['chain'];
  if (place.chain) {
    const externalId = settings.externalIds.get(place.chain.slug);
    const metadata = settings.metadata.get(place.chain.slug);
    chain = {
      name: place.chain.name,
      slug: place.chain.slug,
      ...(externalId !== undefined ? { externalId } : {}),
      ...(metadata !== undefined ? { metadata: { ...metadata } } : {}),
    };
  }
  return {
    _id: place._id,
    name: place.name,
    categories: [...place.categories],
    ...(chain ? { chain } : {}),
    ...(place.iata !== undefined ? { iataCode: place.iata } : {}),
    location: { type: 'Point', coordinates: [place.lng, place.lat] },
  };
}
