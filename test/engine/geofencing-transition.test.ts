import { fenceTransition, type FencePosition, type VisitState } from '../../core/geofencing/index';
import { DEFAULT_PROJECT_SETTINGS, type Geofence, type ProjectSettings } from '../../core/types';
import { circleFence } from './fixtures/geofencing/make-geofence';

const AT = new Date('2024-05-01T12:00:00.000Z');
const minutesBefore = (m: number) => new Date(AT.getTime() - m * 60000).toISOString();

/** Positions against a 100 m fence with accuracy 10 m, as plain values. */
const POS = {
  deepInside: { inside: true, boundaryDistanceM: 50, accuracyM: 10, insideShare: 1 },
  straddlingIn: { inside: true, boundaryDistanceM: 5, accuracyM: 10, insideShare: 0.8 },
  justOutside: { inside: false, boundaryDistanceM: 5, accuracyM: 10, insideShare: 0.2 },
  farOutside: { inside: false, boundaryDistanceM: 500, accuracyM: 10, insideShare: 0 },
} satisfies Record<string, FencePosition>;

const fence = circleFence('f1', [-73.98, 40.75], 100);
const visit = (enteredMinutesAgo: number, dwelled?: boolean): VisitState => ({
  geofenceId: 'f1',
  enteredAt: minutesBefore(enteredMinutesAgo),
  ...(dwelled ? { dwelled } : {}),
});

interface Case {
  name: string;
  visit?: VisitState;
  position: FencePosition;
  settings?: Partial<ProjectSettings>;
  geofence?: Partial<Geofence>;
  stopped?: boolean;
  foreground?: boolean;
  expected: { type: string; confidence?: number; duration?: number; dwelled?: boolean; stillInside: boolean };
}

