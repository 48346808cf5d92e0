// The places step of a track update. With the project's `places` setting on, the user's place is
// found by the detection rules (engine/places/place-detection.ts) among the places that pass the
// environment's placeFilters; the update gains user.entered_place / user.exited_place events and the
// user carries `place` while in one. With the setting off the user has no `place` and no place state.
import type { TrackStep, TrackUpdate } from '../../track-step';
import { detectPlace, type PlaceVisit } from '../../../core/places/place-detection';
import { placeView } from './place-view';
import { passesPlaceFilters } from './places-settings';
import type { PlacesService } from './places-service';

export class PlacesTrackStep implements TrackStep {
  constructor(private readonly places: PlacesService) {}

  async run(update: TrackUpdate): Promise<void> {
    const { ctx, input, previous, user } = update;
    delete user.place;
    if (!ctx.settings.places) {
      delete user._place;
      return;
    }
    const settings = await this.places.settings(ctx.scope);
    const filter = (p: Parameters<typeof passesPlaceFilters>[0]) => passesPlaceFilters(p, settings.filters);
    const index = this.places.index(ctx.now);
    const result = detectPlace({
      location: input.location,
      accuracy: input.accuracy,
      stopped: input.stopped ?? false,
      foreground: input.foreground ?? false,
      at: update.at,
      stopDetection: ctx.settings.stopDetection,
      candidates: this.places.candidates(input.location, input.accuracy, ctx.now, filter),
      previous: previous?._place as PlaceVisit | undefined,
      // A place dropped from the filters since the entry ends the visit like one gone from the data.
      lookup: (id) => {
        const p = index.get(id);
        return p && filter(p) ? p : undefined;
      },
    });
    for (const e of result.events) {
      if (e.type === 'user.entered_place') {
        update.newEvent(e.type, { place: placeView(e.place, settings), alternatePlaces: e.alternatePlaces.map((p) => placeView(p, settings)), confidence: e.confidence });
      } else {
        update.newEvent(e.type, { place: placeView(e.place, settings), confidence: e.confidence, duration: e.duration });
      }
    }
    if (result.visit) user._place = result.visit;
    else delete user._place;
    if (result.place) user.place = placeView(result.place, settings);
  }
}
