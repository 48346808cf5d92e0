// Turn restrictions from `type=restriction` relations (OSM wiki "Relation:restriction"): from a way, via
// a node or through one or more ways, to a way; `no_*` forbids that passage, `only_*` forbids every
// other way on from the same way. `no_entry` (several `from` ways) and `no_exit` (several `to` ways) name
// each passage they forbid. `restriction:<mode>` applies to that mode only; `except=bicycle;hgv`
// exempts modes.
import type { OsmRelation } from '../../stage';
import type { RoutingMode } from './profiles/profile';

export interface TurnRestriction {
  fromWays: number[];
  /** The via node; -1 when the restriction runs through `viaWays`. */
  viaNode: number;
  /** Via ways in the order the relation lists them (OSRM requires them connected in that order). */
  viaWays: number[];
  toWays: number[];
  only: boolean;
  modes: RoutingMode[];
}

/** OSM `except` / `restriction:*` vocabulary for each of our modes. */
const MODE_WORDS: Record<RoutingMode, string[]> = {
  car: ['motorcar', 'motor_vehicle', 'vehicle'],
  truck: ['hgv', 'goods', 'motor_vehicle', 'vehicle'],
  bike: ['bicycle', 'vehicle'],
  foot: ['foot'],
};
const ALL: RoutingMode[] = ['car', 'truck', 'bike', 'foot'];

export type RestrictionOutcome = TurnRestriction | 'not-a-restriction' | 'unsupported';

export function readRestriction(r: OsmRelation): RestrictionOutcome {
  if (r.tags.type !== 'restriction' && !(r.tags.type ?? '').startsWith('restriction:')) return 'not-a-restriction';
  let value = r.tags.restriction;
  // OSRM's foot and bicycle profiles ignore turn restrictions (use_turn_restrictions = false).
  let modes: RoutingMode[] = ALL.filter((m) => m !== 'foot' && m !== 'bike');
  if (value === undefined) {
    // restriction:hgv=no_left_turn and the like: one mode family only.
    for (const [key, v] of Object.entries(r.tags)) {
      const m = /^restriction:(.+)$/.exec(key);
      if (!m) continue;
      value = v;
      modes = ALL.filter((mode) => mode !== 'foot' && mode !== 'bike' && MODE_WORDS[mode].includes(m[1]));
    }
  }
  if (value === undefined) return 'unsupported';
  // "No turn on red" is a rule at a signal, not a ban on the turn (OSRM does not read it either).
  if (/_on_red$/.test(value)) return 'not-a-restriction';
  const only = value.startsWith('only_');
  if (!only && !value.startsWith('no_')) return 'unsupported';
  const except = (r.tags.except ?? '').split(';').map((s) => s.trim());
  modes = modes.filter((mode) => !MODE_WORDS[mode].some((w) => except.includes(w)));
  const from = r.members.filter((m) => m.role === 'from' && m.type === 'way').map((m) => m.ref);
  const via = r.members.filter((m) => m.role === 'via');
  const to = r.members.filter((m) => m.role === 'to' && m.type === 'way').map((m) => m.ref);
  if (from.length === 0 || to.length === 0 || via.length === 0) return 'unsupported';
  // Several from ways only for no_entry, several to ways only for no_exit (each a forbidden passage),
  // via a node; OSRM ignores any other restriction with several.
  if (from.length > 1 && !(value === 'no_entry' && to.length === 1)) return 'unsupported';
  if (to.length > 1 && !(value === 'no_exit' && from.length === 1)) return 'unsupported';
  if ((from.length > 1 || to.length > 1) && (via.length !== 1 || via[0].type !== 'node')) return 'unsupported';
  const viaNodes = via.filter((m) => m.type === 'node');
  const viaWays = via.filter((m) => m.type === 'way');
  if (viaNodes.length > 0 && (viaNodes.length !== 1 || viaWays.length > 0)) return 'unsupported';
  if (modes.length === 0) return 'not-a-restriction';
  return {
    fromWays: from, viaNode: viaNodes.length === 1 ? viaNodes[0].ref : -1, viaWays: viaWays.map((m) => m.ref), toWays: to, only, modes,
  };
}