const cases: Case[] = [
  { name: 'outside → inside: entry, confidence 3', position: POS.deepInside, expected: { type: 'enter', confidence: 3, stillInside: true } },
  { name: 'outside → straddling inside: entry, confidence 2', position: POS.straddlingIn, expected: { type: 'enter', confidence: 2, stillInside: true } },
  { name: 'outside → still outside: nothing', position: POS.farOutside, expected: { type: 'none', stillInside: false } },
  { name: 'inside → inside: no second entry (hysteresis)', visit: visit(1), position: POS.deepInside, expected: { type: 'none', stillInside: true } },
  { name: 'inside → outside: exit with duration', visit: visit(12.5), position: POS.farOutside, expected: { type: 'exit', confidence: 3, duration: 12.5, stillInside: false } },
  { name: 'inside → just outside: exit, confidence 2', visit: visit(3), position: POS.justOutside, expected: { type: 'exit', confidence: 2, duration: 3, stillInside: false } },
  { name: 'exit duration has millisecond precision', visit: { geofenceId: 'f1', enteredAt: new Date(AT.getTime() - 84491305 * 60).toISOString() }, position: POS.farOutside, expected: { type: 'exit', confidence: 3, duration: 84491.305, stillInside: false } },
  { name: 'exit duration never negative (entry stamped after the update)', visit: { geofenceId: 'f1', enteredAt: '2024-05-01T12:05:00.000Z' }, position: POS.farOutside, expected: { type: 'exit', confidence: 3, duration: 0, stillInside: false } },
  // Buffers
  { name: 'buffer entries off: just outside is not an entry', position: POS.justOutside, expected: { type: 'none', stillInside: false } },
  { name: 'buffer entries on: within r of the edge enters, confidence 1', position: POS.justOutside, settings: { bufferEntries: true }, expected: { type: 'enter', confidence: 1, stillInside: true } },
  { name: 'buffer exits on: within r outside keeps the visit', visit: visit(3), position: POS.justOutside, settings: { bufferExits: true }, expected: { type: 'none', stillInside: true } },
  { name: 'buffer exits on: far outside exits', visit: visit(3), position: POS.farOutside, settings: { bufferExits: true }, expected: { type: 'exit', confidence: 3, duration: 3, stillInside: false } },
  // Stop detection
  { name: 'stop detection on, moving in background: no entry', position: POS.deepInside, settings: { stopDetection: true }, expected: { type: 'none', stillInside: false } },
  { name: 'stop detection on, stopped: entry', position: POS.deepInside, settings: { stopDetection: true }, stopped: true, expected: { type: 'enter', confidence: 3, stillInside: true } },
  { name: 'stop detection on, foreground: entry', position: POS.deepInside, settings: { stopDetection: true }, foreground: true, expected: { type: 'enter', confidence: 3, stillInside: true } },
  { name: 'stop detection on in project, off on the geofence: entry while moving', position: POS.deepInside, settings: { stopDetection: true }, geofence: { stopDetection: false }, expected: { type: 'enter', confidence: 3, stillInside: true } },
  { name: 'stop detection off in project, on for the geofence: no entry while moving', position: POS.deepInside, geofence: { stopDetection: true }, expected: { type: 'none', stillInside: false } },
  { name: 'stop detection does not hold back exits', visit: visit(2), position: POS.farOutside, settings: { stopDetection: true }, expected: { type: 'exit', confidence: 3, duration: 2, stillInside: false } },
  // Dwell
  { name: 'dwell: threshold not reached', visit: visit(9.99), position: POS.deepInside, settings: { dwellEvents: true }, geofence: { dwellThreshold: 10 }, expected: { type: 'none', stillInside: true } },
  { name: 'dwell: exactly at the threshold fires', visit: visit(10), position: POS.deepInside, settings: { dwellEvents: true }, geofence: { dwellThreshold: 10 }, expected: { type: 'dwell', confidence: 3, dwelled: true, stillInside: true } },
  { name: 'dwell: past the threshold fires', visit: visit(25), position: POS.straddlingIn, settings: { dwellEvents: true }, geofence: { dwellThreshold: 10 }, expected: { type: 'dwell', confidence: 2, dwelled: true, stillInside: true } },
  { name: 'dwell: once per visit', visit: visit(30, true), position: POS.deepInside, settings: { dwellEvents: true }, geofence: { dwellThreshold: 10 }, expected: { type: 'none', dwelled: true, stillInside: true } },
  { name: 'dwell: project setting off', visit: visit(30), position: POS.deepInside, geofence: { dwellThreshold: 10 }, expected: { type: 'none', stillInside: true } },
  { name: 'dwell: geofence without threshold', visit: visit(30), position: POS.deepInside, settings: { dwellEvents: true }, expected: { type: 'none', stillInside: true } },
  { name: 'dwell: never on the entry update, even with threshold 0', position: POS.deepInside, settings: { dwellEvents: true }, geofence: { dwellThreshold: 0 }, expected: { type: 'enter', confidence: 3, stillInside: true } },
  { name: 'exit wins over a due dwell', visit: visit(30), position: POS.farOutside, settings: { dwellEvents: true }, geofence: { dwellThreshold: 10 }, expected: { type: 'exit', confidence: 3, duration: 30, stillInside: false } },
];

describe('fenceTransition', () => {
  test.each(cases)('$name', (c) => {
    const t = fenceTransition({
      visit: c.visit,
      position: c.position,
      settings: { ...DEFAULT_PROJECT_SETTINGS, ...c.settings },
      geofence: { ...fence, ...c.geofence },
      stopped: c.stopped ?? false,
      foreground: c.foreground ?? false,
      at: AT,
    });
    expect(t.type).toBe(c.expected.type);
    if (c.expected.confidence !== undefined) expect('confidence' in t && t.confidence).toBe(c.expected.confidence);
    if (c.expected.duration !== undefined) expect(t.type === 'exit' && t.duration).toBe(c.expected.duration);
    expect(t.visit !== undefined).toBe(c.expected.stillInside);
    if (c.expected.dwelled !== undefined) expect(t.visit?.dwelled).toBe(c.expected.dwelled);
  });

  test('an entry opens a visit stamped with the update time', () => {
    const t = fenceTransition({
      visit: undefined,
      position: POS.deepInside,
      settings: DEFAULT_PROJECT_SETTINGS,
      geofence: fence,
      stopped: false,
      foreground: false,
      at: AT,
    });
    expect(t.visit).toEqual({ geofenceId: 'f1', enteredAt: '2024-05-01T12:00:00.000Z' });
  });
});
