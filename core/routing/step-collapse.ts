// The step list after OSRM's guidance post-processing (its collapse_turns): a short step between two
// maneuvers is not one a driver can follow (crossing the median of a divided road, a jog onto the far
// carriageway), so it is folded into the maneuver after it: one step at the first maneuver's place,
// leading onto the road of the second. As OSRM, only steps up to MAX_COLLAPSE_DISTANCE (its constant,
// 30 m), and only when both turns go to one side (a u-turn in two halves), the short step is a mere
// name change, or the next one goes straight on; a zig-zag (right, then left) stays two steps, as
// OSRM folds those only under 3 m. An unnamed link up to twice that long between two stretches of one
// road is folded too (OSRM's link-road u-turn).
import type { OsrmStep } from './route-shapes';
import { modifierOf, turnAngle } from './geometry';

const MAX_COLLAPSE_METRES = 30;

/** Maneuvers a short step may be folded into (not the route's ends, ferries or roundabouts). */
const FOLDABLE = new Set(['turn', 'new name', 'continue', 'end of road', 'fork', 'merge', 'on ramp', 'off ramp']);

/** Both turns to one side (a straight one counts as either), as OSRM's areSameSide. */
function sameSide(a: OsrmStep, b: OsrmStep): boolean {
  const side = (s: OsrmStep, word: string) => (s.maneuver.modifier ?? 'straight') === 'straight' || (s.maneuver.modifier ?? '').includes(word);
  return (side(a, 'left') && side(b, 'left')) || (side(a, 'right') && side(b, 'right'));
}

export function collapseShortSteps(steps: OsrmStep[]): OsrmStep[] {
  const out = [...steps];
  for (let i = 1; i + 1 < out.length; ) {
    const short = out[i];
    const next = out[i + 1];
    const before = out[i - 1];
    // An unnamed link between two stretches of one road (turning back over a divided road's median).
    const link = short.name === '' && short.distance <= 2 * MAX_COLLAPSE_METRES && before.name !== '' && before.name === next.name
      && FOLDABLE.has(short.maneuver.type) && FOLDABLE.has(next.maneuver.type);
    const foldable = link || short.distance <= MAX_COLLAPSE_METRES && FOLDABLE.has(short.maneuver.type) && FOLDABLE.has(next.maneuver.type)
      && short.mode === next.mode && short.maneuver.modifier !== 'uturn'
      && (sameSide(short, next) || short.maneuver.type === 'new name' || next.maneuver.modifier === 'straight');
    if (!foldable) {
      i++;
      continue;
    }
    const angle = turnAngle(short.maneuver.bearing_before, next.maneuver.bearing_after);
    const modifier = modifierOf(angle);
    const merged: OsrmStep = {
      ...next,
      distance: short.distance + next.distance,
      duration: short.duration + next.duration,
      geometry: [...short.geometry, ...next.geometry.slice(1)],
      maneuver: {
        ...short.maneuver,
        type: modifier === 'uturn' ? 'continue' : short.maneuver.type === 'new name' && modifier !== 'straight' ? 'turn' : short.maneuver.type,
        modifier,
        bearing_after: next.maneuver.bearing_after,
      },
    };
    out.splice(i, 2, merged);
  }
  return out;
}
