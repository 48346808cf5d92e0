// Where OSRM's time goes on its recorded Monaco routes, step by step, next to ours on the same path. A
// route recorded with `annotations` gives OSRM's segment durations; a step's duration minus those of its
// segments is what the turns inside it and the maneuver ending it cost (OSRM books a turn's seconds
// before the turn). Ours: each turn's seconds (arc time minus the next segment's crossing) on our route,
// booked to the OSRM step whose stretch of the route (by distance from the start) holds it. Meaningful
// where both take the same path (the distances printed agree).
//
// Run: npm run bench:build && node dist/bench/osrm-turn-costs.js
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LngLat } from '../ports/router';
import { runImport } from '../importers/osm/import-pipeline';
import { RoutingStage } from '../importers/osm/stages/routing/routing-stage';
import { loadNetwork } from '../adapters/router/embedded/network-loader';

const ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../..' : '..');
const OSM = path.join(ROOT, '../shared/fixtures/osm/monaco-osrm.osm.pbf');
const OSRM = path.join(ROOT, '../shared/fixtures/engines/osrm/monaco-v6.0.0');
/** Recorded routes with per-segment durations and steps. */
const RECORDED = ['route_casino_to_palace_steps_full.json', 'route_3wp_polyline6_simplified.json'];

interface OsrmStep { distance: number; duration: number; name: string; maneuver: { type: string; modifier?: string } }
interface OsrmLeg { distance: number; duration: number; steps: OsrmStep[]; annotation: { distance: number[]; duration: number[] } }

function coordinates(request: string): LngLat[] {
  const m = /\/route\/v1\/driving\/([^?]+)/.exec(request)!;
  return m[1].split(';').map((p) => p.split(',').map(Number) as LngLat);
}

async function main(): Promise<void> {
  const missing = [OSM, OSRM].filter((f) => !fs.existsSync(f));
  if (missing.length > 0) {
    console.log(`skipped: missing ${missing.join(', ')}`);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-turn-costs-'));
  try {
    await runImport({ file: OSM, name: 'monaco', dataDir, stages: [new RoutingStage()] });
    const router = loadNetwork('monaco', path.join(dataDir, 'extracts', 'monaco'), [-180, -90, 180, 90])!.routers.car;
    const { network, mode } = router;
    const index = JSON.parse(fs.readFileSync(path.join(OSRM, 'INDEX.json'), 'utf8')).requests as { file: string; request: string }[];
    for (const file of RECORDED) {
      const recorded = JSON.parse(fs.readFileSync(path.join(OSRM, file), 'utf8'));
      const legs = (recorded.body ?? recorded).routes[0].legs as OsrmLeg[];
      const points = coordinates(index.find((r) => r.file === file)!.request);
      // Our legs as the route endpoint makes them (car: going on through intermediate points, as OSRM).
      const ourLegs = router.routeLegs(points.map((p) => router.snap(p, 1000)!), { continueStraight: true })!;
      legs.forEach((leg, l) => {
        // OSRM: the segments of each step, by distance.
        const { distance: segDistance, duration: segDuration } = leg.annotation;
        let k = 0;
        const steps = leg.steps.map((step) => {
          let metres = 0, seconds = 0;
          while (k < segDistance.length && metres + segDistance[k] <= step.distance + 0.5) {
            metres += segDistance[k];
            seconds += segDuration[k++];
          }
          return { step, turns: step.duration - seconds, ours: 0 };
        });
        // Ours: the turns along our route between the same points, booked by distance.
        const pieces = ourLegs[l];
        let along = 0;
        let ourTurns = 0;
        pieces.forEach((piece, i) => {
          if (i > 0) {
            const c = piece.segment * 2 + (piece.reversed ? 1 : 0);
            const crossing = (piece.reversed ? mode.segmentBackward : mode.segmentForward)[piece.segment];
            const turn = piece.duration - crossing * (piece.distance / network.segmentLength[c >> 1]);
            ourTurns += turn;
            let start = 0;
            const s = steps.find((x) => {
              start += x.step.distance;
              return along <= start + 1;
            }) ?? steps[steps.length - 1];
            s.ours += turn;
          }
          along += piece.distance;
        });
        const ourSeconds = pieces.reduce((t, p) => t + p.duration, 0);
        console.log(`${file} leg ${l}: OSRM ${leg.distance} m, ${leg.duration} s (turns ${(leg.duration - segDuration.reduce((a, b) => a + b, 0)).toFixed(1)} s); ours ${along.toFixed(1)} m, ${ourSeconds.toFixed(1)} s (turns ${ourTurns.toFixed(1)} s)`);
        for (const { step, turns, ours } of steps) {
          const label = `${step.maneuver.type} ${step.maneuver.modifier ?? ''} ${step.name}`.padEnd(48);
          console.log(`  ${label} OSRM ${turns.toFixed(1).padStart(5)} s   ours ${ours.toFixed(1).padStart(5)} s`);
        }
      });
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
