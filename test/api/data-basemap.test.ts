// GET /v1/data/basemap over HTTP: the east Baltimore extract imported through the real pipeline (base
// map stage), a real gateway, its answers for views in and out of the extract, and bad input.
import path from 'node:path';
import { runImport } from '../../importers/osm/import-pipeline';
import { BasemapStage } from '../../importers/osm/stages/basemap/basemap-stage';
import { OSM, fixturesPresent } from '../routing/support';
import { startTestServer, tempDataDir, type TestServer } from '../support/server';

const FILE = path.join(OSM, 'us-md-baltimore-valhalla.osm.pbf');
const present = fixturesPresent('GET /v1/data/basemap', FILE);
const AROUND_PARK = '-76.59,39.285,-76.57,39.295';

(present ? describe : describe.skip)('GET /v1/data/basemap', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    await runImport({ file: FILE, name: 'baltimore', dataDir, stages: [new BasemapStage()] });
    server = await startTestServer({ dataDir });
  }, 120_000);
  afterAll(() => server?.close());

  const get = (query: Record<string, string>, key = server.keys.testSk) => server.request('GET', '/v1/data/basemap', { key, query });

  test('a street view answers water, parks, buildings and names in steps of 1e-6 degree, inside the cells it covers', async () => {
    const res = await get({ bbox: AROUND_PARK, zoom: '16' });
    expect(res.status).toBe(200);
    expect(res.body.meta.cut).toBe(false);
    expect(res.body.scale).toBe(1_000_000);
    expect(res.body.park.length).toBeGreaterThan(10);
    expect(res.body.building.length).toBeGreaterThan(100);
    expect(res.body.labels.map((l: { name: string }) => l.name)).toContain('Patterson Park');
    // Each part's first point is absolute: every one lies in the 0.01° cells the box touches.
    const firsts = (res.body.building as number[][][]).flat().map((part) => [part[0] / 1e6, part[1] / 1e6]);
    expect(firsts.filter(([x, y]) => x < -76.59 - 1e-6 || x > -76.56 || y < 39.28 - 1e-6 || y > 39.30)).toEqual([]);
  });

  test('the same view at zoom 14 has no buildings; a view outside the extract is empty', async () => {
    const res = await get({ bbox: AROUND_PARK, zoom: '14' });
    expect(res.status).toBe(200);
    expect(res.body.building).toEqual([]);
    expect(res.body.park.length).toBeGreaterThan(0);
    const paris = await get({ bbox: '2.3,48.8,2.4,48.9', zoom: '14' });
    expect([paris.status, paris.body.park, paris.body.water, paris.body.labels]).toEqual([200, [], [], []]);
  });

  test.each([
    ['no bbox', { zoom: '14' }, 'bbox'],
    ['a bbox of three numbers', { bbox: '1,2,3', zoom: '14' }, 'bbox'],
    ['west past east', { bbox: '-76.57,39.28,-76.59,39.29', zoom: '14' }, 'bbox'],
    ['a box wider than 4,096 pixels of its zoom', { bbox: '-76.7,39.2,-76.4,39.4', zoom: '15' }, 'bbox'],
    ['no zoom', { bbox: AROUND_PARK }, 'zoom'],
    ['a zoom that is not a number', { bbox: AROUND_PARK, zoom: 'street' }, 'zoom'],
    ['a zoom past 24', { bbox: AROUND_PARK, zoom: '25' }, 'zoom'],
  ])('%s answers 400 naming %s', async (_name, query, param) => {
    const res = await get(query as Record<string, string>);
    expect([res.status, res.body.meta.param]).toEqual([400, param]);
    expect(typeof res.body.meta.message).toBe('string');
  });

  test('the widest box a zoom allows is answered', async () => {
    const res = await get({ bbox: '-76.7,39.2,-76.4,39.4', zoom: '12' });
    expect(res.status).toBe(200);
    expect(res.body.water.length).toBeGreaterThan(0);
  });

  test('needs a secret key', async () => {
    const res = await get({ bbox: AROUND_PARK, zoom: '14' }, server.keys.testPk);
    expect(res.status).toBe(403);
  });
});
