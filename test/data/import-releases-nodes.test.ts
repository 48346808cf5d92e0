// What the importing thread lets go before the routing stage's contractions (issue 35: at ×20×20 the
// process's own memory when the graphs start decides how many modes fit the budget at once). The node
// index (16 bytes a node) is read by the routing stage only while it makes its network; the stage, last,
// releases it, and the pipeline drops it then and not before: a stage after one that releases still reads it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import type { ProgressEvent } from '../../importers/osm/import-progress';
import type { ImportStage, StageContext, StageSummary } from '../../importers/osm/stage';
import { IMPORT_STAGES } from '../../importers/osm/stages';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { collectGarbage } from '../../adapters/router/embedded/collect-garbage';
import { requires, sharedFixture, SHARED_FIXTURES } from '../support/requires';

let DATA: string;
beforeAll(() => {
  DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-release-'));
});
afterAll(() => fs.rmSync(DATA, { recursive: true, force: true }));

/** Keeps a weak reference to the node index it is handed, and reads it in its finish. */
class NodeIndexProbe implements ImportStage {
  readonly name = 'probe';
  index: WeakRef<object> | undefined;
  nodesRead = 0;

  async finish(ctx: StageContext): Promise<StageSummary> {
    this.nodesRead = ctx.nodes.size;
    this.index = new WeakRef(ctx.nodes);
    return {};
  }
}

const withExtract = requires('the Lower East Side extract', sharedFixture('osm/us-ny-manhattan-les-valhalla.osm.pbf'));

withExtract('the importing thread before the contractions', () => {
  const file = path.join(SHARED_FIXTURES, 'osm/us-ny-manhattan-les-valhalla.osm.pbf');

  test('every stage run, the routing stage last: the node index is gone when the graphs start', async () => {
    const probe = new NodeIndexProbe();
    // The real stages (geocoding, places, base map) before routing: none may keep the index either.
    const stages = [probe, ...IMPORT_STAGES.slice(0, -1).map((make) => make()), new RoutingStage(['car'])];
    let checked = false;
    let indexAlive: boolean | undefined;
    let heldLine = '';
    const onProgress = (e: ProgressEvent): void => {
      if (checked || e.label !== 'routing' || !e.phase.startsWith('building and contracting')) return;
      checked = true;
      heldLine = e.detail;
      collectGarbage();
      indexAlive = probe.index?.deref() !== undefined;
    };
    const result = await runImport({ file, name: 'released', dataDir: DATA, stages, onProgress });
    expect(probe.nodesRead).toBeGreaterThan(1_000);
    expect(checked).toBe(true);
    expect(indexAlive).toBe(false);
    // The building says what the importing thread holds, and the summary keeps it.
    expect(heldLine).toMatch(/the importing thread holds .* the network .* the modes' inputs/);
    const routing = result.manifest.stages.routing;
    expect(routing['MiB held at building']).toBeGreaterThan(0);
    expect(typeof routing['network MiB']).toBe('number');
    expect(typeof routing['mode inputs MiB']).toBe('number');
  }, 300_000);

  test('a stage that releases the index before another stage: the later one still reads it', async () => {
    const probe = new NodeIndexProbe();
    await runImport({ file, name: 'kept', dataDir: DATA, stages: [new RoutingStage(['car']), probe] });
    expect(probe.nodesRead).toBeGreaterThan(1_000);
  }, 300_000);
});
