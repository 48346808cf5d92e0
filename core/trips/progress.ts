// What a location update does to an active trip (DESIGN §4): approaching when the ETA falls to the
// threshold, arrived on entering (or being inside) the destination geofence. Pure.
//
// Rules:
//  - only forward: started → approaching → arrived; a growing ETA never undoes approaching;
//  - approaching: eta.duration ≤ threshold (minutes), inclusive so a threshold of 5 fires at 5.0;
//  - arrived: the update's geofence events include the destination's entry, or the user is already
//    inside the destination by the geofence rules (a trip started inside it);
//  - one update may do both: the approaching event comes first, then the arrival, so consumers that
//    fire an order on approach still see it.
import { activeRank, type ActiveStatus, type TripEventType } from './status';

export interface LocationProgressInput {
  status: ActiveStatus;
  /** Minutes to the destination; undefined without a destination or an ETA. */
  etaMinutes: number | undefined;
  /** Minutes (see approachingThreshold()). */
  threshold: number;
  /** The user entered or is inside the destination geofence with this update. */
  atDestination: boolean;
}

export interface LocationProgress {
  status: ActiveStatus;
  /** Transition events, in order; empty when the status did not change. */
  events: TripEventType[];
}

export function progressOnLocation(input: LocationProgressInput): LocationProgress {
  let status = input.status;
  const events: TripEventType[] = [];
  if (status === 'started' && input.etaMinutes !== undefined && input.etaMinutes <= input.threshold) {
    status = 'approaching';
    events.push('user.approaching_trip_destination');
  }
  if (activeRank(status) < activeRank('arrived') && input.atDestination) {
    status = 'arrived';
    events.push('user.arrived_at_trip_destination');
  }
  return { status, events };
}

export interface ThresholdSources {
  /** The trip's own approachingThreshold. */
  trip?: number;
  /** The destination geofence's tripApproachingThreshold. */
  geofence?: number;
  /** The project's tripApproachingThreshold setting. */
  project: number;
}

/** The most specific threshold wins: trip, then destination geofence, then project. */
export function approachingThreshold(sources: ThresholdSources): number {
  return sources.trip ?? sources.geofence ?? sources.project;
}

