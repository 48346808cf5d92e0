// Trips as a gateway feature: endpoints, the track step and the expiry job (its period follows
// WAYMARK_JOB_INTERVAL_MS; 0 turns it off, and tests then run it through the instance's jobs). Its
// track step runs before the webhooks feature's, so trip events of an update are delivered too.
import type { Feature } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { EventOutbox } from '../../../ports/event-outbox';
import type { Geofences } from '../../../ports/geofences';
import type { Logger } from '../../../ports/logger';
import type { Router } from '../../../ports/router';
import type { Store } from '../../../ports/store';
import { TripService, type ProjectSettingsSource } from './trip-service';
import { TripTrackStep } from './trip-track-step';
import { tripRoutes } from './trips-routes';

interface TripsNeeds {
  config: Pick<GatewayConfig, 'jobIntervalMs'>;
  store: Store;
  geofences: Geofences;
  router: Router;
  projects: ProjectSettingsSource;
  logger: Logger;
  outbox: EventOutbox;
}

export const tripsFeature: Feature<TripsNeeds> = {
  name: 'trips',
  setup(context) {
    // Events of PATCH, create-with-status and expiry reach webhooks through the same outbox as track's.
    const trips = new TripService(
      context.store, context.geofences, context.router, context.projects, context.logger,
      (scope, events, user) => context.outbox.opsFor(scope, events, user),
    );
    return {
      routes: tripRoutes(trips),
      trackSteps: [new TripTrackStep(trips)],
      jobs: [{ periodMs: context.config.jobIntervalMs, job: { name: 'trip-expiry', run: (now) => trips.expireDue(now) } }],
    };
  },
};
