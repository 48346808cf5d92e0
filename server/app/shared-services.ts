// The services more than one feature or route list uses, built once over the adapters: authentication,
// projects, geofences, track, places, the scheduler, the store-fault record and the event outbox. The
// composition root (index.ts) hands each feature and route list the ones it names, never this record.
import type { EventOutbox } from '../../ports/event-outbox';
import type { Logger } from '../../ports/logger';
import type { GatewayConfig } from '../config';
import { Authenticator } from '../http/auth';
import { StoreFaults } from '../http/store-faults';
import { Scheduler } from '../jobs/scheduler';
import { GeofenceService } from '../features/geofences/geofence-service';
import { PlacesService } from '../features/places/places-service';
import { ProjectService } from '../features/projects/project-service';
import { TrackService } from '../features/track/track-service';
import type { Adapters } from './adapters';

export interface SharedServices {
  auth: Authenticator;
  projects: ProjectService;
  geofences: GeofenceService;
  track: TrackService;
  /** The imported places as the API and the track step read them. */
  places: PlacesService;
  scheduler: Scheduler;
  /** Store faults requests met (full or read-only disk, lost database): 503s, readiness, a metric. */
  storeFaults: StoreFaults;
  /** Where events written outside the track step go to be delivered (the webhooks feature's outbox; none: no rows). */
  outbox: EventOutbox;
  /** Gives `outbox` the feature that keeps it; until then (and without one) it writes no rows. */
  provideOutbox(outbox: EventOutbox): void;
}

export function createSharedServices(config: GatewayConfig, adapters: Adapters, logger: Logger): SharedServices {
  const { store, timeZones, router } = adapters;
  const auth = new Authenticator(store);
  const projects = new ProjectService(store);
  projects.onChange((id) => auth.forget(id));
  // Keys rotated or settings changed by another node or the CLI (PostgreSQL): drop what auth cached.
  store.onRemoteChange((change) => {
    if (change.collection === 'projects' && change.projectId !== undefined) auth.forget(change.projectId);
    else if (change.collection === '*') auth.forgetAll();
  });
  // Operating hours are read in the geofence's own zone.
  const geofences = new GeofenceService(store, (point) => timeZones.zoneAt(point));
  const track = new TrackService(store, geofences, { hotUsers: config.trackHotUsers });
  geofences.makeIsochronesWith(async (center, mode, minutes) => (await router.isochrone({ center, mode, minutes }))[0]);
  // Features that write events (trips, conversions) are set up before the one that keeps the outbox
  // (webhooks, last in the pipeline); they use it only when serving, after every feature is set up.
  let provided: EventOutbox | undefined;
  return {
    auth, projects, geofences, track,
    places: new PlacesService(store, adapters.places),
    scheduler: new Scheduler(logger),
    storeFaults: new StoreFaults(store),
    outbox: { opsFor: async (...args) => (provided ? provided.opsFor(...args) : []) },
    provideOutbox: (outbox) => {
      provided ??= outbox;
    },
  };
}
