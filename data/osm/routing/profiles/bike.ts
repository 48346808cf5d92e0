// Bicycle, after OSRM's bicycle.lua: 15 km/h on roads and cycleways, slower on tracks and paths,
// pushed (walking pace) on footways and pedestrian streets unless `bicycle=yes|designated`, carried
// on steps; no motorways. Contraflow: `oneway:bicycle=no` and `cycleway=opposite*` open the other way.
import type { ProfileSpec } from './profile';

const PUSH_KPH = 4;

export const bike: ProfileSpec = {
  mode: 'bike',
  speeds: {
    cycleway: 15, primary: 15, primary_link: 15, secondary: 15, secondary_link: 15, tertiary: 15, tertiary_link: 15,
    trunk: 15, trunk_link: 15, unclassified: 15, residential: 15, living_street: 10, service: 12, road: 15,
    track: 12, path: 12, bridleway: 8,
    footway: PUSH_KPH, pedestrian: PUSH_KPH, steps: 2,
  },
  accessKeys: ['bicycle', 'vehicle', 'access'],
  denied: new Set(['no', 'private', 'agricultural', 'forestry', 'emergency', 'use_sidepath', 'dismount', 'military']),
  openingSpeedKph: 15,
  obeysOneway: true,
  onewayKey: 'oneway:bicycle',
  maxspeedFactor: 0,
  maxKph: 25,
  ferryKph: 5,
  adjust(tags, result) {
    const designated = tags.bicycle === 'yes' || tags.bicycle === 'designated' || tags.bicycle === 'permissive';
    if (designated && (tags.highway === 'footway' || tags.highway === 'pedestrian' || tags.highway === 'path')) {
      result.forwardKph = result.forwardKph > 0 ? 15 : 0;
      result.backwardKph = result.backwardKph > 0 ? 15 : 0;
    }
    const cycleway = [tags.cycleway, tags['cycleway:left'], tags['cycleway:right'], tags['cycleway:both']];
    if (cycleway.some((c) => c !== undefined && c.startsWith('opposite')) && tags['oneway:bicycle'] !== 'yes') {
      const speed = Math.max(result.forwardKph, result.backwardKph);
      result.forwardKph = result.forwardKph || speed;
      result.backwardKph = result.backwardKph || speed;
    }
  },
};
