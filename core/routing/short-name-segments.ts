// The last fold of a leg's steps, after OSRM's guidance (its verbosity reduction, read in
// Project-OSRM/osrm-backend): a `new name` step is not worth announcing when it names the road the
// driver is already on (a name that only gains a directional word, the same ref), or when the name
// lasts under NAME_SEGMENT_CUTOFF_METRES (OSRM's constant, 105 m) before the next maneuver or the
// arrival. Such a step joins the step before it, which keeps its own name: a 100 m motorway stretch
// between two primaries is driven without a word, and the arrival names the road it ends on.
import type { OsrmStep } from './route-shapes';
import { haveSameName } from './name-changes';

const NAME_SEGMENT_CUTOFF_METRES = 105;

export function suppressShortNameSegments(steps: OsrmStep[]): OsrmStep[] {
  const out: OsrmStep[] = [];
  for (const step of steps) {
    const previous = out[out.length - 1];
    const foldable = previous !== undefined && step.maneuver.type === 'new name' && step.mode === previous.mode
      && (haveSameName(previous, step) || step.distance < NAME_SEGMENT_CUTOFF_METRES);
    if (!foldable) {
      out.push(step);
      continue;
    }
    out[out.length - 1] = {
      ...previous,
      distance: previous.distance + step.distance,
      duration: previous.duration + step.duration,
      geometry: [...previous.geometry, ...step.geometry.slice(1)],
    };
  }
  return out;
}
