// Every east-Baltimore route OSRM v6 answered (../shared/fixtures/engines/osrm/baltimore-routes-v6.0.0), asked of
// a gateway over the same extract, printed with its steps beside OSRM's street names and sorted into classes of
// difference, so the largest class can be worked on first.
//
// Run: npm run bench:build && node dist/bench/osrm-baltimore-names.js
// Options (env): DATA (a data folder kept between runs: imported when it has no `baltimore` extract yet),
//   ONLY (comma list of route numbers to print in full), REIMPORT=1 (import again into DATA).
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../importers/osm/import-pipeline';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import { startTestServer, tempDataDir } from '../test/support/server';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const ROUTES = path.join(FIXTURES, 'engines/osrm/baltimore-routes-v6.0.0/routes.json');
const PBF = path.join(FIXTURES, 'osm/us-md-baltimore-valhalla.osm.pbf');

interface OsrmRoute { from: [number, number]; to: [number, number]; code: string; distance?: number; duration?: number; names?: string[] }
interface Step { street_name: string; distance: { value: number }; instructions?: string; manuever?: string; start_location?: { latitude: number; longitude: number } }

const collapsed = (names: string[]): string[] => names.filter((n, i) => i === 0 || names[i - 1] !== n);

/** The class of a name difference: what the first differing position looks like. */
function classify(ours: string[], theirs: string[]): string {
  if (ours.length === theirs.length + 1 && ours.filter((n) => n !== '').join('|') === theirs.filter((n) => n !== '').join('|')) return 'unnamed step only ours';
  if (theirs.length === ours.length + 1 && ours.filter((n) => n !== '').join('|') === theirs.filter((n) => n !== '').join('|')) return 'unnamed step only OSRM';
  const extra = (a: string[], b: string[]) => a.length === b.length + 1 && a.some((_, k) => JSON.stringify([...a.slice(0, k), ...a.slice(k + 1)]) === JSON.stringify(b));
  const where = (a: string[], b: string[]) => { for (let k = 0; k < a.length; k++) if (JSON.stringify([...a.slice(0, k), ...a.slice(k + 1)]) === JSON.stringify(b)) return k === 0 ? 'first' : k === a.length - 1 ? 'last' : 'middle'; return '?'; };
  if (extra(ours, theirs)) return `named step only ours (${where(ours, theirs)})`;
  if (extra(theirs, ours)) return `named step only OSRM (${where(theirs, ours)})`;
  if (ours.length === theirs.length) return 'same count, other names';
  return 'other';
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA ?? tempDataDir();
  if (process.env.REIMPORT === '1' || !fs.existsSync(path.join(dataDir, 'extracts', 'baltimore'))) {
    fs.mkdirSync(dataDir, { recursive: true });
    await runImport({ file: PBF, name: 'baltimore', dataDir, stages: [new RoutingStage()] });
  }
  const server = await startTestServer({ dataDir });
  const only = new Set((process.env.ONLY ?? '').split(',').filter(Boolean).map(Number));
  const routes = (JSON.parse(fs.readFileSync(ROUTES, 'utf8')) as OsrmRoute[]).filter((r) => r.code === 'Ok');
  const ll = ([lon, lat]: [number, number]) => `${lat},${lon}`;
  const classes = new Map<string, number[]>();
  let close = 0;
  let equal = 0;
  for (const [i, r] of routes.entries()) {
    if (only.size > 0 && !only.has(i)) continue;
    const distance = await server.request('GET', '/v1/route/distance', { key: server.keys.testPk, query: { origin: ll(r.from), destination: ll(r.to), modes: 'car', units: 'metric' } });
    const directions = await server.request('GET', '/v1/route/directions', { key: server.keys.testPk, query: { locations: `${ll(r.from)}|${ll(r.to)}`, mode: 'car', units: 'metric' } });
    if (distance.status !== 200 || directions.status !== 200) { console.log(`#${i} not routed`); continue; }
    const metres = distance.body.routes.car.distance.value as number;
    const seconds = (distance.body.routes.car.duration.value as number) * 60;
    const isClose = Math.abs(metres / r.distance! - 1) <= 0.02 && Math.abs(seconds / r.duration! - 1) <= 0.1;
    const steps = (directions.body.routes[0].legs as Array<{ steps: Step[] }>).flatMap((l) => l.steps);
    const ours = collapsed(steps.filter((s) => s.distance.value > 0).map((s) => s.street_name));
    const theirs = collapsed(r.names!);
    const same = JSON.stringify(ours) === JSON.stringify(theirs);
    if (isClose) close++;
    if (same) equal++;
    if (same && isClose && only.size === 0) continue;
    const cls = same ? 'names equal' : isClose ? classify(ours, theirs) : `far: ${classify(ours, theirs)}`;
    if (!isClose && same) { /* counted below */ }
    classes.set(cls, [...(classes.get(cls) ?? []), i]);
    console.log(`#${i} [${cls}] ${metres.toFixed(0)} m ${seconds.toFixed(0)} s vs ${r.distance!.toFixed(0)} m ${r.duration!.toFixed(0)} s`);
    if (!same || only.size > 0) {
      console.log(`    ours  ${JSON.stringify(ours)}\n    OSRM  ${JSON.stringify(theirs)}`);
      if (process.env.STEPS === '1' || only.size > 0) for (const s of steps) console.log(`      ${s.distance.value.toFixed(0).padStart(5)} m  ${JSON.stringify(s.street_name)}  ${s.manuever ?? ''} ${s.instructions ?? ''} ${s.start_location ? `${s.start_location.longitude},${s.start_location.latitude}` : ''}`);
    }
  }
  console.log(`\nclose ${close}, names equal ${equal} of ${routes.length}`);
  for (const [cls, ids] of [...classes.entries()].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${String(ids.length).padStart(3)} ${cls}: ${ids.map((n) => `#${n}`).join(' ')}`);
  await server.close();
}

main().catch((err) => { console.error(err); process.exit(1); });
