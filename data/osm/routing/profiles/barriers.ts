// Barrier nodes (`barrier=*`) per mode, after OSRM's profiles: a motor vehicle passes gates, lift gates,
// toll booths, cattle grids, border controls, entrances, height restrictors and arches (unless the node's
// own access tags close it to the mode); bicycles pass those and bollards, cycle barriers, blocks, kissing
// gates; pedestrians pass everything but walls, fences and unspecified barriers.
import type { OsmTags } from '../../stage';
import type { ProfileSpec, RoutingMode } from './profile';

const MOTOR_PASSES = new Set(['cattle_grid', 'border_control', 'toll_booth', 'sally_port', 'gate', 'lift_gate', 'no', 'entrance', 'height_restrictor', 'arch', 'checkpoint']);
const BIKE_PASSES = new Set([...MOTOR_PASSES, 'bollard', 'cycle_barrier', 'block', 'kissing_gate', 'sump_buster', 'bus_trap', 'stile', 'swing_gate']);
const FOOT_BLOCKED = new Set(['yes', 'wall', 'fence', 'retaining_wall', 'city_wall', 'ditch', 'hedge']);

export function barrierBlocks(spec: ProfileSpec, mode: RoutingMode, tags: OsmTags): boolean {
  const barrier = tags.barrier;
  if (barrier === undefined) return false;
  for (const key of spec.accessKeys) {
    const v = tags[key];
    if (v !== undefined) return spec.denied.has(v);
  }
  if (mode === 'foot') return FOOT_BLOCKED.has(barrier);
  if (mode === 'bike') return !BIKE_PASSES.has(barrier);
  return !MOTOR_PASSES.has(barrier);
}
