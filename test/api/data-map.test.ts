// GET /v1/data/map and /v1/data/overview over HTTP on a real server: the geofences and users of a map
// view (a shape whose box meets the view, even with its centre outside it), rings thinned at low zoom,
// counts per cell past the per-view limit, and bad input refused naming the parameter.
import { startTestServer, type TestServer } from '../support/server';

describe('GET /v1/data/map and /v1/data/overview', () => {
  let server: TestServer;
  const get = (path: string, query: Record<string, string | number>) => server.request('GET', path, { key: server.keys.testSk, query });

  beforeAll(async () => {
    server = await startTestServer();
    const put = (id: string, body: Record<string, unknown>) => server.request('PUT', `/v1/geofences/map/${id}`, { key: server.keys.testSk, body });
    await put('small', { description: 'Small', type: 'circle', coordinates: [-76.59, 39.29], radius: 100 });
    // A 40-vertex ring about 4 km across, centred at (-76.50, 39.30).
    const ring: Array<[number, number]> = [];
    for (let i = 0; i < 40; i++) ring.push([-76.50 + 0.025 * Math.cos((i / 40) * 2 * Math.PI), 39.30 + 0.02 * Math.sin((i / 40) * 2 * Math.PI)]);
    ring.push(ring[0]);
    await put('big', { description: 'Big', type: 'polygon', coordinates: [ring] });
    await server.request('POST', '/v1/track', { key: server.keys.testPk, body: { deviceId: 'm1', userId: 'u1', latitude: 39.29, longitude: -76.59, accuracy: 10 } });
  });
  afterAll(() => server.close());

  test('overview: the count and the box around every geofence', async () => {
    const res = await get('/v1/data/overview', {});
    expect(res.status).toBe(200);
    expect(res.body.geofences.count).toBe(2);
    const [w, s, e, n] = res.body.geofences.bbox;
    expect(w).toBeLessThan(-76.59); expect(e).toBeGreaterThan(-76.48); expect(s).toBeLessThan(39.29); expect(n).toBeGreaterThan(39.31);
  });

  test('a view at the edge of the big polygon holds it, though its centre is outside; the user is there', async () => {
    const res = await get('/v1/data/map', { bbox: '-76.478,39.295,-76.470,39.305', zoom: 17 });
    expect(res.status).toBe(200);
    expect(res.body.geofences.shapes.map((g: { externalId: string }) => g.externalId)).toEqual(['big']);
    expect(res.body.geofences.shapes[0].ring.length).toBe(41);
    expect(res.body.users.points).toEqual([]);
    const both = await get('/v1/data/map', { bbox: '-76.6,39.25,-76.4,39.35', zoom: 12, include: 'geofences,users' });
    expect(both.body.geofences.total).toBe(2);
    expect(both.body.users.points.map((u: { userId: string }) => u.userId)).toEqual(['u1']);
  });

  test('far out, rings are thinned to the pixel, and a shape of a few pixels is sent without its ring', async () => {
    const mid = await get('/v1/data/map', { bbox: '-77,39,-76,40', zoom: 8, include: 'geofences' });
    const big = mid.body.geofences.shapes.find((g: { externalId: string }) => g.externalId === 'big');
    expect(big.ring.length).toBeLessThan(41);
    expect(big.ring.length).toBeGreaterThanOrEqual(4);
    expect(mid.body.users).toBeUndefined();
    const far = await get('/v1/data/map', { bbox: '-100,20,-50,60', zoom: 4, include: 'geofences' });
    expect(far.body.geofences.shapes.find((g: { externalId: string }) => g.externalId === 'big').ring).toBeUndefined();
  });

  test('a view holding more geofences than are drawn one by one answers counts per cell', async () => {
    const rows = ['description,tag,externalId,type,radius,coordinates'];
    for (let i = 0; i < 1600; i++) rows.push(`C${i},crowd,${i},circle,50,"[${(-76.70 + (i % 40) * 0.002).toFixed(4)},${(39.20 + Math.floor(i / 40) * 0.002).toFixed(4)}]"`);
    const imported = await fetch(`${server.url}/v1/geofences/import`, { method: 'POST', headers: { authorization: server.keys.testSk, 'content-type': 'text/csv' }, body: rows.join('\n') });
    expect(imported.status).toBe(200);
    const res = await get('/v1/data/map', { bbox: '-76.8,39.1,-76.4,39.4', zoom: 11, include: 'geofences' });
    expect(res.body.geofences.total).toBe(1602);
    expect(res.body.geofences.shapes).toEqual([]);
    const counted = res.body.geofences.cells.reduce((sum: number, c: number[]) => sum + c[2], 0);
    expect(counted).toBe(1602);
  });

  test.each([
    [{ bbox: '1,2,3', zoom: 10 }, 'bbox'],
    [{ bbox: '10,0,5,1', zoom: 10 }, 'bbox'],
    [{ bbox: '0,0,1,1', zoom: 99 }, 'zoom'],
    [{ bbox: '0,0,1,1' }, 'zoom'],
    [{ bbox: '0,0,1,1', zoom: 3, include: 'places' }, 'include'],
  ])('refuses %j naming %s', async (query, param) => {
    const res = await get('/v1/data/map', query as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(res.body.meta.param).toBe(param);
  });

  test('a publishable key is refused', async () => {
    const res = await server.request('GET', '/v1/data/map', { key: server.keys.testPk, query: { bbox: '0,0,1,1', zoom: 3 } });
    expect(res.status).toBe(403);
  });
});
