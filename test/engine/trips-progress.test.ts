// What a location update does to an active trip, and which approaching threshold applies.
import { approachingThreshold, progressOnLocation, type ActiveStatus, type LocationProgressInput } from '../../core/trips';

const APPROACHING = 'user.approaching_trip_destination';
const ARRIVED = 'user.arrived_at_trip_destination';

interface Case {
  name: string;
  input: Partial<LocationProgressInput> & { status: ActiveStatus };
  status: ActiveStatus;
  events: string[];
}

const base: Omit<LocationProgressInput, 'status'> = { etaMinutes: 20, threshold: 5, atDestination: false };

const cases: Case[] = [
  { name: 'far away: still started', input: { status: 'started' }, status: 'started', events: [] },
  { name: 'eta just above threshold: still started', input: { status: 'started', etaMinutes: 5.1 }, status: 'started', events: [] },
  { name: 'eta equal to threshold: approaching (inclusive)', input: { status: 'started', etaMinutes: 5 }, status: 'approaching', events: [APPROACHING] },
  { name: 'eta below threshold: approaching', input: { status: 'started', etaMinutes: 1.2 }, status: 'approaching', events: [APPROACHING] },
  { name: 'no eta (no destination): never approaching', input: { status: 'started', etaMinutes: undefined }, status: 'started', events: [] },
  { name: 'threshold 0 needs eta 0', input: { status: 'started', etaMinutes: 0.1, threshold: 0 }, status: 'started', events: [] },
  { name: 'approaching stays approaching when eta grows', input: { status: 'approaching', etaMinutes: 30 }, status: 'approaching', events: [] },
  { name: 'approaching does not repeat its event', input: { status: 'approaching', etaMinutes: 1 }, status: 'approaching', events: [] },
  { name: 'approaching → arrived at the destination', input: { status: 'approaching', etaMinutes: 0.2, atDestination: true }, status: 'arrived', events: [ARRIVED] },
  { name: 'started straight into the destination: both events, approaching first', input: { status: 'started', etaMinutes: 0.3, atDestination: true }, status: 'arrived', events: [APPROACHING, ARRIVED] },
  { name: 'started into a destination larger than the threshold: arrival only', input: { status: 'started', etaMinutes: 12, atDestination: true }, status: 'arrived', events: [ARRIVED] },
  { name: 'arrived stays arrived and repeats nothing', input: { status: 'arrived', etaMinutes: 0, atDestination: true }, status: 'arrived', events: [] },
  { name: 'arrived stays arrived after leaving', input: { status: 'arrived', etaMinutes: 40, atDestination: false }, status: 'arrived', events: [] },
];

test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
  expect(progressOnLocation({ ...base, ...c.input })).toEqual({ status: c.status, events: c.events });
});

test.each([
  ['trip wins over geofence and project', { trip: 2, geofence: 7, project: 5 }, 2],
  ['geofence wins over project', { geofence: 7, project: 5 }, 7],
  ['project when neither is set', { project: 5 }, 5],
  ['a trip threshold of 0 is a real value, not absent', { trip: 0, geofence: 7, project: 5 }, 0],
  ['a geofence threshold of 0 is a real value, not absent', { geofence: 0, project: 5 }, 0],
])('threshold: %s', (_name, sources, expected) => {
  expect(approachingThreshold(sources)).toBe(expected);
});
