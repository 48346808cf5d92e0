// The installed features, in track-pipeline order (a feature's track steps see the events of those
// before it: webhooks must come last so they deliver every event of the update).
import type { Feature } from '../feature';
import type { Services } from './services';
import { beaconsFeature } from '../features/beacons/beacons-feature';
import { fraudFeature } from '../features/fraud/fraud-feature';
import { geocodeFeature } from '../features/geocode/geocode-feature';
import { ipGeocodeFeature } from '../features/geocode/ip-geocode-feature';
import { placesFeature } from '../features/places/places-feature';
import { geofenceImportFeature } from '../features/geofence-import/geofence-import-feature';
import { regionsFeature } from '../features/regions/regions-feature';
import { tripsFeature } from '../features/trips/trips-feature';
import { webhooksFeature } from '../features/webhooks/webhooks-feature';

/** Each feature's setup gets the built services, of which it reads only what its Needs names. */
export const FEATURES: Array<Feature<Services>> = [
  // Before trips and webhooks: region events are part of the update they see.
  regionsFeature,
  // Before trips and webhooks, like regions: place events are part of the update they see.
  placesFeature,
  // Beacon endpoints and the beacons step; before trips and webhooks, which see its events.
  beaconsFeature,
  ipGeocodeFeature,
  geocodeFeature,
  tripsFeature,
  geofenceImportFeature,
  // After every other step but webhooks: a held-back update undoes what the steps before it prepared.
  fraudFeature,
  // Last: its track step turns every event of the update into outbox rows.
  webhooksFeature,
];
