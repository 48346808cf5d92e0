// Routing where no network covers the points (no external engine configured, no embedded router in this
// build): every answer is the geodesic estimate, flagged. Optimize is checked against brute force over the
// matrix the same gateway answers; search users by travel time goes through the same tables.
import { prng } from '../../bench/support/prng';
import { startTestServer, type TestServer } from '../support/server';

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

describe('routing on the geodesic estimate', () => {
  let server: TestServer;
  const get = (urlPath: string, query: Record<string, string>, key = server.keys.testPk) => server.request('GET', urlPath, { key, query });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('optimize finds the same best total time as brute force on 10 locations (8 stops)', async () => {
    const random = prng(2026);
    for (let trial = 0; trial < 3; trial++) {
      const points = Array.from({ length: 10 }, () => `${(40.70 + random() * 0.1).toFixed(5)},${(-74.02 + random() * 0.1).toFixed(5)}`);
      const res = await get('/v1/route/optimize', { locations: points.join('|'), mode: 'car', units: 'metric', geometry: 'linestring' });
      expect(res.status).toBe(200);
      const matrix = await get('/v1/route/matrix', { origins: points.join('|'), destinations: points.join('|'), mode: 'car', units: 'metric' });
      expect(matrix.status).toBe(200);
      const minutes = (i: number, j: number): number => matrix.body.matrix[i][j].duration.value;
      const total = (order: number[]): number => order.slice(1).reduce((sum, to, k) => sum + minutes(order[k], to), 0);
      const brute = Math.min(...permutations([1, 2, 3, 4, 5, 6, 7, 8]).map((p) => total([0, ...p, 9])));
      const legs = res.body.route.legs;
      expect(legs).toHaveLength(9);
      const order = [legs[0].startIndex, ...legs.map((l: any) => l.endIndex)];
      expect(order[0]).toBe(0);
      expect(order[9]).toBe(9);
      expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // Matrix minutes are rounded to hundredths: nine of them differ from exact by at most 0.045.
      expect(Math.abs(total(order) - brute)).toBeLessThan(0.05);
      expect(res.body.route.duration.value).toBeCloseTo(total(order), 0);
      for (const [k, leg] of legs.entries()) {
        const [lat, lng] = points[leg.startIndex].split(',').map(Number);
        expect(leg.startLocation).toEqual({ latitude: lat, longitude: lng });
        if (k > 0) expect(leg.startIndex).toBe(legs[k - 1].endIndex);
        expect(leg.geometry.type).toBe('LineString');
      }
      expect(res.body.route.estimate).toBe(true);
      expect(res.body.meta.warning).toMatch(/estimate/);
    }
  });

  it('optimize without geometry leaves it out, with two locations keeps them', async () => {
    const res = await get('/v1/route/optimize', { locations: '40.7,-74|40.71,-74.01' });
    expect(res.status).toBe(200);
    expect(res.body.route.legs).toHaveLength(1);
    expect(res.body.route.legs[0]).toMatchObject({ startIndex: 0, endIndex: 1 });
    expect(res.body.route.legs[0].geometry).toBeUndefined();
    expect(res.body.route.distance.text).toMatch(/ mi$| ft$/);
  });

  it('directions are straight legs marked as estimates, with words in the asked language', async () => {
    const res = await get('/v1/route/directions', { locations: '40.7,-74|40.71,-74|40.71,-74.01', lang: 'fr', mode: 'foot' });
    expect(res.status).toBe(200);
    const route = res.body.routes[0];
    expect(route.estimate).toBe(true);
    expect(route.legs).toHaveLength(2);
    expect(route.legs[0].steps[0].manuever).toBe('start');
    expect(route.legs[0].steps[0].instructions).toMatch(/nord/);
    expect(route.legs[1].steps.at(-1).manuever).toBe('destination');
  });

  it('search users with a mode keeps those within the minutes of travel', async () => {
    const track = (deviceId: string, latitude: number, longitude: number) => server.request('POST', '/v1/track', {
      key: server.keys.testPk, body: { deviceId, userId: `u-${deviceId}`, latitude, longitude, accuracy: 5, foreground: true },
    });
    // The spec keeps radius at 100 to 10000 (minutes, with a mode). Car estimate: 40 km/h over 1.3 × the
    // straight line, so 100 minutes reach about 51 km; on foot (5 km/h) about 6.4 km.
    expect((await track('near', 40.7045, -74)).status).toBe(200); // 0.5 km
    expect((await track('mid', 41.0593, -74)).status).toBe(200); // 40 km
    expect((await track('far', 41.239, -74)).status).toBe(200); // 60 km
    const res = await get('/v1/search/users', { near: '40.7,-74', radius: '100', mode: 'car' }, server.keys.testSk);
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: any) => u.deviceId)).toEqual(['near', 'mid']);
    const foot = await get('/v1/search/users', { near: '40.7,-74', radius: '100', mode: 'foot' }, server.keys.testSk);
    expect(foot.body.users.map((u: any) => u.deviceId)).toEqual(['near']);
  });
});
