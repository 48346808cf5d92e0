// Truck: the car's network through `hgv` access, slower (capped at 80 km/h, a heavy goods vehicle's
// limit in most of Europe and below most US truck limits), and closed where `maxweight` or `maxheight`
// is below a 12 t, 4.0 m vehicle (2.5 m wide, 12 m long). `hgv=delivery|destination` opens a way, as for
// a delivering truck.
import { CAR_AVOID, CAR_SMOOTHNESS_KPH, CAR_SPEEDS, CAR_SURFACE_KPH, CAR_TRACKTYPE_KPH } from './car';
import type { ProfileSpec } from './profile';

export const TRUCK_WEIGHT_TONNES = 12;
export const TRUCK_HEIGHT_METRES = 4.0;

export const truck: ProfileSpec = {
  mode: 'truck',
  speeds: { ...CAR_SPEEDS, living_street: 5, service: 10 },
  accessKeys: ['hgv', 'goods', 'motor_vehicle', 'vehicle', 'access'],
  allowed: new Set(['yes', 'hgv', 'goods', 'motor_vehicle', 'vehicle', 'permissive', 'designated', 'delivery', 'destination']),
  denied: new Set(['no', 'agricultural', 'forestry', 'emergency', 'psv', 'bus', 'military', 'foot']),
  openingSpeedKph: 10,
  avoid: CAR_AVOID,
  obeysOneway: true,
  onewayKeys: ['hgv', 'motor_vehicle', 'vehicle'],
  maxspeedFactor: 0.8,
  maxKph: 80,
  ferryKph: 5,
  trainKph: 10,
  movableBridgeKph: 5,
  vehicle: { weightTonnes: TRUCK_WEIGHT_TONNES, heightMetres: TRUCK_HEIGHT_METRES, widthMetres: 2.5, lengthMetres: 12 },
  surfaceKph: CAR_SURFACE_KPH,
  tracktypeKph: CAR_TRACKTYPE_KPH,
  smoothnessKph: CAR_SMOOTHNESS_KPH,
};
