// The regions step of a track update (DESIGN §3 step 7). With the project's `regions` setting on, the
// user carries `country`, `state`, `dma` and `postalCode` region objects for the new location, and a
// change of any of them adds user.exited_region_* / user.entered_region_* events carrying `region` and
// `confidence`. A user's first located update enters its regions, as a first geofence update does.
// With the setting off the user has none of these fields (regions kept from an earlier "on" period are
// dropped, silently) and no region events are made.
import type { TrackStep, TrackUpdate } from '../../track-step';
import type { CurrentRegions } from './current-regions';
import { regionConfidences } from './region-confidence';
import { USER_REGION_TYPES, regionTransitions, userRegionsOf } from './region-transitions';

export class RegionsTrackStep implements TrackStep {
  constructor(private readonly regions: CurrentRegions) {}

  async run(update: TrackUpdate): Promise<void> {
    const { ctx, input, previous, user } = update;
    for (const type of USER_REGION_TYPES) delete user[type];
    if (!ctx.settings.regions) return;

    const after = userRegionsOf(this.regions.lookup(input.location, ctx.now));
    const before = userRegionsOf(previous);
    const transitions = regionTransitions(before, after);
    const confidences = regionConfidences(transitions, input.location, input.accuracy, (p) => this.regions.lookup(p, ctx.now));
    transitions.forEach((t, i) => update.newEvent(t.type, { region: { ...t.region }, confidence: confidences[i] }));
    for (const type of USER_REGION_TYPES) {
      const region = after[type];
      if (region !== undefined) user[type] = { ...region };
    }
  }
}
