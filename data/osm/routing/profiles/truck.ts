// Truck: the car's network through `hgv` access, slower (capped at 80 km/h, a heavy goods vehicle's
// limit in most of Europe and below most US truck limits), and closed where `maxweight` or `maxheight`
// is below a 12 t, 4.0 m vehicle. `hgv=delivery|destination` opens a way, as for a delivering truck.
import { CAR_SPEEDS } from './car';
import type { ProfileSpec } from './profile';

export const TRUCK_WEIGHT_TONNES = 12;
export const TRUCK_HEIGHT_METRES = 4.0;

export const truck: ProfileSpec = {
  mode: 'truck',
  speeds: { ...CAR_SPEEDS, living_street: 5, service: 10 },
  accessKeys: ['hgv', 'goods', 'motor_vehicle', 'vehicle', 'access'],
  denied: new Set(['no', 'agricultural', 'forestry', 'emergency', 'psv', 'bus', 'military']),
  openingSpeedKph: 10,
  obeysOneway: true,
  maxspeedFactor: 0.8,
  maxKph: 80,
  ferryKph: 5,
  vehicle: { weightTonnes: TRUCK_WEIGHT_TONNES, heightMetres: TRUCK_HEIGHT_METRES },
};
