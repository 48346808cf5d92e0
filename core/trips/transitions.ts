// Status changes asked for by a client (POST with `status`, PATCH /v1/trips/:id/update), and the trip
// events each produces. Pure: the current and the requested status in, a decision out.
//
// Rules (the spec leaves transitions open; these are Waymark's, see docs/trips.md):
//  - a stopped trip (completed, canceled, expired) never changes; asking for its own status again is
//    an accepted no-op (mobile SDKs retry), anything else is refused;
//  - pending may go anywhere the request allows; going straight to approaching or arrived also
//    reports the start, since the trip did start;
//  - an active trip (started, approaching, arrived) never goes back to pending;
//  - within the active statuses status only moves forward: asking for an earlier one (an app that
//    says "started" while updating the metadata of an approaching trip) keeps the current status
//    and updates the other fields;
//  - any open trip may be completed or canceled;
//  - an update without a status keeps the current one (Radar's web SDK never sends it): an open trip's
//    fields are updated with `user.updated_trip`, a stopped trip does not change.
import { activeRank, isActive, isStopped, type RequestableStatus, type TripEventType, type TripStatus } from './status';

export type StatusDecision =
  /** Apply: the trip's status becomes `status`; `events` in this order (none = a plain field update). */
  | { kind: 'apply'; status: TripStatus; events: TripEventType[] }
  /** Nothing changes and no event is sent (a repeated stop). */
  | { kind: 'unchanged' }
  /** Not allowed; `reason` is the client's message. */
  | { kind: 'refused'; reason: string };

/** PATCH without `status`: keep the trip's status (docs/trips.md, "Update without status"). */
export function keepStatus(current: TripStatus): StatusDecision {
  if (isStopped(current)) return { kind: 'unchanged' };
  return { kind: 'apply', status: current, events: ['user.updated_trip'] };
}

export function decideStatusChange(current: TripStatus, requested: RequestableStatus): StatusDecision {
  if (isStopped(current)) {
    if (requested === current) return { kind: 'unchanged' };
    return { kind: 'refused', reason: `trip is ${current}; a ${current} trip cannot change status (asked for ${requested})` };
  }
  if (requested === 'completed' || requested === 'canceled') {
    return { kind: 'apply', status: requested, events: ['user.stopped_trip'] };
  }
  if (requested === 'pending') {
    if (current === 'pending') return { kind: 'apply', status: 'pending', events: ['user.updated_trip'] };
    return { kind: 'refused', reason: `trip is ${current}; a started trip cannot go back to pending` };
  }
  // requested is active from here on.
  if (current === 'pending') return { kind: 'apply', status: requested, events: startEvents(requested) };
  if (!isActive(current)) return { kind: 'refused', reason: `trip is ${current}` };
  if (activeRank(requested) <= activeRank(current)) {
    return { kind: 'apply', status: current, events: ['user.updated_trip'] };
  }
  return { kind: 'apply', status: requested, events: [arrivalEvent(requested)] };
}

/** Events of a trip that starts directly in `status` (creation with a status, or leaving pending). */
export function startEvents(status: 'pending' | 'started' | 'approaching' | 'arrived'): TripEventType[] {
  if (status === 'pending') return [];
  if (status === 'started') return ['user.started_trip'];
  return ['user.started_trip', arrivalEvent(status)];
}

function arrivalEvent(status: 'started' | 'approaching' | 'arrived'): TripEventType {
  if (status === 'approaching') return 'user.approaching_trip_destination';
  if (status === 'arrived') return 'user.arrived_at_trip_destination';
  return 'user.started_trip';
}
