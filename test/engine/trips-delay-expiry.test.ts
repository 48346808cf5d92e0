// Lateness against scheduledArrivalAt, the expiry due date and the capped location trail.
import { appendLocation, tripDelay, tripExpiresAt, TRIP_LOCATION_CAP, type TripStatus } from '../../core/trips';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const min = (m: number) => NOW + m * 60_000;

test.each([
  ['on time: arrival well before the schedule', { scheduledArrivalAt: min(30), now: NOW, etaMinutes: 10 }, { delayed: false, scheduledArrivalTimeDelay: 0 }],
  ['exactly on schedule is not delayed', { scheduledArrivalAt: min(10), now: NOW, etaMinutes: 10 }, { delayed: false, scheduledArrivalTimeDelay: 0 }],
  ['late by now + eta - scheduled', { scheduledArrivalAt: min(10), now: NOW, etaMinutes: 25 }, { delayed: true, scheduledArrivalTimeDelay: 15 }],
  ['rounded to a tenth of a minute', { scheduledArrivalAt: min(0), now: NOW, etaMinutes: 1.234 }, { delayed: true, scheduledArrivalTimeDelay: 1.2 }],
  ['no eta: late once the schedule has passed', { scheduledArrivalAt: min(-7), now: NOW }, { delayed: true, scheduledArrivalTimeDelay: 7 }],
  ['no eta, schedule ahead: not delayed', { scheduledArrivalAt: min(7), now: NOW }, { delayed: false, scheduledArrivalTimeDelay: 0 }],
  ['arrived: the arrival time counts, not now + eta', { scheduledArrivalAt: min(-10), now: NOW, etaMinutes: 50, arrivedAt: min(-4) }, { delayed: true, scheduledArrivalTimeDelay: 6 }],
  ['arrived early: not delayed', { scheduledArrivalAt: min(0), now: NOW, etaMinutes: 50, arrivedAt: min(-4) }, { delayed: false, scheduledArrivalTimeDelay: 0 }],
  ['a few seconds late rounds to 0 and is not delayed', { scheduledArrivalAt: min(0), now: NOW + 2_000 }, { delayed: false, scheduledArrivalTimeDelay: 0 }],
])('delay: %s', (_name, input, expected) => {
  expect(tripDelay(input)).toEqual(expected);
});

const UPDATED = '2026-03-01T12:00:00.000Z';
test.each([
  ['pending', '2026-03-02T12:00:00.000Z'],
  ['started', '2026-03-02T12:00:00.000Z'],
  ['approaching', '2026-03-02T12:00:00.000Z'],
  ['arrived', '2026-03-02T12:00:00.000Z'],
  ['completed', undefined],
  ['canceled', undefined],
  ['expired', undefined],
] as Array<[TripStatus, string | undefined]>)('expiry of a %s trip after 24 h: %s', (status, expected) => {
  expect(tripExpiresAt(status, UPDATED, 24)).toBe(expected);
});

test('expiry follows fractional hours', () => {
  expect(tripExpiresAt('started', UPDATED, 0.5)).toBe('2026-03-01T12:30:00.000Z');
});

/** The trail is generic; a point here is its index. */
type Point = { n: number };
const point = (n: number): Point => ({ n });

test('the trail appends newest last without touching its input', () => {
  const trail = [point(1), point(2)];
  const next = appendLocation(trail, point(3));
  expect(next.map((p) => p.n)).toEqual([1, 2, 3]);
  expect(trail).toHaveLength(2);
});

test('the trail keeps the newest `cap` points', () => {
  let trail: Point[] = [];
  for (let i = 1; i <= 7; i++) trail = appendLocation(trail, point(i), 3);
  expect(trail.map((p) => p.n)).toEqual([5, 6, 7]);
});

test('the default cap holds', () => {
  let trail: Point[] = [];
  for (let i = 0; i < TRIP_LOCATION_CAP + 25; i++) trail = appendLocation(trail, point(i));
  expect(trail).toHaveLength(TRIP_LOCATION_CAP);
  expect(trail[0].n).toBe(25);
});
