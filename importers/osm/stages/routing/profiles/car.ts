// Car, after OSRM's car.lua (v6): its speeds per class, 80 % of a tagged maxspeed (advisory first, per
// direction), surface, tracktype and smoothness caps, motorways and roundabouts oneway (and
// `oneway:motorcar|motor_vehicle|vehicle`), a 2.0 m × 1.9 m × 4.8 m, 2 t car against physical limits.
// Access as OSRM's lists: `private`, `delivery`, `destination`, `customers`, `permit`, `residents` and
// `unknown` keep the main road classes open but restricted (a route uses them only to start or end
// there); elsewhere those and `no`, agricultural, forestry, emergency, public-transport, `foot`,
// `restricted`, `military`, `official` close the way. Steps, construction and proposed roads never.
// Alleys, driveways, narrow two-way roads and the like weigh more than their travel time (current OSRM's
// routability rate penalties, profile.ts `ratePenalties`).
import type { ProfileSpec } from './profile';

export const CAR_SPEEDS: Readonly<Record<string, number>> = {
  motorway: 90, motorway_link: 45, trunk: 85, trunk_link: 40, primary: 65, primary_link: 30,
  secondary: 55, secondary_link: 25, tertiary: 40, tertiary_link: 20, unclassified: 25,
  residential: 25, living_street: 10, service: 15, winter_road: 20, ice_road: 15,
};

export const CAR_ALLOWED = new Set(['yes', 'motorcar', 'motor_vehicle', 'vehicle', 'permissive', 'designated', 'hov']);
export const CAR_DENIED = new Set([
  'no', 'agricultural', 'forestry', 'emergency', 'psv', 'taxi', 'share_taxi', 'minibus', 'bus', 'foot', 'emergency_vehicle',
  'restricted', 'military', 'official', 'customers', 'private', 'delivery', 'destination', 'permit', 'residents',
]);
export const CAR_RESTRICTED = new Set(['private', 'delivery', 'destination', 'customers', 'permit', 'residents', 'unknown']);
export const CAR_RESTRICTED_CLASSES = new Set([
  'motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary',
  'tertiary_link', 'residential', 'living_street', 'unclassified', 'service', 'winter_road', 'ice_road',
]);
export const CAR_AVOID = new Set(['area', 'steps', 'construction', 'proposed']);

export const CAR_SURFACE_KPH: Readonly<Record<string, number>> = {
  cement: 80, compacted: 80, fine_gravel: 80, paving_stones: 60, metal: 60, bricks: 60, grass: 40, wood: 40, sett: 40,
  grass_paver: 40, gravel: 40, unpaved: 40, ground: 40, dirt: 40, pebblestone: 40, tartan: 40, cobblestone: 30, clay: 30,
  earth: 20, stone: 20, rocky: 20, sand: 20, laterite: 15, mud: 10, ice: 20, snow: 30,
};
export const CAR_TRACKTYPE_KPH: Readonly<Record<string, number>> = { grade1: 60, grade2: 40, grade3: 30, grade4: 25, grade5: 20 };
export const CAR_SMOOTHNESS_KPH: Readonly<Record<string, number>> = { intermediate: 80, bad: 40, very_bad: 20, horrible: 10, very_horrible: 5, impassable: 0 };

export const car: ProfileSpec = {
  mode: 'car',
  speeds: CAR_SPEEDS,
  accessKeys: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  allowed: CAR_ALLOWED,
  denied: CAR_DENIED,
  restrictedAccess: CAR_RESTRICTED,
  restrictedClasses: CAR_RESTRICTED_CLASSES,
  openingSpeedKph: 10,
  avoid: CAR_AVOID,
  obeysOneway: true,
  onewayKeys: ['motorcar', 'motor_vehicle', 'vehicle'],
  maxspeedFactor: 0.8,
  maxKph: 140,
  ferryKph: 5,
  trainKph: 10,
  movableBridgeKph: 5,
  vehicle: { heightMetres: 2.0, widthMetres: 1.9, lengthMetres: 4.8, weightTonnes: 2 },
  surfaceKph: CAR_SURFACE_KPH,
  tracktypeKph: CAR_TRACKTYPE_KPH,
  smoothnessKph: CAR_SMOOTHNESS_KPH,
  servicePrivateNoStart: true,
  hovRestricted: true,
  ratePenalties: true,
  adjust(tags, result) {
    if (tags.highway === 'service' && tags.service === 'emergency_access') {
      result.forwardKph = 0;
      result.backwardKph = 0;
    }
  },
};
