// Golden scenarios: each fixtures/geofencing/in/<name>.json (geofences, settings, a sequence of
// updates) is run update by update, carrying the visits along, and compared with out/<name>.json.
// REGEN=1 rewrites the outputs; review the diff before committing it.
import fs from 'fs';
import path from 'path';
import { GeofenceIndex, evaluateGeofences, type VisitState } from '../../core/geofencing';
import { DEFAULT_PROJECT_SETTINGS, type Geofence, type LngLat, type ProjectSettings } from '../../core/types';
import { circleFence, offset, polygonFence } from './fixtures/geofencing/make-geofence';

/** Positions in the fixtures are metres [east, north] of the scenario's origin, to stay readable. */
type Metres = [number, number];

interface ScenarioFence extends Partial<Geofence> {
  id: string;
  circle?: { center: Metres; radius: number };
  polygon?: Metres[];
}

interface Scenario {
  description: string;
  origin: LngLat;
  settings: Partial<ProjectSettings>;
  geofences: ScenarioFence[];
  updates: Array<{
    at: string;
    position: Metres;
    accuracy: number;
    stopped?: boolean;
    foreground?: boolean;
    userId?: string;
    ip?: string;
  }>;
}

interface StepResult {
  at: string;
  events: Array<{ type: string; geofence: string; confidence: number; duration?: number; currentlyOperating?: boolean }>;
  inside: string[];
}

const dir = path.join(__dirname, 'fixtures', 'geofencing');
const names = fs.readdirSync(path.join(dir, 'in')).filter((f) => f.endsWith('.json'));

function toGeofence(origin: LngLat, f: ScenarioFence): Geofence {
  const { id, circle, polygon, ...extra } = f;
  if (circle) return circleFence(id, offset(origin, ...circle.center), circle.radius, extra);
  if (polygon) return polygonFence(id, polygon.map((m) => offset(origin, ...m)), extra);
  throw new Error(`geofence ${id} needs circle or polygon`);
}

function runScenario(s: Scenario): StepResult[] {
  const index = new GeofenceIndex();
  index.load(s.geofences.map((f) => toGeofence(s.origin, f)));
  const settings = { ...DEFAULT_PROJECT_SETTINGS, ...s.settings };
  let visits: VisitState[] = [];
  return s.updates.map((u) => {
    const location = offset(s.origin, ...u.position);
    const r = evaluateGeofences({
      location,
      accuracy: u.accuracy,
      stopped: u.stopped ?? false,
      foreground: u.foreground ?? false,
      at: new Date(u.at),
      userId: u.userId,
      ip: u.ip,
      settings,
      candidates: index.near(location, u.accuracy),
      visits,
      lookup: (id) => index.get(id),
    });
    visits = r.visits;
    return {
      at: u.at,
      events: r.events.map((e) => ({
        type: e.type,
        geofence: e.geofence._id,
        confidence: e.confidence,
        ...(e.duration !== undefined ? { duration: e.duration } : {}),
        ...(e.currentlyOperating !== undefined ? { currentlyOperating: e.currentlyOperating } : {}),
      })),
      inside: r.inside.map((g) => g._id),
    };
  });
}

describe('golden geofencing scenarios', () => {
  test.each(names)('%s', (name) => {
    const scenario = JSON.parse(fs.readFileSync(path.join(dir, 'in', name), 'utf8')) as Scenario;
    const got = runScenario(scenario);
    const outPath = path.join(dir, 'out', name);
    if (process.env.REGEN === '1') fs.writeFileSync(outPath, JSON.stringify(got, null, 2) + '\n');
    expect(got).toEqual(JSON.parse(fs.readFileSync(outPath, 'utf8')));
  });
});
