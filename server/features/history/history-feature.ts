// Location history as a gateway feature: the endpoints reading one user's history and events, and the
// job deleting rows past their retention (period WAYMARK_JOB_INTERVAL_MS; 0 turns it off and tests run
// it through the instance's jobs). The rows themselves are written by track, in the update's own write
// (track-service.ts), and a deleted user's by DELETE /v1/users/:id; the collection is a core one
// (collections.ts LOCATIONS) because both of those write it.
import type { Feature } from '../../feature';
import type { GatewayConfig } from '../../config';
import type { Store } from '../../../ports/store';
import { deleteExpiredLocations } from '../../api/location-history';
import { historyRoutes } from './history-routes';

interface HistoryNeeds {
  config: Pick<GatewayConfig, 'jobIntervalMs'>;
  store: Store;
}

export const historyFeature: Feature<HistoryNeeds> = {
  name: 'history',
  setup({ config, store }) {
    return {
      routes: historyRoutes(store),
      jobs: [{ periodMs: config.jobIntervalMs, job: { name: 'location-expiry', run: (now) => deleteExpiredLocations(store, now) } }],
    };
  },
};
