// The OSRM conformance runner: every scenario of OSRM's car or foot feature files drawn as OSM XML
// (scenario-map.ts), each feature file imported as one extract with the real import pipeline and routing
// stage (what `waymark data import` runs), one real server over them all, and each expectation asked over
// HTTP (GET /v1/route/directions) and compared as OSRM's harness compares it (its fuzzy matching: exact,
// `+-` absolute, `~%` relative, `/regex/`). Columns compared: route (step names), time, distance, speed,
// modes, status, and routability (forw/backw/bothw). Other columns (turns, geometry, annotations, lanes…)
// test OSRM's response format and are not read.
import fs from 'node:fs';
import path from 'node:path';
import type { LngLat } from '../../../ports/router';
import { runImport } from '../../../importers/osm/import-pipeline';
import { RoutingStage } from '../../../importers/osm/stages/routing/routing-stage';
import { startTestServer, tempDataDir, type TestServer } from '../../support/server';
import { readFeature, type Scenario } from './gherkin';
import { ScenarioMaps, toolingReason, type Check, type DrawnScenario, type RoutabilityCheck, type RouteCheck } from './scenario-map';

export const OSRM_FEATURES = path.resolve(__dirname, '../../../../shared/fixtures/osrm-features');

export type Outcome = 'passed' | 'failed' | 'skipped' | 'unasked';

export interface ScenarioResult {
  id: string;
  name: string;
  outcome: Outcome;
  /** Why skipped or not asked; what differed when failed. */
  detail: string[];
}

const MODE: Record<string, string> = { car: 'car', foot: 'foot', bicycle: 'bike' };

/** OSRM's fuzzy comparison of a table cell (features/support in osrm-backend), with `slack` added to numeric exact values. */
export function fuzzyMatch(got: string, want: string, slack = 0): boolean {
  if (want === '' && got === '') return true;
  if (got === want) return true;
  const percent = /(.*)\s+~(.+)%$/.exec(want);
  if (percent) {
    const target = parseFloat(percent[1]);
    return target === 0 || 100 * Math.abs(1 - parseFloat(got) / target) < parseFloat(percent[2]);
  }
  const abs = /(.*)\s+\+-(.+)$/.exec(want);
  if (abs) return Math.abs(parseFloat(got) - parseFloat(abs[1])) <= parseFloat(abs[2]) + slack;
  const re = /^\/(.*)\/$/.exec(want);
  if (re) return new RegExp(re[1]).test(got);
  if (slack > 0 && /^-?[\d.]+/.test(want) && /^-?[\d.]+/.test(got)) {
    const unit = (s: string) => s.replace(/^-?[\d.]+\s*/, '');
    return unit(got) === unit(want) && Math.abs(parseFloat(got) - parseFloat(want)) <= slack;
  }
  return false;
}

interface Asked {
  ok: boolean;
  status: number;
  names: string[];
  modes: string[];
  metres: number;
  seconds: number;
}

async function ask(server: TestServer, mode: string, points: LngLat[]): Promise<Asked> {
  const locations = points.map(([lon, lat]) => `${lat.toFixed(7)},${lon.toFixed(7)}`).join('|');
  const reply = await server.request('GET', '/v1/route/directions', { key: server.keys.testPk, query: { locations, mode, units: 'metric' } });
  if (reply.status !== 200) return { ok: false, status: reply.status, names: [], modes: [], metres: 0, seconds: 0 };
  const route = reply.body.routes[0];
  const steps = route.legs.flatMap((l: { steps: unknown[] }) => l.steps) as Array<{ street_name: string; mode: string }>;
  return {
    ok: true, status: 200, names: steps.map((s) => s.street_name), modes: steps.map((s) => s.mode),
    metres: route.distance.value, seconds: route.duration.value * 60,
  };
}

/**
 * Durations come in hundredths of a minute (Radar's unit), ±0.3 s: exact times may differ by 1 s, and a
 * speed over one of OSRM's short test ways by what 0.3 s changes it (plus 1 for its rounding).
 */
