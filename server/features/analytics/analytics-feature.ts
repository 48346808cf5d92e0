// Analytics as a gateway feature: its collection of per-day summaries and GET /v1/data/analytics. It
// adds nothing to the track path: summaries are computed from stored events when first asked for.
import type { Feature } from '../../feature';
import type { Store } from '../../../ports/store';
import { ANALYTICS_DAYS, AnalyticsService } from './analytics-service';
import { analyticsRoutes } from './analytics-routes';

interface AnalyticsNeeds {
  store: Store;
}

export const analyticsFeature: Feature<AnalyticsNeeds> = {
  name: 'analytics',
  collections: [ANALYTICS_DAYS],
  setup(context) {
    return { routes: analyticsRoutes(new AnalyticsService(context.store)) };
  },
};
