// Trip statuses (spec "Trip status") and the groups the rules speak of. The order of the active
// statuses is the order a trip moves through them; status never moves backwards within it.

export const TRIP_STATUSES = ['pending', 'started', 'approaching', 'arrived', 'completed', 'canceled', 'expired'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

/** What PATCH /v1/trips/:id/update may ask for: every status but `expired`, which only the expiry job sets. */
export const REQUESTABLE_STATUSES = ['pending', 'started', 'approaching', 'arrived', 'completed', 'canceled'] as const;
export type RequestableStatus = (typeof REQUESTABLE_STATUSES)[number];

/** What POST /v1/trips may start a trip in: a trip is not created already stopped. */
export const INITIAL_STATUSES = ['pending', 'started', 'approaching', 'arrived'] as const;
export type InitialStatus = (typeof INITIAL_STATUSES)[number];

/** Location updates move these trips and the user carries them as `user.trip`. */
export const ACTIVE_STATUSES = ['started', 'approaching', 'arrived'] as const;
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

/** Open = not stopped: only one open trip per externalId, and only open trips expire. */
export const OPEN_STATUSES = ['pending', ...ACTIVE_STATUSES] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

export const STOPPED_STATUSES = ['completed', 'canceled', 'expired'] as const;
export type StoppedStatus = (typeof STOPPED_STATUSES)[number];

export function isActive(status: TripStatus): status is ActiveStatus {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}

export function isOpen(status: TripStatus): status is OpenStatus {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

export function isStopped(status: TripStatus): status is StoppedStatus {
  return (STOPPED_STATUSES as readonly string[]).includes(status);
}

/** Position in the active sequence (started 0, approaching 1, arrived 2). */
export function activeRank(status: ActiveStatus): number {
  return ACTIVE_STATUSES.indexOf(status);
}

export type TripEventType =
  | 'user.started_trip'
  | 'user.updated_trip'
  | 'user.approaching_trip_destination'
  | 'user.arrived_at_trip_destination'
  | 'user.stopped_trip';
