// The step list after OSRM's guidance post-processing (its collapse_turns, read in Project-OSRM/osrm-backend):
// two maneuvers in quick succession that a driver takes as one are folded into one step. Which pairs, as
// OSRM's collapse scenarios decide them, looking at the step before, the short step and the step after:
// - a u-turn in two halves over a divided road's median: both halves turn the driver around, the road
//   left and the road joined carry one name, and the middle is at most MAX_COLLAPSE_METRES with no
//   junction in it (or an unnamed link up to twice that, or the second half has no other way to go);
// - a name that comes and goes back (`A`, `B`, `A` by name changes only) is no step at all;
// - a short name change right before a maneuver joins the step before it;
// - a short maneuver right before a name change (or a straight turn) takes the new name;
// - a short turn followed by a junction with only one way on, or a short straight one followed by it;
// - a zig-zag (right then left) only under 3 m, where it is a staggered crossing.
// "Short" is MAX_COLLAPSE_METRES (OSRM's 30 m) and undisturbed (no junction driven through inside it). A
// short named street between two turns to one side onto other roads stays a step, as OSRM keeps it
// (`Key Highway, East McComas Street, ""`): only the u-turn case folds two turns to one side.
import type { OsrmStep } from './route-shapes';
import { modifierOf, turnAngle } from './geometry';
import { haveSameName } from './name-changes';

const MAX_COLLAPSE_METRES = 30;
/** OSRM's staggered intersection: a zig-zag shorter than this is one crossing. */
const MAX_STAGGERED_METRES = 3;
/** Two bearings within this of opposite make a u-turn (OSRM's bearingsAreReversed). */
const REVERSED_DEGREES = 35;

/** What a step meets: ways open at its maneuver (not turning back), junctions driven through inside it. */
export interface StepJunctions {
  choices: number;
  passed: number;
}

interface Entry {
  step: OsrmStep;
  junctions: StepJunctions;
}

const WAYPOINT = new Set(['depart', 'arrive']);
const ROUNDABOUT = new Set(['roundabout', 'exit roundabout', 'rotary', 'exit rotary', 'roundabout turn']);

const type = (e: Entry) => e.step.maneuver.type;
const modifier = (e: Entry) => e.step.maneuver.modifier ?? 'straight';
const angleOf = (e: Entry) => turnAngle(e.step.maneuver.bearing_before, e.step.maneuver.bearing_after);
const undisturbed = (e: Entry) => e.junctions.passed === 0;
const shortAndUndisturbed = (e: Entry) => e.step.distance <= MAX_COLLAPSE_METRES && undisturbed(e);
/** A name change, or a turn or continue straight on: no maneuver of its own (OSRM's is_non_turn). */
const isNameChange = (e: Entry) => type(e) === 'new name' || ((type(e) === 'turn' || type(e) === 'continue') && modifier(e) === 'straight');

/** A u-turn may only pair with a name change (dual carriageways), as OSRM's noBadUTurnCombination. */
function noBadUTurn(a: Entry, b: Entry): boolean {
  const uturn = modifier(a) === 'uturn' || modifier(b) === 'uturn';
  return !uturn || (type(a) === 'new name' && modifier(b) === 'uturn') || (type(b) === 'new name' && modifier(a) === 'uturn');
}

/** OSRM's basicCollapsePreconditions for two steps. */
function collapsible(a: Entry, b: Entry): boolean {
  return !ROUNDABOUT.has(type(a)) && !ROUNDABOUT.has(type(b)) && !WAYPOINT.has(type(a)) && !WAYPOINT.has(type(b))
    && a.step.mode === b.step.mode && noBadUTurn(a, b);
}

/** The same for three steps: the first may be the departure. */
function collapsible3(a: Entry, b: Entry, c: Entry): boolean {
  const roundabout = [a, b, c].some((e) => ROUNDABOUT.has(type(e)));
  const modes = a.step.mode === b.step.mode && b.step.mode === c.step.mode;
  return !roundabout && modes && (noBadUTurn(a, b) || noBadUTurn(b, c));
}

function isStaggered(prev: Entry, cur: Entry, next: Entry): boolean {
  if (ROUNDABOUT.has(type(cur)) || ROUNDABOUT.has(type(next))) return false;
  const right = (a: number) => a > 45 && a < 135;
  const left = (a: number) => a < -45 && a > -135;
  const zigzag = (right(angleOf(cur)) && left(angleOf(next))) || (left(angleOf(cur)) && right(angleOf(next)));
  return cur.step.distance < MAX_STAGGERED_METRES && zigzag && prev.step.mode === cur.step.mode
    && cur.step.mode === next.step.mode && undisturbed(cur);
}