const TIME_SLACK_S = 1;
const DURATION_PRECISION_S = 0.3;

function speedSlack(metres: number, seconds: number): number {
  return seconds > DURATION_PRECISION_S ? (3.6 * metres) / (seconds - DURATION_PRECISION_S) - (3.6 * metres) / seconds + 1 : 1;
}

async function checkRoute(server: TestServer, mode: string, c: RouteCheck): Promise<string[]> {
  const got = await ask(server, mode, c.points);
  const row = c.row;
  const problems: string[] = [];
  const expect = (column: string, value: string, slack = 0) => {
    if (row[column] === undefined) return;
    if (!fuzzyMatch(value, row[column], slack)) problems.push(`${column}: want "${row[column]}", got "${value}"`);
  };
  const label = row.waypoints ?? `${row.from}→${row.to}`;
  expect('route', got.ok ? got.names.join(',') : '');
  if (row.time !== undefined) expect('time', got.ok ? `${Math.round(got.seconds * 10) / 10}s` : '', row.time === '' ? 0 : TIME_SLACK_S);
  if (row.distance !== undefined) expect('distance', got.ok && row.distance !== '' ? `${got.metres}m` : '');
  if (row.speed !== undefined) expect('speed', got.ok && row.speed !== '' && got.seconds > 0 ? `${Math.round((3.6 * got.metres) / got.seconds)} km/h` : '', speedSlack(got.metres, got.seconds));
  if (row.modes !== undefined) expect('modes', got.ok ? got.modes.join(',') : '');
  if (row.status !== undefined) expect('status', String(got.status));
  return problems.map((p) => `${label} ${p}`);
}

interface Direction {
  status: string;
  slack: number;
  time: string;
  speed: string;
  mode: string;
}

async function routabilityDirection(server: TestServer, mode: string, c: RoutabilityCheck, points: LngLat[]): Promise<Direction> {
  const got = await ask(server, mode, points);
  // As OSRM's harness: a route counts only when it starts on the way under test.
  if (!got.ok || got.names[0] !== c.wayName) return { status: '', slack: 0, time: '', speed: '', mode: '' };
  return {
    status: 'x', slack: speedSlack(got.metres, got.seconds), time: `${Math.round(got.seconds * 10) / 10} s`,
    speed: got.seconds > 0 ? `${Math.trunc((3.6 * got.metres) / got.seconds)} km/h` : '', mode: got.modes[0] ?? '',
  };
}

async function checkRoutability(server: TestServer, mode: string, c: RoutabilityCheck): Promise<string[]> {
  const forw = await routabilityDirection(server, mode, c, c.forward);
  const backw = await routabilityDirection(server, mode, c, [c.forward[1], c.forward[0]]);
  type Shown = Exclude<keyof Direction, 'slack'>;
  // Both ways alike; speeds and times alike within what the API's precision allows.
  const alike = (k: Shown) => forw[k] === backw[k]
    || ((k === 'speed' || k === 'time') && forw[k] !== '' && backw[k] !== '' && Math.abs(parseFloat(forw[k]) - parseFloat(backw[k])) <= (k === 'speed' ? Math.max(forw.slack, backw.slack) : 2 * DURATION_PRECISION_S));
  const both = (k: Shown) => (alike(k) ? forw[k] : 'diff');
  const result: Record<string, (k: Shown) => string> = { forw: (k) => forw[k], backw: (k) => backw[k], bothw: both };
  const slackOf: Record<string, number> = { forw: forw.slack, backw: backw.slack, bothw: Math.max(forw.slack, backw.slack) };
  const problems: string[] = [];
  for (const dir of ['forw', 'backw', 'bothw']) {
    const want = c.row[dir];
    if (want === undefined) continue;
    const of = result[dir];
    let got: string;
    let slack = 0;
    if (want === '') got = of('status') ? of('mode') : '';
    else if (want === 'x') got = of('status') ? 'x' : '';
    else if (/^[\d.]+ s/.test(want)) { got = of('time'); slack = TIME_SLACK_S; } else if (/^\d+ km\/h/.test(want)) { got = of('speed'); slack = slackOf[dir]; } else got = of('mode');
    if (!fuzzyMatch(got, want, slack)) {
      const tags = Object.entries(c.row).filter(([k, v]) => !/^(forw|backw|bothw)/.test(k) && v !== '').map(([k, v]) => `${k}=${v}`).join(' ');
      problems.push(`[${tags}] ${dir}: want "${want}", got "${got}"`);
    }
  }
  return problems;
}

