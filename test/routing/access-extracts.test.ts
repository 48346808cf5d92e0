// The small Valhalla access-restriction extracts (New Hampshire, Pennsylvania): every segment a mode
// may use agrees with its way's tags as the profile reads them, one-way segments are never driven the
// wrong way, and a re-import seen by the catalog reloads the router.
import fs from 'node:fs';
import path from 'node:path';
import { readOsm } from '../../importers/osm/osm-reader';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import type { OsmTags } from '../../importers/osm/stage';
import type { RouterMode } from '../../ports/router';
import { prng } from '../../bench/support/prng';
import { OSM, fixturesPresent, importForRouting, type ImportedRouter } from './support';

const FILES = { nh: 'us-nh-access-restriction-valhalla.osm.pbf', pa: 'us-pa-access-restriction-valhalla.osm.pbf' };
const present = fixturesPresent('access extracts', ...Object.values(FILES).map((f) => path.join(OSM, f)));
const withFixtures = present ? describe : describe.skip;

let imported: ImportedRouter;
/** Per extract: the two files overlap and hold different versions of some ways. */
const tagsById = new Map<string, Map<number, OsmTags>>();
beforeAll(async () => {
  if (!present) return;
  imported = await importForRouting(FILES);
  for (const [name, f] of Object.entries(FILES)) {
    const tags = new Map<number, OsmTags>();
    await readOsm(path.join(OSM, f), { way: (w) => void tags.set(w.id, w.tags) });
    tagsById.set(name, tags);
  }
}, 180_000);
afterAll(() => imported?.close());

const DENIED: Record<RouterMode, string[]> = {
  car: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  truck: ['hgv', 'goods', 'motor_vehicle', 'vehicle', 'access'],
  bike: ['bicycle', 'vehicle', 'access'],
  foot: ['foot', 'access'],
};

withFixtures('access-restriction extracts', () => {
  test.each(Object.keys(FILES))('%s: no open segment of a way closed to the mode; oneways one way', (extract) => {
    const network = imported.router.networksLoaded.find((n) => n.extract === extract)!;
    let closedSeen = 0;
    let onewaySeen = 0;
    for (const mode of ['car', 'truck', 'bike', 'foot'] as const) {
      const r = network.routers[mode];
      const n = r.network;
      for (let s = 0; s < n.segmentFrom.length; s++) {
        const tags = tagsById.get(extract)!.get(n.wayOsmId[n.segmentWay[s]])!;
        const open = r.mode.segmentForward[s] >= 0 || r.mode.segmentBackward[s] >= 0;
        const key = DENIED[mode].find((k) => tags[k] !== undefined);
        if (key !== undefined && tags[key] === 'no') {
          closedSeen++;
          expect([mode, n.wayOsmId[n.segmentWay[s]], open]).toEqual([mode, n.wayOsmId[n.segmentWay[s]], false]);
        }
        if (mode === 'car' && tags.oneway === 'yes' && open) {
          onewaySeen++;
          expect([JSON.stringify(tags), r.mode.segmentBackward[s] < 0]).toEqual([JSON.stringify(tags), true]);
        }
      }
    }
    expect(closedSeen + onewaySeen).toBeGreaterThan(0);
  });

  test('car routes between random points never run a oneway backwards', async () => {
    const network = imported.router.networksLoaded.find((n) => n.extract === 'pa')!;
    const r = network.routers.car;
    const n = r.network;
    const random = prng(4);
    let routes = 0;
    for (let k = 0; k < 60; k++) {
      const s1 = Math.floor(random() * n.segmentFrom.length), s2 = Math.floor(random() * n.segmentFrom.length);
      const p1 = n.segmentStart[s1], p2 = n.segmentStart[s2];
      const a = r.snap([n.pointLon[p1] / 1e7, n.pointLat[p1] / 1e7], 1000), b = r.snap([n.pointLon[p2] / 1e7, n.pointLat[p2] / 1e7], 1000);
      if (!a || !b) continue;
      const pieces = r.legPieces(a, b);
      if (!pieces) continue;
      routes++;
      for (const p of pieces) expect((p.reversed ? r.mode.segmentBackward : r.mode.segmentForward)[p.segment]).toBeGreaterThanOrEqual(0);
    }
    expect(routes).toBeGreaterThan(10);
  });

  test('a re-import under the same name is picked up by the router through the catalog', async () => {
    const before = imported.router.networksLoaded.find((n) => n.extract === 'nh')!;
    await runImport({ file: path.join(OSM, FILES.pa), name: 'nh', dataDir: imported.dataDir, stages: [new RoutingStage()] });
    const after = (await imported.router.settled()).find((n) => n.extract === 'nh')!;
    expect(after).not.toBe(before);
    expect(after.bbox).toEqual(imported.router.networksLoaded.find((n) => n.extract === 'pa')!.bbox);
    expect(fs.existsSync(path.join(imported.dataDir, 'extracts', 'nh', 'routing', 'car.bin'))).toBe(true);
  }, 120_000);
});