function isUTurn(prev: Entry, cur: Entry, next: Entry): boolean {
  if (!collapsible3(prev, cur, next)) return false;
  const total = Math.abs(turnAngle(cur.step.maneuver.bearing_before, next.step.maneuver.bearing_after));
  const link = cur.step.distance <= 2 * MAX_COLLAPSE_METRES && cur.step.name === '' && prev.step.name !== '' && next.step.name !== '' && undisturbed(cur);
  // OSRM measures a road's bearing some metres into it, Waymark on its first straight piece: a link
  // turning back by two bends to one side can read short of the u-turn's 145° here (Pulaski Highway's
  // jughandle reads 143°), so a link whose two turns go to one side is let through from 90°.
  const oneSide = Math.sign(angleOf(cur)) === Math.sign(angleOf(next));
  const reversed = total >= 180 - REVERSED_DEGREES || (link && oneSide && total >= 90);
  if (!reversed || !haveSameName(prev.step, next.step)) return false;
  // A u-turn begins with a turn; a link leaving its road at a fork (the jughandle's lane) is one too here,
  // where OSRM, which forks only between roads of like class, calls it a turn.
  if (type(cur) !== 'turn' && type(cur) !== 'continue' && type(cur) !== 'end of road' && !(link && type(cur) === 'fork')) return false;
  const onlyWay = next.junctions.choices === 1 && undisturbed(cur);
  return shortAndUndisturbed(cur) || link || onlyWay;
}

function isNameOscillation(prev: Entry, cur: Entry, next: Entry): boolean {
  if (!collapsible3(prev, cur, next)) return false;
  if (!isNameChange(cur) || !isNameChange(next)) return false;
  return (prev.step.name === next.step.name && (prev.step.ref ?? '') === (next.step.ref ?? '')) || haveSameName(prev.step, next.step);
}

function nameChangeBeforeManeuver(prev: Entry, cur: Entry, next: Entry): boolean {
  return collapsible3(prev, cur, next) && shortAndUndisturbed(cur) && isNameChange(cur) && !WAYPOINT.has(type(next));
}

function maneuverBeforeNameChange(cur: Entry, next: Entry): boolean {
  if (!collapsible(cur, next) || !isNameChange(next)) return false;
  const straightNewName = type(next) === 'new name' && modifier(next) === 'straight' && cur.step.distance <= 1.5 * MAX_COLLAPSE_METRES;
  const choicelessNewName = type(next) === 'new name' && next.junctions.choices === 1 && cur.step.distance <= 1.5 * MAX_COLLAPSE_METRES;
  return shortAndUndisturbed(cur) || straightNewName || choicelessNewName;
}

function turnBeforeChoiceless(cur: Entry, next: Entry): boolean {
  return collapsible(cur, next) && shortAndUndisturbed(cur) && modifier(cur) !== 'straight' && next.junctions.choices === 1;
}

function straightBeforeChoiceless(cur: Entry, next: Entry): boolean {
  return collapsible(cur, next) && cur.step.distance <= 2 * MAX_COLLAPSE_METRES && undisturbed(cur)
    && (type(cur) === 'continue' || type(cur) === 'turn') && modifier(cur) === 'straight' && next.junctions.choices === 1;
}

/** `a` followed by `b` as one stretch: distance, time and line of both. */
function joined(a: OsrmStep, b: OsrmStep): Pick<OsrmStep, 'distance' | 'duration' | 'geometry'> {
  return { distance: a.distance + b.distance, duration: a.duration + b.duration, geometry: [...a.geometry, ...b.geometry.slice(1)] };
}

/** The step before the place `cur` begins extended over `cur` (its name and maneuver kept). */
function absorb(prev: Entry, cur: Entry): Entry {
  return { step: { ...prev.step, ...joined(prev.step, cur.step) }, junctions: { choices: prev.junctions.choices, passed: prev.junctions.passed + 1 + cur.junctions.passed } };
}

/**
 * One step at `cur`'s place onto `next`'s road, its maneuver the two turns' sum (OSRM's combineRouteSteps
 * with its combined-turn strategy): a turn back onto the road it came from is a continue, a name change
 * that turns is a turn.
 */
