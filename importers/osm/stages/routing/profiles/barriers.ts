// Nodes a mode cannot pass, after OSRM's profiles (process_node): a node's own access tag decides first
// (a value the profile denies closes it, with or without a `barrier`; restricted values such as
// `private` do not, for cars), else its `barrier`. Cars pass cattle grids, border controls, toll booths,
// sally ports, entrances, arches, gates and lift gates (which cost time instead: barrierSeconds), height
// restrictors above 2 m, rising bollards, lowered or flush kerbs and kerbs at crossings, and audible
// (virtual) fences; bicycles and pedestrians are stopped only by `barrier=yes`, walls and fences (not
// audible ones; pedestrians pass rising bollards too). Bicycles pass a denied access tag at a crossing.
import type { OsmTags } from '../../../stage';
import { parseMetres } from './maxspeed';
import { resolveAccess, type ProfileSpec, type RoutingMode } from './profile';

const MOTOR_PASSES = new Set(['cattle_grid', 'border_control', 'toll_booth', 'sally_port', 'no', 'entrance', 'height_restrictor', 'arch', 'gate', 'lift_gate']);
const NON_MOTOR_BLOCKED = new Set(['yes', 'wall', 'fence']);
/** Seconds a car or truck loses at a gate (OSRM's barrier_penalties). */
const GATE_SECONDS: Readonly<Record<string, number>> = { gate: 60, lift_gate: 60 };

function nodeAccess(spec: ProfileSpec, tags: OsmTags): string | undefined {
  for (const key of spec.accessKeys) {
    const v = tags[key];
    if (v !== undefined) return resolveAccess(spec, v);
  }
  return undefined;
}

export function barrierBlocks(spec: ProfileSpec, mode: RoutingMode, tags: OsmTags): boolean {
  const access = nodeAccess(spec, tags);
  if (access !== undefined) {
    if (mode === 'bike' && tags.highway === 'crossing') return false;
    return spec.denied.has(access) && spec.restrictedAccess?.has(access) !== true;
  }
  const barrier = tags.barrier;
  if (barrier === undefined) return false;
  const audibleFence = barrier === 'fence' && (tags.sensory === 'audible' || tags.sensory === 'audio');
  if (audibleFence) return false;
  if (mode === 'foot' || mode === 'bike') return NON_MOTOR_BLOCKED.has(barrier) && !(mode === 'foot' && tags.bollard === 'rising');
  if (barrier === 'height_restrictor') {
    const height = parseMetres(tags.maxheight);
    return height !== null && height < (spec.vehicle?.heightMetres ?? 0);
  }
  const flatKerb = tags.kerb === 'lowered' || tags.kerb === 'flush';
  const crossingKerb = barrier === 'kerb' && tags.highway === 'crossing';
  return !MOTOR_PASSES.has(barrier) && tags.bollard !== 'rising' && !flatKerb && !crossingKerb;
}

/** Seconds a motor vehicle loses passing the node (a gate without an access tag of its own), or 0. */
export function barrierSeconds(spec: ProfileSpec, mode: RoutingMode, tags: OsmTags): number {
  if (mode !== 'car' && mode !== 'truck') return 0;
  if (nodeAccess(spec, tags) !== undefined || tags.barrier === undefined) return 0;
  return GATE_SECONDS[tags.barrier] ?? 0;
}