async function runCheck(server: TestServer, mode: string, c: Check): Promise<string[]> {
  return c.kind === 'route' ? checkRoute(server, mode, c) : checkRoutability(server, mode, c);
}

/** Runs a few requests at once: the server answers them in turn, the client waits less. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  }));
  return out;
}

export interface GroupRun {
  results: ScenarioResult[];
  importSeconds: number;
  askSeconds: number;
  requests: number;
}

/**
 * Imports every feature file of a profile's folder (OSRM's, or `dir`: our own bicycle scenarios, written
 * in the same form) and asks every runnable scenario.
 */
export async function runProfileGroup(
  profile: 'car' | 'foot' | 'bicycle', log: (line: string) => void = () => undefined, dir = path.join(OSRM_FEATURES, profile),
): Promise<GroupRun> {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.feature')).sort();
  const dataDir = tempDataDir();
  const results: ScenarioResult[] = [];
  const drawn: Array<{ draw: DrawnScenario; id: string }> = [];
  const started = Date.now();
  for (const [f, file] of files.entries()) {
    const feature = file.replace(/\.feature$/, '');
    const scenarios: Scenario[] = readFeature(path.join(dir, file), feature);
    // Each feature file its own stretch of the globe; each scenario a slot in it.
    const maps = new ScenarioMaps(-170 + 9 * f, 1);
    for (const s of scenarios) {
      const id = `${profile}/${feature}.feature:${s.line}`;
      const tooling = toolingReason(s, profile);
      if (tooling) {
        results.push({ id, name: s.name, outcome: 'skipped', detail: [tooling] });
        continue;
      }
      const draw = maps.draw(s);
      // A scenario that only draws a map (no expectation of any kind) has nothing to check.
      if (draw.checks.length === 0 && draw.unasked === undefined) {
        results.push({ id, name: s.name, outcome: 'skipped', detail: ['states no expectation'] });
        continue;
      }
      drawn.push({ draw, id });
    }
    if (!drawn.some((d) => d.id.startsWith(`${profile}/${feature}.feature:`))) continue;
    const osm = path.join(dataDir, `${feature}.osm`);
    fs.writeFileSync(osm, maps.xml());
    await runImport({ file: osm, name: `osrm-${profile}-${feature.replace(/_/g, '-')}`, dataDir, stages: [new RoutingStage()] });
    log(`imported ${profile}/${file} (${scenarios.length} scenarios), ${((Date.now() - started) / 1000).toFixed(1)} s so far`);
  }
  const importSeconds = (Date.now() - started) / 1000;
  const server = await startTestServer({ dataDir });
  const asking = Date.now();
  let requests = 0;
  try {
    const mode = MODE[profile];
    const outcomes = await inBatches(drawn, 4, async ({ draw, id }) => {
      const problems: string[] = [];
      for (const c of draw.checks) {
        requests += c.kind === 'route' ? 1 : 2;
        problems.push(...(await runCheck(server, mode, c)));
      }
      const result: ScenarioResult = draw.unasked && draw.checks.length === 0
        ? { id, name: draw.scenario.name, outcome: 'unasked', detail: [draw.unasked] }
        : { id, name: draw.scenario.name, outcome: problems.length === 0 && !draw.unasked ? 'passed' : 'failed', detail: draw.unasked ? [draw.unasked, ...problems] : problems };
      return result;
    });
    results.push(...outcomes);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { results, importSeconds, askSeconds: (Date.now() - asking) / 1000, requests };
}
