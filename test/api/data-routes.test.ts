// GET /v1/data/extracts and /v1/data/roads: what is imported, and its roads in a box (the dashboard's
// base map), with Monaco imported through the real pipeline.
import path from 'node:path';
import { OSM, fixturesPresent, serverWithExtracts } from '../routing/support';
import type { TestServer } from '../support/server';

const present = fixturesPresent('data endpoints', path.join(OSM, 'monaco-osrm.osm.pbf'));

(present ? describe : describe.skip)('data endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWithExtracts({ monaco: 'monaco-osrm.osm.pbf' });
  }, 300_000);
  afterAll(() => server?.close());

  const get = (p: string, query: Record<string, string> = {}, key = server.keys.testSk) => server.request('GET', p, { key, query });

  test('lists the imported extract with its box and stage summary', async () => {
    const res = await get('/v1/data/extracts');
    expect(res.status).toBe(200);
    expect(res.body.extracts.map((e: { name: string }) => e.name)).toEqual(['monaco']);
    const [w, s, e, n] = res.body.extracts[0].bbox;
    expect(w).toBeLessThan(7.42);
    expect(e).toBeGreaterThan(7.43);
    expect(s).toBeLessThan(43.73);
    expect(n).toBeGreaterThan(43.74);
    expect(Object.keys(res.body.extracts[0].stages)).toContain('routing');
    // The coverage is the file's own box (osmium fileinfo: 7.349,43.71,7.491,43.77), not its nodes'.
    expect(res.body.extracts[0].coverage).toEqual([7.349, 43.71, 7.491, 43.77]);
    expect(res.body.extracts[0].coverage).not.toEqual(res.body.extracts[0].bbox);
  });

  test('answers the roads touching a box, each a line inside or crossing it, none from elsewhere', async () => {
    const box = [7.425, 43.737, 7.431, 43.741];
    const res = await get('/v1/data/roads', { bbox: box.join(',') });
    expect(res.status).toBe(200);
    expect(res.body.roads.length).toBeGreaterThan(10);
    for (const road of res.body.roads as Array<{ coordinates: Array<[number, number]> }>) {
      expect(road.coordinates.some(([x, y]) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3])).toBe(true);
    }
    const elsewhere = await get('/v1/data/roads', { bbox: '2.3,48.8,2.4,48.9' });
    expect(elsewhere.body.roads).toEqual([]);
  });

  test.each([
    ['missing', {}],
    ['not four numbers', { bbox: '1,2,3' }],
    ['west past east', { bbox: '7.43,43.73,7.42,43.74' }],
    ['too wide', { bbox: '7,43,8,44' }],
  ])('a bbox that is %s answers 400 naming bbox', async (_name, query) => {
    const res = await get('/v1/data/roads', query as Record<string, string>);
    expect([res.status, res.body.meta.param]).toEqual([400, 'bbox']);
  });

  test('needs a secret key', async () => {
    const res = await get('/v1/data/extracts', {}, server.keys.testPk);
    expect(res.status).toBe(403);
  });
});
