// The installed features, in track-pipeline order (a feature's track steps see the events of those
// before it: webhooks must come last so they deliver every event of the update).
import type { Feature } from './feature';
import { geofenceImportFeature } from './api/geofence-import/geofence-import-feature';
import { tripsFeature } from './api/trips/trips-feature';
import { webhooksFeature } from './api/webhooks/webhooks-feature';

export const FEATURES: Feature[] = [
  tripsFeature,
  geofenceImportFeature,
  // Last: its track step turns every event of the update into outbox rows.
  webhooksFeature,
];
