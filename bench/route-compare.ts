// Compares the routes of two imports of one extract (two routing folders, e.g. before and after a change
// to the contraction): the same seeded sample of point pairs routed in each, per mode, counting the
// routes whose distance and duration are equal, and the largest difference. The network file is read
// from the first folder; both must come from the same reading of the extract.
//
// Run: npm run bench:build && node dist/bench/route-compare.js OLD_ROUTING_DIR NEW_ROUTING_DIR [PAIRS=300] [SEED=1]
import { readModeGraph, readNetwork } from '../adapters/router/embedded/network-loader';
import { ModeRouter } from '../core/routing/mode-router';
import { SegmentIndex } from '../core/routing/segment-index';
import { prng } from './support/prng';

const MODES = [['car', 'driving'], ['truck', 'driving'], ['bike', 'cycling'], ['foot', 'walking']] as const;


function main(): void {
  const [oldDir, newDir] = process.argv.slice(2, 4);
  if (!oldDir || !newDir) throw new Error('usage: node dist/bench/route-compare.js OLD_ROUTING_DIR NEW_ROUTING_DIR [PAIRS] [SEED]');
  const pairs = Number(process.argv[4] ?? 300);
  const seed = Number(process.argv[5] ?? 1);
  const network = readNetwork(oldDir);
  const index = new SegmentIndex(network);
  const vertices = network.vertexPoint.length;
  let failed = false;
  for (const [mode, travel] of MODES) {
    const before = new ModeRouter(network, readModeGraph(oldDir, mode), index, travel);
    const after = new ModeRouter(network, readModeGraph(newDir, mode), index, travel);
    const random = prng(seed);
    const point = (): [number, number] => {
      const p = network.vertexPoint[Math.floor(random() * vertices)];
      return [network.pointLon[p] / 1e7, network.pointLat[p] / 1e7];
    };
    let routed = 0, equal = 0, worstSeconds = 0, worstMetres = 0;
    for (let i = 0; i < pairs; i++) {
      const from = point(), to = point();
      const snaps = [before.snap(from, 200), before.snap(to, 200)];
      if (snaps[0] === null || snaps[1] === null) continue;
      const a = before.route(snaps as never)?.[0];
      const b = after.route(snaps as never)?.[0];
      if (a === undefined && b === undefined) continue;
      routed++;
      if (a === undefined || b === undefined) {
        worstSeconds = Infinity;
        continue;
      }
      const ds = Math.abs(a.duration - b.duration);
      const dm = Math.abs(a.distance - b.distance);
      if (ds === 0 && dm === 0) equal++;
      worstSeconds = Math.max(worstSeconds, ds);
      worstMetres = Math.max(worstMetres, dm);
    }
    if (equal !== routed) failed = true;
    console.log(`${mode}: ${equal} of ${routed} routes with equal distance and duration; largest difference ${worstSeconds} s, ${worstMetres} m`);
  }
  process.exit(failed ? 1 : 0);
}

main();
