// One place mapped twice: OSM often has a POI's node and its building outline both tagged with the same
// name and kind (east Baltimore's "Johns Hopkins Hospital" is both, 20 m apart), and search listed it
// twice (issue 32). Of two places with the same name and categories this close, the first (nearest
// to the query) stays. Chains keep a tighter bound: two branches of one chain can be a block apart.
import { haversineMeters } from '../../../core/geo/sphere';
import type { NearbyPlace } from '../../../core/places/place-index';

const TWIN_METERS = 150;
const CHAIN_TWIN_METERS = 40;

export function withoutTwins(found: readonly NearbyPlace[]): NearbyPlace[] {
  const kept: NearbyPlace[] = [];
  for (const candidate of found) {
    const p = candidate.place;
    const bound = p.chain ? CHAIN_TWIN_METERS : TWIN_METERS;
    const twin = kept.some(({ place: k }) => k.name === p.name && k.chain?.slug === p.chain?.slug
      && k.categories.join() === p.categories.join() && haversineMeters([k.lng, k.lat], [p.lng, p.lat]) <= bound);
    if (!twin) kept.push(candidate);
  }
  return kept;
}
