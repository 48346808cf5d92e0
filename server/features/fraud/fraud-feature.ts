// Fraud as a gateway feature: the fraud step of track and the operator's per-user overrides. Its step
// must run after every other step but webhooks (features.ts): a held-back update undoes what the
// steps before it prepared, and webhooks must still deliver the `user.failed_fraud` event.
import type { Feature } from '../../feature';
import type { Store } from '../../../ports/store';
import type { IpLocator } from '../../../ports/ip-locator';
import type { Logger } from '../../../ports/logger';
import { fraudRoutes } from './fraud-routes';
import { FraudTrackStep } from './fraud-track-step';

export const fraudFeature: Feature<{ store: Store; ipLocator: IpLocator; logger: Logger }> = {
  name: 'fraud',
  setup(context) {
    return {
      routes: fraudRoutes(context.store),
      trackSteps: [new FraudTrackStep(context.ipLocator, context.logger)],
    };
  },
};
