// Bicycle, after OSRM's bicycle.lua: 15 km/h on roads and cycleways, 12 on tracks, 13 on paths, slower
// on rough surfaces; no motorways or trunk roads. Where a bicycle may not ride but a person may walk,
// the bike is pushed at walking pace (4 km/h, 2 on steps): on footways, pedestrian streets, platforms and
// piers unless `bicycle=yes|designated|permissive` (then ridden), against a one-way street (not a
// roundabout or motorway), and everywhere on `bicycle=dismount`; never where `foot=no`. Contraflow:
// `oneway:bicycle=no` and `cycleway=opposite*` open the other way. Turn restrictions do not bind bicycles
// (OSRM's bicycle profile ignores them; restrictions.ts).
import type { OsmTags } from '../../../stage';
import type { ProfileSpec, WaySpeeds } from './profile';

const RIDE_KPH = 15;
const PUSH_KPH = 4;
const STEPS_KPH = 2;
/** Classes a bicycle is pushed on unless its access tag lets it ride. */
const PEDESTRIAN = new Set(['footway', 'pedestrian', 'steps', 'platform', 'pier']);
const RIDE_ACCESS = new Set(['yes', 'designated', 'permissive']);

function pushedSpeed(tags: OsmTags): number {
  return tags.highway === 'steps' ? STEPS_KPH : PUSH_KPH;
}

function adjust(tags: OsmTags, result: WaySpeeds): void {
  const cls = tags.highway ?? (tags.railway === 'platform' ? 'platform' : tags.man_made === 'pier' ? 'pier' : undefined);
  const access = tags.bicycle ?? tags.vehicle ?? tags.access;
  if (tags.foot === 'no' && (cls !== undefined && PEDESTRIAN.has(cls))) {
    result.forwardKph = result.backwardKph = 0;
    return;
  }
  if (cls !== undefined && PEDESTRIAN.has(cls)) {
    const ride = access !== undefined && RIDE_ACCESS.has(access);
    const kph = ride ? RIDE_KPH : pushedSpeed(tags);
    result.forwardKph = result.forwardKph > 0 ? kph : 0;
    result.backwardKph = result.backwardKph > 0 ? kph : 0;
    if (!ride) result.pushing = { forward: result.forwardKph > 0, backward: result.backwardKph > 0 };
  }
  const cycleway = [tags.cycleway, tags['cycleway:left'], tags['cycleway:right'], tags['cycleway:both']];
  if (cycleway.some((c) => c !== undefined && c.startsWith('opposite')) && tags['oneway:bicycle'] !== 'yes') {
    const speed = Math.max(result.forwardKph, result.backwardKph);
    result.forwardKph = result.forwardKph || speed;
    result.backwardKph = result.backwardKph || speed;
  }
  // Against a one-way street the bike is walked (not on roundabouts or motorways, implied one-ways).
  const implied = tags.junction === 'roundabout' || tags.junction === 'circular' || tags.highway === 'motorway';
  if (tags.foot !== 'no' && !implied) {
    const pushing = result.pushing ?? { forward: false, backward: false };
    if (result.forwardKph <= 0 && result.backwardKph > 0) { result.forwardKph = PUSH_KPH; pushing.forward = true; }
    if (result.backwardKph <= 0 && result.forwardKph > 0) { result.backwardKph = PUSH_KPH; pushing.backward = true; }
    if (pushing.forward || pushing.backward) result.pushing = pushing;
  }
  if (tags.bicycle === 'dismount') {
    result.forwardKph = result.forwardKph > 0 || result.backwardKph > 0 ? PUSH_KPH : 0;
    result.backwardKph = result.forwardKph;
    result.pushing = { forward: true, backward: true };
  }
}

export const bike: ProfileSpec = {
  mode: 'bike',
  speeds: {
    cycleway: RIDE_KPH, primary: RIDE_KPH, primary_link: RIDE_KPH, secondary: RIDE_KPH, secondary_link: RIDE_KPH, tertiary: RIDE_KPH,
    tertiary_link: RIDE_KPH, unclassified: RIDE_KPH, residential: RIDE_KPH, living_street: RIDE_KPH, service: RIDE_KPH,
    track: 12, path: 13, parking: 10,
    footway: PUSH_KPH, pedestrian: PUSH_KPH, steps: STEPS_KPH, platform: PUSH_KPH, pier: PUSH_KPH,
  },
  accessKeys: ['bicycle', 'vehicle', 'access'],
  allowed: RIDE_ACCESS,
  denied: new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath', 'military']),
  openingSpeedKph: RIDE_KPH,
  avoid: new Set(['area', 'construction', 'proposed']),
  obeysOneway: true,
  onewayKeys: ['bicycle'],
  maxspeedFactor: 0,
  maxKph: 25,
  ferryKph: 5,
  movableBridgeKph: 5,
  surfaceKph: {
    wood: 10, metal: 10, 'cobblestone:flattened': 10, paving_stones: 10, compacted: 10, cobblestone: 7, unpaved: 6, fine_gravel: 10,
    gravel: 6, pebblestone: 6, grass_paver: 6, ground: 10, dirt: 8, earth: 6, laterite: 5, grass: 6, mud: 3, sand: 3, woodchips: 3, sett: 9,
  },
  adjust,
};
