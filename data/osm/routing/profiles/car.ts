// Car, after OSRM's car.lua (v5/v6): its speeds per class, 80 % of a tagged maxspeed, motorways and
// roundabouts oneway. Access as OSRM: `private`, `delivery`, `destination` and `customers` stay open
// but restricted (OSRM's "restricted" roads: a route uses them only to start or end there), `no`,
// agricultural, forestry, emergency and public-transport-only ways are closed.
import type { ProfileSpec } from './profile';

export const CAR_SPEEDS: Readonly<Record<string, number>> = {
  motorway: 90, motorway_link: 45, trunk: 85, trunk_link: 40, primary: 65, primary_link: 30,
  secondary: 55, secondary_link: 25, tertiary: 40, tertiary_link: 20, unclassified: 25,
  residential: 25, living_street: 10, service: 15, road: 25,
};

export const CAR_DENIED = new Set(['no', 'agricultural', 'forestry', 'emergency', 'psv', 'bus', 'military']);

export const car: ProfileSpec = {
  mode: 'car',
  speeds: CAR_SPEEDS,
  accessKeys: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  denied: CAR_DENIED,
  restrictedAccess: new Set(['private', 'delivery', 'destination', 'customers']),
  openingSpeedKph: 10,
  obeysOneway: true,
  maxspeedFactor: 0.8,
  maxKph: 140,
  ferryKph: 5,
  adjust(tags, result) {
    // service=parking_aisle / drive-through are slow; OSRM scales them down the same way.
    if (tags.highway === 'service' && (tags.service === 'parking_aisle' || tags.service === 'drive-through')) {
      result.forwardKph = Math.min(result.forwardKph, 5);
      result.backwardKph = Math.min(result.backwardKph, 5);
    }
    if (tags.highway === 'service' && (tags.service === 'emergency_access')) {
      result.forwardKph = 0;
      result.backwardKph = 0;
    }
  },
};
