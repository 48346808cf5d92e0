// The beacons step of a track update: the ranged beacons of the body (`input.beacons`) against the
// environment's enabled beacons give `user.entered_beacon` / `user.exited_beacon` events and
// `user.beacons`. The entry and exit rule is in engine/beacons/beacon-transitions.ts. The user keeps
// `_beacons` (beacon ids with entry times) between updates.
import { beaconTransitions, type BeaconPresence } from '../../../core/beacons';
import type { TrackStep, TrackUpdate } from '../../track-step';
import type { BeaconDirectory } from './beacon-directory';
import { beaconView } from './beacon-view';

export class BeaconsTrackStep implements TrackStep {
  constructor(private readonly directory: BeaconDirectory) {}

  async run(update: TrackUpdate): Promise<void> {
    const { ctx, input, previous, user, at } = update;
    const before = (previous?._beacons as BeaconPresence[] | undefined) ?? [];
    // Most updates of most apps: no beacons ranged and none to leave, so no index to load.
    if (before.length === 0 && input.beacons === undefined) return;
    const index = await this.directory.index(ctx.scope);
    const t = beaconTransitions({ before, ranged: input.beacons, index, location: input.location, accuracy: input.accuracy, at });
    for (const exit of t.exited) update.newEvent('user.exited_beacon', { beacon: beaconView(exit.beacon), duration: exit.duration });
    for (const beacon of t.entered) update.newEvent('user.entered_beacon', { beacon: beaconView(beacon) });
    user._beacons = t.after;
    user.beacons = t.after.flatMap((p) => {
      const b = index.get(p.beaconId);
      return b ? [beaconView(b)] : [];
    });
  }
}
