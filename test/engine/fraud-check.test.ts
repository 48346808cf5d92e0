// The fraud engine: each flag raised by its own crafted input and by nothing else, the speed limits per
// mode, `passed` / `blocked` / `bypassed`, and the `last…At` datetimes carried from update to update.
import { DEFAULT_MAX_SPEED_MPS, FRAUD_FLAGS, INACCURATE_ABOVE_M, MAX_SPEED_MPS, checkFraud, impliedSpeed, type FraudCheckInput } from '../../core/fraud';
import { destinationPoint } from '../../core/geo/sphere';
import type { LngLat } from '../../core/types';

const HOME: LngLat = [-73.99, 40.73];
const T0 = new Date('2026-11-23T12:00:00.000Z');
const T60 = new Date(T0.getTime() + 60_000);

/** An honest update: 300 m in a minute after the previous one, good accuracy, nothing said. */
function honest(over: Partial<FraudCheckInput> = {}): FraudCheckInput {
  return {
    at: T60, location: destinationPoint(HOME, 300, 45), accuracy: 10,
    previous: { location: HOME, accuracy: 10, at: T0 },
    hints: {}, proxy: false, bypassed: false, userBlocked: false, blocking: false, ...over,
  };
}

/** `meters` in 60 seconds, accuracy 0 on both ends. */
const moved = (meters: number, mode?: string): Partial<FraudCheckInput> => ({
  location: destinationPoint(HOME, meters, 90), accuracy: 0, previous: { location: HOME, accuracy: 0, at: T0 }, mode,
});

const raisedBy: Array<[string, Partial<FraudCheckInput>, string]> = [
  ['mocked', { hints: { mocked: true } }, 'mocked'],
  ['compromised', { hints: { compromised: true } }, 'compromised'],
  ['sharing', { hints: { sharing: true } }, 'sharing'],
  ['proxy', { proxy: true }, 'proxy'],
  ['inaccurate', { accuracy: INACCURATE_ABOVE_M + 1 }, 'inaccurate'],
  ['jumped (no mode: faster than an airliner)', moved(DEFAULT_MAX_SPEED_MPS * 60 + 600), 'jumped'],
  ['jumped (car)', moved(MAX_SPEED_MPS.car * 60 + 600, 'car'), 'jumped'],
  ['jumped (foot)', moved(MAX_SPEED_MPS.foot * 60 + 600, 'foot'), 'jumped'],
];

test('an honest update raises nothing and passes', () => {
  const f = checkFraud(honest());
  for (const flag of FRAUD_FLAGS) expect(f[flag]).toBe(false);
  expect(f).toMatchObject({ passed: true, blocked: false, bypassed: false, verified: false, lastMockedAt: null, lastJumpedAt: null });
});

test.each(raisedBy)('%s raises only its flag and fails', (_name, over, flag) => {
  const f = checkFraud(honest(over));
  for (const other of FRAUD_FLAGS) expect([other, f[other]]).toEqual([other, other === flag]);
  expect(f.passed).toBe(false);
  expect(f.blocked).toBe(false);
});

test.each([
  ['car speed on foot is a jump', moved(MAX_SPEED_MPS.car * 60 - 600, 'foot'), true],
  ['the same in a car is not', moved(MAX_SPEED_MPS.car * 60 - 600, 'car'), false],
  ['an unknown mode uses the default limit', moved(MAX_SPEED_MPS.car * 60 + 600, 'hovercraft'), false],
  ['noise within both accuracies is no movement', { location: destinationPoint(HOME, 90, 0), accuracy: 50, previous: { location: HOME, accuracy: 50, at: T60 } }, false],
  ['a first update has nothing to jump from', { previous: undefined, location: [151.2, -33.86] as LngLat }, false],
  ['two updates in the same millisecond count as one second apart', { previous: { location: HOME, accuracy: 0, at: T60 }, location: destinationPoint(HOME, 200, 0), accuracy: 0 }, false],
] as Array<[string, Partial<FraudCheckInput>, boolean]>)('%s', (_name, over, jumped) => {
  expect(checkFraud(honest(over)).jumped).toBe(jumped);
});

test('implied speed takes both accuracies off the distance and floors time at one second', () => {
  expect(impliedSpeed({ at: T60, location: destinationPoint(HOME, 1_000, 0), accuracy: 100, previous: { location: HOME, accuracy: 300, at: T0 } })).toBeCloseTo(600 / 60, 3);
  expect(impliedSpeed({ at: T0, location: destinationPoint(HOME, 1_000, 0), accuracy: 0, previous: { location: HOME, accuracy: 0, at: T0 } })).toBeCloseTo(1_000, 3);
});

test('last…At: set to the update time when raised, carried while not, null before the first', () => {
  const first = checkFraud(honest({ hints: { mocked: true } }));
  expect(first.lastMockedAt).toBe(T60.toISOString());
  const later = new Date(T60.getTime() + 60_000);
  const second = checkFraud(honest({ at: later, previous: { location: HOME, accuracy: 10, at: T60 }, location: HOME, previousFraud: first }));
  expect(second).toMatchObject({ mocked: false, passed: true, lastMockedAt: T60.toISOString(), lastProxyAt: null });
});

test('blocking holds a failing update; bypass passes and never blocks; a blocked user fails', () => {
  expect(checkFraud(honest({ proxy: true, blocking: true }))).toMatchObject({ passed: false, blocked: true });
  expect(checkFraud(honest({ blocking: true }))).toMatchObject({ passed: true, blocked: false });
  expect(checkFraud(honest({ proxy: true, blocking: true, bypassed: true }))).toMatchObject({ proxy: true, passed: true, blocked: false, bypassed: true });
  expect(checkFraud(honest({ userBlocked: true }))).toMatchObject({ passed: false, blocked: true });
  expect(checkFraud(honest({ hints: { verified: true } })).verified).toBe(true);
});
