// Pure trip rules: statuses, client-requested changes, progress on location updates, delay, expiry
// and the location trail. No I/O; time is always an input.
export * from './status';
export { decideStatusChange, keepStatus, startEvents, type StatusDecision } from './transitions';
export { progressOnLocation, approachingThreshold, type LocationProgress, type LocationProgressInput, type ThresholdSources } from './progress';
export { tripDelay, type TripDelay, type DelayInput } from './delay';
export { tripExpiresAt } from './expiry';
export { tripEta, type TripEta } from './eta';
export { appendLocation, TRIP_LOCATION_CAP } from './locations';
