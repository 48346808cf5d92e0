// Bicycle, after OSRM v6's bicycle.lua (read for its rules; docs/routing-profiles.md writes them down).
// It has its own way evaluator (bikeWaySpeeds) because a bike's modes do not fit the generic one: every
// direction is ridden (`cycling`), pushed (`pushing bike`, at walking pace), carried by a ferry or a
// train, or closed, and pushing fills in what riding leaves closed:
// - ridden by class (15 km/h on roads and cycleways, 12 tracks, 13 paths, 10 car parks), on platforms at
//   walking pace, and on any other way an access value opens (`bicycle=yes` on a footway or on steps);
// - a cycleway tag (`cycleway[:left|:right]=track|lane|…`, `opposite*`) opens the direction it serves to
//   riding whatever the road, and `opposite*` rides against a one-way;
// - where riding is closed (against a one-way, a footway, pedestrian street, steps, pier) the bike is
//   pushed, unless `foot=no`: on foot classes at their walking speed, on ways `foot=yes` (or
//   `foot:forward`/`foot:backward`) opens, and on ridable ways against their one-way direction (not
//   against a roundabout or motorway: their one-way is implied);
// - `bicycle=dismount` pushes both ways; a lower `maxspeed` and rough surfaces slow it down.
// Turn restrictions do not bind bicycles (OSRM's bicycle profile sets use_turn_restrictions = false;
// restrictions.ts); barriers: barriers.ts.
import type { OsmTags } from '../../../stage';
import { parseDurationSeconds, parseMaxspeed } from './maxspeed';
import { forwardBackward, resolveAccess, type ProfileSpec, type WaySpeeds } from './profile';

const RIDE_KPH = 15;
const WALK_KPH = 4;
const FERRY_KPH = 5;
const TRAIN_KPH = 10;
const MOVABLE_BRIDGE_KPH = 5;
const PARKING_KPH = 10;

/** Ridden classes (OSRM's bicycle_speeds). */
const RIDE_SPEEDS: Readonly<Record<string, number>> = {
  cycleway: RIDE_KPH, primary: RIDE_KPH, primary_link: RIDE_KPH, secondary: RIDE_KPH, secondary_link: RIDE_KPH, tertiary: RIDE_KPH,
  tertiary_link: RIDE_KPH, residential: RIDE_KPH, unclassified: RIDE_KPH, living_street: RIDE_KPH, road: RIDE_KPH, service: RIDE_KPH,
  track: 12, path: 13,
};
/** Classes a bike is only pushed on, at these speeds (OSRM's pedestrian_speeds), unless an access value lets it ride. */
const PUSH_SPEEDS: Readonly<Record<string, number>> = { footway: WALK_KPH, pedestrian: WALK_KPH, steps: 2 };
const TRAINS = new Set(['train', 'railway', 'subway', 'light_rail', 'monorail', 'tram']);
const CYCLEWAY = new Set(['track', 'lane', 'share_busway', 'sharrow', 'shared', 'shared_lane']);
const OPPOSITE = new Set(['opposite', 'opposite_lane', 'opposite_track']);
const ONEWAY_YES = new Set(['yes', '1', 'true']);
const ONEWAY_NO = new Set(['no', '0', 'false']);
const ONEWAY_REVERSE = new Set(['-1', 'reverse']);
const CONSTRUCTION_OPEN = new Set(['no', 'widening', 'minor']);
/** Tags that make a way a candidate at all (OSRM's first check); anything else (buildings, boundaries) is no way. */
const CANDIDATE_KEYS = ['highway', 'route', 'railway', 'amenity', 'man_made', 'public_transport', 'bridge'] as const;

const ACCESS_KEYS = ['bicycle', 'vehicle', 'access'];
const MAXSPEED_KEYS = ['maxspeed'];
const ALLOWED = new Set(['yes', 'designated', 'permissive']);
const DENIED = new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath', 'military']);

type DirectionMode = 'cycling' | 'pushing' | 'ferry' | 'train' | 'closed';

/** One direction as the handlers leave it: its mode and km/h (-1: no speed decided yet, OSRM's default). */
interface Direction {
  mode: DirectionMode;
  kph: number;
}

/** Whether the bike profile looks at the way at all (the routing stage reads no other way for it). */
export function bikeCandidate(tags: OsmTags): boolean {
  return CANDIDATE_KEYS.some((k) => tags[k] !== undefined && tags[k] !== '');
}

/** OSRM's blocked ways for bikes: construction, proposed, impassable (not areas, not reversible one-ways). */
function blocked(tags: OsmTags): boolean {
  const highway = tags.highway;
  if (highway === 'construction' || highway === 'proposed' || tags.railway === 'construction') return true;
  if (tags.construction !== undefined && !CONSTRUCTION_OPEN.has(tags.construction)) return true;
  if (tags.proposed !== undefined) return true;
  return tags.impassable === 'yes' || tags.status === 'impassable';
}

