// Public API of the geofence engine.
export { GeofenceIndex, distanceTo, type NearestGeofence, type NearestOptions } from './geofence-index';
export {
  evaluateGeofences,
  type GeofenceEvaluation,
  type GeofenceEvaluationInput,
  type GeofenceEventDraft,
  type GeofenceEventType,
} from './evaluate';
export { fenceTransition, type FenceRules, type FenceTransition, type TransitionInput, type VisitState } from './transition';
export {
  fencePosition,
  entryConfidence,
  exitConfidence,
  insideForEntry,
  outsideForExit,
  type Confidence,
  type FencePosition,
} from './position';
export { ineligibility, currentlyOperating, type Ineligibility, type UpdateContext } from './eligibility';
export { prepareGeofence, PreparedGeofence, type FenceKind } from './prepared-geofence';
