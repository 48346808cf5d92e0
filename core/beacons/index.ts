export { BeaconIndex, type IndexedBeacon } from './beacon-index';
export { BEACON_SYNC_RADIUS_M, beaconTransitions, type BeaconExit, type BeaconPresence, type BeaconTransitions } from './beacon-transitions';
export { airKey, type BeaconIdentifiers, type RangedBeacon } from './ranged-beacon';
