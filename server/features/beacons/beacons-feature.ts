// Beacons as a gateway feature: the beacon endpoints, which keep the in-memory index of each
// environment current, and the beacons step of track. Listed after regions and before trips and
// webhooks in features.ts, so webhooks deliver beacon events.
import type { Feature } from '../../feature';
import type { Store } from '../../../ports/store';
import { BeaconDirectory } from './beacon-directory';
import { beaconRoutes } from './beacons-routes';
import { BeaconsTrackStep } from './beacons-track-step';

export const beaconsFeature: Feature<{ store: Store }> = {
  name: 'beacons',
  setup(context) {
    const directory = new BeaconDirectory(context.store);
    return {
      routes: beaconRoutes(context.store, directory),
      trackSteps: [new BeaconsTrackStep(directory)],
    };
  },
};