/** The speed a direction is ridden at before one-ways and pushing (OSRM's speed_handler), and whether pushing may fill in. */
function baseSpeed(tags: OsmTags, access: string | undefined): { mode: DirectionMode; kph: number; durationSeconds?: number; pushable: boolean } {
  const duration = parseDurationSeconds(tags.duration);
  const timed = duration !== null && duration > 0 ? Math.max(duration, 1) : undefined;
  const allowed = access !== undefined && ALLOWED.has(access);
  if (tags.bridge === 'movable') return { mode: 'cycling', kph: MOVABLE_BRIDGE_KPH, durationSeconds: timed, pushable: true };
  if (tags.route === 'ferry') return { mode: 'ferry', kph: FERRY_KPH, durationSeconds: timed, pushable: false };
  if (tags.railway === 'platform' || tags.public_transport === 'platform') return { mode: 'cycling', kph: WALK_KPH, pushable: true };
  if (tags.railway !== undefined && TRAINS.has(tags.railway) && allowed) return { mode: 'train', kph: TRAIN_KPH, pushable: false };
  if (tags.amenity === 'parking' || tags.amenity === 'parking_entrance') return { mode: 'cycling', kph: PARKING_KPH, pushable: true };
  const ride = tags.highway === undefined ? undefined : RIDE_SPEEDS[tags.highway];
  if (ride !== undefined) return { mode: 'cycling', kph: ride, pushable: true };
  if (allowed) return { mode: 'cycling', kph: RIDE_KPH, pushable: true };
  return { mode: 'cycling', kph: -1, pushable: false };
}

/** OSRM's oneway_handler: `oneway:bicycle` first, then `oneway`, then the one-way a roundabout or motorway implies. */
function oneway(tags: OsmTags, implied: boolean): 'forward' | 'backward' | 'both' {
  for (const value of [tags['oneway:bicycle'], tags.oneway]) {
    if (value === undefined) continue;
    if (ONEWAY_YES.has(value)) return 'forward';
    if (ONEWAY_NO.has(value)) return 'both';
    if (ONEWAY_REVERSE.has(value)) return 'backward';
  }
  return implied ? 'forward' : 'both';
}

/** Which directions a cycleway tag opens to riding (OSRM's cycleway_handler). */
function cyclewayDirections(tags: OsmTags, twoway: boolean, reverse: boolean): { forward: boolean; backward: boolean } {
  const main = tags.cycleway ?? tags['cycleway:both'];
  const left = tags['cycleway:left'], right = tags['cycleway:right'];
  const is = (set: ReadonlySet<string>, v: string | undefined) => v !== undefined && set.has(v);
  if (twoway) {
    return {
      forward: is(CYCLEWAY, main) || is(CYCLEWAY, right) || is(OPPOSITE, left),
      backward: is(CYCLEWAY, main) || is(CYCLEWAY, left) || is(OPPOSITE, right),
    };
  }
  // On a one-way road an `opposite*` lane on either side rides both ways (OSRM tests this case first).
  if (is(OPPOSITE, main) || is(OPPOSITE, left) || is(OPPOSITE, right)) return { forward: true, backward: true };
  if (is(CYCLEWAY, main) || is(CYCLEWAY, left) || is(CYCLEWAY, right)) return { forward: !reverse, backward: reverse };
  return { forward: false, backward: false };
}

/** Walking speeds the bike is pushed at in each direction where riding is closed (OSRM's bike_push_handler), or undefined. */
function pushSpeeds(tags: OsmTags, pushable: boolean, implied: boolean): [number | undefined, number | undefined] {
  if (tags.foot === 'no') return [undefined, undefined];
  const byClass = tags.highway === undefined || tags.bridge === 'movable' ? undefined : PUSH_SPEEDS[tags.highway];
  if (byClass !== undefined) return [byClass, byClass];
  if (tags.man_made === 'pier') return [WALK_KPH, WALK_KPH];
  if (tags.foot === 'yes') return [WALK_KPH, implied ? undefined : WALK_KPH];
  if (tags['foot:forward'] === 'yes') return [WALK_KPH, undefined];
  if (tags['foot:backward'] === 'yes') return [undefined, WALK_KPH];
  // Against the one-way of a ridable way (not one a roundabout or motorway implies).
  if (pushable) return [WALK_KPH, implied ? undefined : WALK_KPH];
  return [undefined, undefined];
}

