// How often the routing stage's memo of the modes' speeds per tag set (profiles/way-speeds-memo.ts)
// answers from memory on an extract, and what evaluating every way costs with and without it. The
// tiled regions repeat every tile's tag sets exactly; a real extract is the honest hit rate.
//
// Run: npx tsc -p tsconfig.json --outDir dist && node dist/bench/way-speeds-memo.js FILE.osm.pbf [FILE…]
// Ways are read first (all of them held), then evaluated: the CPU figures are the evaluations alone.
import path from 'node:path';
import { readOsm } from '../importers/osm/osm-reader';
import type { OsmTags } from '../importers/osm/stage';
import { bikeCandidate } from '../importers/osm/stages/routing/profiles/bike';
import { wayClass } from '../importers/osm/stages/routing/profiles/profile';
import { modeSpeeds, WaySpeedsMemo } from '../importers/osm/stages/routing/profiles/way-speeds-memo';

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e3;
};

async function main(): Promise<void> {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('usage: node dist/bench/way-speeds-memo.js FILE.osm.pbf [FILE…]');
  console.log('| extract | ways evaluated | hits | distinct verdicts kept | keys learnt | CPU direct ms | CPU with memo ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const file of files) {
    const tagSets: OsmTags[] = [];
    // The ways the routing stage evaluates: a road class, a ferry or a bike candidate.
    await readOsm(file, {
      way: (w) => {
        const t = w.tags;
        if (wayClass(t) !== undefined || t.route === 'ferry' || t.route === 'shuttle_train' || bikeCandidate(t)) tagSets.push(t);
      },
    });
    let t0 = cpuMs();
    let sink = 0;
    for (const t of tagSets) sink += modeSpeeds(t, 100).length;
    const direct = cpuMs() - t0;
    const memo = new WaySpeedsMemo();
    t0 = cpuMs();
    for (const t of tagSets) sink += memo.speeds(t, 100).length;
    const memoised = cpuMs() - t0;
    const c = memo.counts();
    const pct = (n: number) => `${((100 * n) / Math.max(1, tagSets.length)).toFixed(1)} %`;
    console.log(`| ${path.basename(file)} | ${tagSets.length.toLocaleString('en')} | ${pct(c.hits)} | ${c.entries.toLocaleString('en')} | ${c.keys} | ${direct.toFixed(0)} | ${memoised.toFixed(0)} |${sink < 0 ? ' ' : ''}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
