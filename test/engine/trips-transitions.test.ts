// Client-requested trip status changes (POST with status, PATCH /v1/trips/:id/update): every pair of
// current and requested status, with the decision and the events it produces.
import {
  REQUESTABLE_STATUSES, TRIP_STATUSES, decideStatusChange, startEvents,
  type RequestableStatus, type StatusDecision, type TripEventType, type TripStatus,
} from '../../core/trips';

const STARTED: TripEventType = 'user.started_trip';
const UPDATED: TripEventType = 'user.updated_trip';
const APPROACHING: TripEventType = 'user.approaching_trip_destination';
const ARRIVED: TripEventType = 'user.arrived_at_trip_destination';
const STOPPED: TripEventType = 'user.stopped_trip';

/** A decision as the table states it; refusals are checked by kind and message subject only. */
type Expected = Exclude<StatusDecision, { kind: 'refused' }> | { kind: 'refused' };
const apply = (status: TripStatus, ...events: TripEventType[]): Expected => ({ kind: 'apply', status, events });
const refused: Expected = { kind: 'refused' };
const unchanged: Expected = { kind: 'unchanged' };

// Rows: current status; columns: requested pending, started, approaching, arrived, completed, canceled.
const TABLE: Record<TripStatus, Record<RequestableStatus, Expected>> = {
  pending: {
    pending: apply('pending', UPDATED), started: apply('started', STARTED), approaching: apply('approaching', STARTED, APPROACHING),
    arrived: apply('arrived', STARTED, ARRIVED), completed: apply('completed', STOPPED), canceled: apply('canceled', STOPPED),
  },
  started: {
    pending: refused, started: apply('started', UPDATED), approaching: apply('approaching', APPROACHING),
    arrived: apply('arrived', ARRIVED), completed: apply('completed', STOPPED), canceled: apply('canceled', STOPPED),
  },
  approaching: {
    pending: refused, started: apply('approaching', UPDATED), approaching: apply('approaching', UPDATED),
    arrived: apply('arrived', ARRIVED), completed: apply('completed', STOPPED), canceled: apply('canceled', STOPPED),
  },
  arrived: {
    pending: refused, started: apply('arrived', UPDATED), approaching: apply('arrived', UPDATED),
    arrived: apply('arrived', UPDATED), completed: apply('completed', STOPPED), canceled: apply('canceled', STOPPED),
  },
  completed: { pending: refused, started: refused, approaching: refused, arrived: refused, completed: unchanged, canceled: refused },
  canceled: { pending: refused, started: refused, approaching: refused, arrived: refused, completed: refused, canceled: unchanged },
  expired: { pending: refused, started: refused, approaching: refused, arrived: refused, completed: refused, canceled: refused },
};

const cases = TRIP_STATUSES.flatMap((from) => REQUESTABLE_STATUSES.map((to) => [from, to, TABLE[from][to]] as const));

test('the table covers every status pair', () => {
  expect(cases).toHaveLength(TRIP_STATUSES.length * REQUESTABLE_STATUSES.length);
});

test.each(cases)('%s → %s', (from, to, expected) => {
  const decision = decideStatusChange(from, to);
  if (expected.kind === 'refused') {
    expect(decision.kind).toBe('refused');
    if (decision.kind === 'refused') expect(decision.reason).toContain(`trip is ${from}`);
  } else {
    expect(decision).toEqual(expected);
  }
});

test.each([
  ['pending', []],
  ['started', [STARTED]],
  ['approaching', [STARTED, APPROACHING]],
  ['arrived', [STARTED, ARRIVED]],
] as const)('a trip created %s reports %j', (status, events) => {
  expect(startEvents(status)).toEqual(events);
});