/** The bike's speeds and modes on a way, or null when a bike may not use it at all. */
export function bikeWaySpeeds(tags: OsmTags, lengthMetres: number): WaySpeeds | null {
  if (!bikeCandidate(tags) || blocked(tags)) return null;
  const access = resolveAccess(bike, ACCESS_KEYS.map((k) => tags[k]).find((v) => v !== undefined));
  if (access !== undefined && DENIED.has(access)) return null;

  const base = baseSpeed(tags, access);
  const forward: Direction = { mode: base.mode, kph: base.kph };
  const backward: Direction = { mode: base.mode, kph: base.kph };
  const implied = tags.junction === 'roundabout' || tags.junction === 'circular' || tags.highway === 'motorway';
  const way = oneway(tags, implied);
  if (way === 'forward') backward.mode = 'closed';
  if (way === 'backward') forward.mode = 'closed';

  const twoway = way === 'both' && !implied;
  const lanes = cyclewayDirections(tags, twoway, way === 'backward');
  if (lanes.forward) Object.assign(forward, { mode: 'cycling', kph: RIDE_KPH });
  if (lanes.backward) Object.assign(backward, { mode: 'cycling', kph: RIDE_KPH });

  const unset = (d: Direction) => d.mode === 'closed' || d.kph === -1;
  if (unset(forward) || unset(backward)) {
    const [pushForward, pushBackward] = pushSpeeds(tags, base.pushable, implied);
    if (pushForward !== undefined && unset(forward)) Object.assign(forward, { mode: 'pushing', kph: pushForward });
    if (pushBackward !== undefined && unset(backward)) Object.assign(backward, { mode: 'pushing', kph: pushBackward });
  }
  if (tags.bicycle === 'dismount') {
    Object.assign(forward, { mode: 'pushing', kph: WALK_KPH });
    Object.assign(backward, { mode: 'pushing', kph: WALK_KPH });
  }

  // A lower speed limit, then the surface, slow every direction (OSRM's `limit` and surface handler).
  const [limitForward, limitBackward] = forwardBackward(tags, MAXSPEED_KEYS).map(parseMaxspeed);
  const surfaceKph = tags.surface === undefined ? undefined : bike.surfaceKph?.[tags.surface];
  for (const [d, limit] of [[forward, limitForward], [backward, limitBackward]] as const) {
    if (d.kph <= 0) continue;
    if (limit !== null && limit > 0) d.kph = Math.min(d.kph, limit);
    if (surfaceKph !== undefined) d.kph = Math.min(d.kph, surfaceKph);
  }

  // Per-direction access (`bicycle:forward=no`, `vehicle:backward=agricultural`) closes that direction whatever else opened it.
  const [fwdAccess, bwdAccess] = forwardBackward(tags, ACCESS_KEYS).map((v) => resolveAccess(bike, v));
  if (fwdAccess !== undefined && DENIED.has(fwdAccess)) forward.mode = 'closed';
  if (bwdAccess !== undefined && DENIED.has(bwdAccess)) backward.mode = 'closed';

  // A crossing of known duration (ferry, movable bridge) takes it in each open direction, spread over the way's length.
  const timedKph = base.durationSeconds !== undefined ? (lengthMetres / base.durationSeconds) * 3.6 : undefined;
  const kphOf = (d: Direction) => (d.mode === 'closed' ? 0 : timedKph ?? Math.max(0, d.kph));
  const forwardKph = kphOf(forward), backwardKph = kphOf(backward);
  if (forwardKph <= 0 && backwardKph <= 0) return null;
  const carried = base.mode === 'ferry' || base.mode === 'train';
  return {
    forwardKph,
    backwardKph,
    durationSeconds: base.durationSeconds,
    startpoint: !carried,
    pushing: forward.mode === 'pushing' || backward.mode === 'pushing'
      ? { forward: forwardKph > 0 && forward.mode === 'pushing', backward: backwardKph > 0 && backward.mode === 'pushing' } : undefined,
    train: base.mode === 'train' || undefined,
  };
}

export const bike: ProfileSpec = {
  mode: 'bike',
  speeds: { ...RIDE_SPEEDS, parking: PARKING_KPH, ...PUSH_SPEEDS, platform: WALK_KPH, pier: WALK_KPH },
  accessKeys: ACCESS_KEYS,
  allowed: ALLOWED,
  denied: DENIED,
  openingSpeedKph: RIDE_KPH,
  avoid: new Set(['construction', 'proposed']),
  obeysOneway: true,
  onewayKeys: ['bicycle'],
  maxspeedFactor: 0,
  maxKph: 25,
  ferryKph: FERRY_KPH,
  movableBridgeKph: MOVABLE_BRIDGE_KPH,
  surfaceKph: {
    wood: 10, metal: 10, 'cobblestone:flattened': 10, paving_stones: 10, compacted: 10, cobblestone: 7, unpaved: 6, fine_gravel: 10,
    gravel: 6, pebblestone: 6, grass_paver: 6, ground: 10, dirt: 8, earth: 6, laterite: 5, grass: 6, mud: 3, sand: 3, woodchips: 3, sett: 9,
  },
  evaluate: bikeWaySpeeds,
};