function combine(prev: Entry, cur: Entry, next: Entry, fixed?: { type: string; modifier: string }): Entry {
  const total = turnAngle(cur.step.maneuver.bearing_before, next.step.maneuver.bearing_after);
  const sameSide = Math.sign(angleOf(cur)) === Math.sign(angleOf(next)) || Math.abs(angleOf(next)) < 20;
  const angle = cur.step.distance < MAX_COLLAPSE_METRES || sameSide ? total : angleOf(cur);
  let t = type(cur);
  let mod = t === 'fork' || t === 'merge' ? modifier(cur) : modifierOf(angle);
  if (fixed !== undefined) [t, mod] = [fixed.type, fixed.modifier];
  else if (isNameChange(cur) || isNameChange(next)) {
    if (t === 'new name' && mod !== 'straight') t = 'turn';
    else if (t === 'continue' && !haveSameName(prev.step, next.step)) t = 'turn';
    else if (t === 'turn' && haveSameName(prev.step, next.step)) t = 'continue';
  } else if (type(next) === 'on ramp') t = 'on ramp';
  else if (t === 'turn' && type(next) === 'turn' && haveSameName(prev.step, next.step)) t = 'continue';
  else if (t === 'continue' && type(next) === 'turn' && !haveSameName(prev.step, next.step)) t = 'turn';
  if (mod === 'uturn' && t !== 'continue') t = 'continue';
  const step: OsrmStep = {
    ...next.step,
    ...joined(cur.step, next.step),
    maneuver: { ...cur.step.maneuver, type: t, modifier: mod, bearing_after: next.step.maneuver.bearing_after },
  };
  return { step, junctions: { choices: cur.junctions.choices, passed: cur.junctions.passed + 1 + next.junctions.passed } };
}

/** Folds the steps OSRM collapses; `junctions[i]` describes `steps[i]`. */
export function collapseShortSteps(steps: OsrmStep[], junctions: StepJunctions[]): OsrmStep[] {
  const out: Entry[] = steps.map((step, i) => ({ step, junctions: junctions[i] }));
  for (let i = 1; i + 1 < out.length; i++) {
    const cur = out[i];
    if (ROUNDABOUT.has(type(cur)) || WAYPOINT.has(type(cur))) continue;
    const next = out[i + 1];
    if (WAYPOINT.has(type(next))) break;
    const prev = out[i - 1];
    if (cur.step.mode !== next.step.mode) continue;
    if (isStaggered(prev, cur, next)) {
      const crossing = combine(prev, cur, next, { type: 'new name', modifier: 'straight' });
      // The same road on both sides of the crossing: no step at all (OSRM suppresses it).
      if (haveSameName(prev.step, next.step)) {
        out.splice(i - 1, 3, absorb(prev, crossing));
        i--;
        continue;
      }
      out.splice(i, 2, crossing);
    } else if (isUTurn(prev, cur, next)) {
      out.splice(i, 2, combine(prev, cur, next, { type: 'continue', modifier: 'uturn' }));
    } else if (isNameOscillation(prev, cur, next)) {
      const joinedCur: Entry = { step: { ...cur.step, ...joined(cur.step, next.step) }, junctions: { choices: cur.junctions.choices, passed: cur.junctions.passed + 1 + next.junctions.passed } };
      out.splice(i - 1, 3, absorb(prev, joinedCur));
      i--;
      continue;
    } else if (nameChangeBeforeManeuver(prev, cur, next)) {
      const turned = combine(prev, cur, next);
      out.splice(i - 1, 3, absorb(prev, cur), { step: { ...next.step, maneuver: { ...next.step.maneuver, modifier: turned.step.maneuver.modifier } }, junctions: next.junctions });
      i--;
      continue;
    } else if (maneuverBeforeNameChange(cur, next) || turnBeforeChoiceless(cur, next) || straightBeforeChoiceless(cur, next)) {
      out.splice(i, 2, combine(prev, cur, next));
    }
    // A u-turn seen only now that a name change after it has been folded (OSRM looks back for it too).
    if (i >= 2 && !WAYPOINT.has(type(out[i - 1])) && i < out.length && isUTurn(out[i - 2], out[i - 1], out[i])) {
      out.splice(i - 1, 2, combine(out[i - 2], out[i - 1], out[i], { type: 'continue', modifier: 'uturn' }));
      i--;
    }
  }
  return out.map((e) => e.step);
}
