// Pedestrian, after OSRM's foot.lua: 5 km/h on every way a person may walk (roads up to primary,
// footways, paths, steps, pedestrian streets and squares, platforms, piers, car parks), never trunk roads,
// motorways, cycleways, bridleways or `motorroad=yes`; oneway only as `oneway:foot`; slower on gravel,
// mud and sand; escalators and moving walkways (`conveying=forward|backward`) one way unless `oneway=no`;
// roads whose sidewalks are mapped as separate ways (`sidewalk=separate`) only with explicit access.
import type { ProfileSpec } from './profile';

const WALK_KPH = 5;

export const foot: ProfileSpec = {
  mode: 'foot',
  speeds: Object.fromEntries(['primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link',
    'unclassified', 'residential', 'living_street', 'service', 'track', 'path', 'footway', 'pedestrian', 'steps',
    'platform', 'pier', 'parking', 'corridor'].map((h) => [h, WALK_KPH])),
  accessKeys: ['foot', 'access'],
  allowed: new Set(['yes', 'foot', 'permissive', 'designated']),
  denied: new Set(['no', 'agricultural', 'forestry', 'private', 'delivery', 'use_sidepath', 'military']),
  openingSpeedKph: WALK_KPH,
  avoid: new Set(['proposed', 'motorroad']),
  obeysOneway: false,
  onewayKeys: ['foot'],
  maxspeedFactor: 0,
  maxKph: WALK_KPH,
  ferryKph: 5,
  surfaceKph: { fine_gravel: WALK_KPH * 0.75, gravel: WALK_KPH * 0.75, pebblestone: WALK_KPH * 0.75, mud: WALK_KPH * 0.5, sand: WALK_KPH * 0.5 },
  adjust(tags, result) {
    const separate = [tags.sidewalk, tags['sidewalk:both'], tags['sidewalk:left'], tags['sidewalk:right']].includes('separate');
    if (separate) {
      const explicit = (v: string | undefined) => v !== undefined && !['no', 'agricultural', 'forestry', 'private', 'delivery', 'use_sidepath'].includes(v);
      if (!explicit(tags['foot:forward'] ?? tags.foot ?? tags['access:forward'] ?? tags.access)) result.forwardKph = 0;
      if (!explicit(tags['foot:backward'] ?? tags.foot ?? tags['access:backward'] ?? tags.access)) result.backwardKph = 0;
    }
    const conveying = tags.conveying;
    if ((tags.highway === 'steps' || tags.highway === 'footway') && (conveying === 'forward' || conveying === 'backward') && (tags['oneway:foot'] ?? tags.oneway) !== 'no') {
      if (conveying === 'forward') result.backwardKph = 0;
      else result.forwardKph = 0;
    }
  },
};
