// A re-import under a name a gateway is serving: requests go on answering while the new import is
// swapped in (never an error), the answers switch from the old network to the new one, and the old
// network is let go before the new one is read. A mode not asked for yet is read later from the file of
// the import its network came from, not from the new import that took the folder's place.
import fs from 'node:fs';
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { RoutingStage } from '../../importers/osm/stages/routing/routing-stage';
import { loadNetwork, readModeGraph } from '../../adapters/router/embedded/network-loader';
import { readManifest } from '../../core/formats/extract-folders';
import { OSM, fixturesPresent } from './support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const MONACO = 'monaco-osrm.osm.pbf';
const BALTIMORE = 'us-md-baltimore-valhalla.osm.pbf';
const present = fixturesPresent('re-import while serving', path.join(OSM, MONACO), path.join(OSM, BALTIMORE));
const CASINO = '43.7392,7.4277';
const PALACE = '43.7311,7.4197';

const importAs = (dataDir: string, file: string) => runImport({ file: path.join(OSM, file), name: 'region', dataDir, stages: [new RoutingStage()] });

(present ? describe : describe.skip)('re-import while serving', () => {
  const dataDir = tempDataDir();
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('requests answer throughout; Monaco is routed before, Baltimore after, and never an error', async () => {
    await importAs(dataDir, MONACO);
    server = await startTestServer({ dataDir, extracts: { reloadCheckMs: 0 } });
    // Two points in the dense east of the Baltimore extract, 1.3 km apart.
    const middle = '39.2904,-76.5800';
    const aside = '39.2990,-76.5700';

    const ask = async (origin: string, destination: string) => {
      const res = await server!.request('GET', '/v1/route/distance', { key: server!.keys.testPk, query: { origin, destination, modes: 'car', units: 'metric' } });
      return { status: res.status, routed: res.status === 200 && res.body.routes.car.estimate === undefined };
    };
    expect(await ask(CASINO, PALACE)).toEqual({ status: 200, routed: true });
    expect(await ask(middle, aside)).toEqual({ status: 200, routed: false });

    // Baltimore imported under the same name elsewhere, then swapped in with the import's own two renames
    // while requests keep coming: the gateway's reload is what is tested, not an import sharing its thread.
    const other = tempDataDir();
    await importAs(other, BALTIMORE);
    const extracts = path.join(dataDir, 'extracts');
    const answers: Array<{ which: 'monaco' | 'baltimore'; status: number; routed: boolean }> = [];
    let swapped = false;
    for (let round = 0; round < 200; round++) {
      answers.push({ which: 'monaco', ...(await ask(CASINO, PALACE)) });
      answers.push({ which: 'baltimore', ...(await ask(middle, aside)) });
      if (round === 2) {
        fs.renameSync(path.join(extracts, 'region'), path.join(extracts, `.old-region-${process.pid}`));
        fs.renameSync(path.join(other, 'extracts', 'region'), path.join(extracts, 'region'));
        fs.rmSync(path.join(extracts, `.old-region-${process.pid}`), { recursive: true, force: true });
        swapped = true;
      }
      if (swapped && answers.slice(-2).every((a) => a.routed === (a.which === 'baltimore'))) break;
    }
    fs.rmSync(other, { recursive: true, force: true });
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    // Each pair switches once at most: routed, then not (Monaco); not, then routed (Baltimore).
    const switches = (which: 'monaco' | 'baltimore') => answers.filter((a) => a.which === which).map((a) => a.routed).filter((r, i, all) => i > 0 && r !== all[i - 1]).length;
    expect(switches('monaco')).toBeLessThanOrEqual(1);
    expect(switches('baltimore')).toBeLessThanOrEqual(1);
    expect(await ask(CASINO, PALACE)).toEqual({ status: 200, routed: false });
    expect(await ask(middle, aside)).toEqual({ status: 200, routed: true });
  }, 600_000);

  test('a mode first asked after the folder was re-imported comes from the import its network was loaded from', async () => {
    const dir = tempDataDir();
    try {
      await importAs(dir, MONACO);
      const extract = path.join(dir, 'extracts', 'region');
      const monacoTruck = readModeGraph(path.join(extract, 'routing'), 'truck').vertexCount;
      const loaded = loadNetwork('region', extract, readManifest(extract).bbox)!;
      await importAs(dir, BALTIMORE);
      const baltimoreTruck = readModeGraph(path.join(extract, 'routing'), 'truck').vertexCount;
      expect(baltimoreTruck).not.toBe(monacoTruck);
      // The truck graph was not read at load: it is read now, from Monaco's file, gone from the folder.
      expect(loaded.routers.truck.mode.vertexCount).toBe(monacoTruck);
      // Let go: the network answers no more (its router is done with it).
      loaded.release();
      expect(() => loaded.routers.bike).toThrow(/was let go/);
      expect(() => loaded.routers.car).toThrow(/was let go/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
