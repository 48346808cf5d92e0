// Pedestrian, after OSRM's foot.lua: 5 km/h on every way a person may walk (roads without a
// `foot=no`, footways, paths, steps, pedestrian areas), no motorways, no oneway restrictions except
// `oneway:foot`.
import type { ProfileSpec } from './profile';

const WALK_KPH = 5;

export const foot: ProfileSpec = {
  mode: 'foot',
  speeds: Object.fromEntries(['primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link', 'trunk', 'trunk_link',
    'unclassified', 'residential', 'living_street', 'service', 'road', 'track', 'path', 'footway', 'pedestrian', 'steps',
    'cycleway', 'bridleway', 'corridor', 'platform'].map((h) => [h, h === 'steps' ? 3 : WALK_KPH])),
  accessKeys: ['foot', 'access'],
  denied: new Set(['no', 'private', 'agricultural', 'forestry', 'use_sidepath', 'military']),
  openingSpeedKph: WALK_KPH,
  obeysOneway: false,
  maxspeedFactor: 0,
  maxKph: WALK_KPH,
  ferryKph: 5,
  adjust(tags, result) {
    if (tags['oneway:foot'] === 'yes') result.backwardKph = 0;
    if (tags['oneway:foot'] === '-1') result.forwardKph = 0;
  },
};
