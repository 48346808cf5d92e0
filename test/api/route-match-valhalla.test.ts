// POST /v1/route/match over HTTP with car matched by Valhalla (a local server replaying its documented
// answers): the request Valhalla receives, Radar's answer shape, Valhalla's failures as API errors, and bad
// input of every body parameter refused before Valhalla is asked anything.
import { decodePolyline, encodePolyline } from '../../adapters/router/polyline';
import { engineFixturesPresent, startValhallaReplay, VALHALLA_FIXTURES, type ReplayServer } from '../support/engine-replay';
import { startTestServer, type TestServer } from '../support/server';
import { assembledTraceAttributes } from '../support/valhalla-trace-answer';

const present = engineFixturesPresent(VALHALLA_FIXTURES);

(present ? describe : describe.skip)('POST /v1/route/match through Valhalla', () => {
  let valhalla: ReplayServer;
  let server: TestServer;
  const assembled = present ? assembledTraceAttributes() : undefined!;
  const point = ([lng, lat]: [number, number], createdAt?: string, accuracy?: number) => ({ coordinates: `${lat},${lng}`, createdAt, accuracy });
  const path = () => [
    point(assembled.from, '2026-11-23T10:00:00Z', 6),
    point([13.4339, 52.5185], '2026-11-23T10:00:05Z', 30),
    point(assembled.to, '2026-11-23T10:00:11Z', 12),
  ];
  const match = (body: unknown) => server.request('POST', '/v1/route/match', { key: server.keys.testPk, body });

  beforeAll(async () => {
    valhalla = await startValhallaReplay();
    server = await startTestServer({ routing: { modes: { car: { engine: 'valhalla', url: valhalla.url }, truck: { engine: 'embedded' }, foot: { engine: 'embedded' }, bike: { engine: 'embedded' } }, timeoutMs: 2000 } });
  });
  afterEach(() => valhalla.force(undefined));
  afterAll(async () => {
    await server?.close();
    await valhalla?.close();
  });

  it('asks Valhalla /trace_attributes with the path, its times and the car costing', async () => {
    valhalla.force({ status: 200, text: JSON.stringify(assembled.body) });
    const res = await match({ path: path(), mode: 'car' });
    expect(res.status).toBe(200);
    const sent = valhalla.requests.at(-1)!;
    expect(sent.path).toBe('/trace_attributes');
    expect(sent.body).toMatchObject({
      costing: 'auto',
      shape_match: 'map_snap',
      shape: [
        { lat: assembled.from[1], lon: assembled.from[0], time: Date.parse('2026-11-23T10:00:00Z') / 1000 },
        { lat: 52.5185, lon: 13.4339, time: Date.parse('2026-11-23T10:00:05Z') / 1000 },
        { lat: assembled.to[1], lon: assembled.to[0], time: Date.parse('2026-11-23T10:00:11Z') / 1000 },
      ],
      trace_options: { gps_accuracy: 12 },
    });
  });

  it("answers Radar's shape: matched points, road attributes by class, speed limit and names, geometry, distance", async () => {
    valhalla.force({ status: 200, text: JSON.stringify(assembled.body) });
    const res = await match({ path: path(), roadAttributes: 'speedLimit,names,roadClass', units: 'metric' });
    expect(res.status).toBe(200);
    const shape = decodePolyline(assembled.shape, 6);
    const at = (i: number) => ({ latitude: shape[i][1], longitude: shape[i][0] });
    expect(res.body.meta).toEqual({ code: 200 });
    expect(res.body.matchedPath).toEqual([
      { latitude: assembled.from[1], longitude: assembled.from[0], originalIndex: 0 },
      { latitude: assembled.to[1], longitude: assembled.to[0], originalIndex: 2 },
    ]);
    expect(res.body.roadAttributes).toEqual([
      { roadClass: 'primary', speedLimit: { value: 50, text: '50 km/h' }, names: ['Karl-Marx-Allee', 'B 1', 'B 5'], startLocation: at(0), endLocation: at(3) },
      { roadClass: 'residential', speedLimit: { value: 30, text: '30 km/h' }, names: ['Lebuser Straße'], startLocation: at(3), endLocation: at(18) },
      { roadClass: 'service_other', names: ['Palisadenstraße'], startLocation: at(18), endLocation: at(26) },
    ]);
    expect(res.body.geometry).toEqual({ polyline: encodePolyline(shape, 6) });
    expect(res.body.distance).toEqual({ value: 290, text: '0.3 km' });
  });

  it('writes speed limits in mph and the distance in feet by default, and a LineString when asked', async () => {
    valhalla.force({ status: 200, text: JSON.stringify(assembled.body) });
    const res = await match({ path: path(), roadAttributes: 'speedLimit', geometry: 'linestring' });
    expect(res.status).toBe(200);
    expect(res.body.roadAttributes.map((r: { speedLimit?: unknown }) => r.speedLimit)).toEqual([{ value: 30, text: '30 mph' }, { value: 20, text: '20 mph' }, undefined]);
    expect(res.body.roadAttributes[0].roadClass).toBeUndefined();
    expect(res.body.distance.text).toBe('951.4 ft');
    expect(res.body.geometry.type).toBe('LineString');
    expect(res.body.geometry.coordinates).toHaveLength(27);
    const plain = await match({ path: path() });
    expect(plain.status).toBe(200);
    expect(plain.body.roadAttributes).toBeUndefined();
  });

  it("answers a path Valhalla cannot match with 400 naming path, and Valhalla down with 503", async () => {
    valhalla.force({ status: 400, text: JSON.stringify({ error_code: 444, error: 'Map Match algorithm failed to find path', status_code: 400, status: 'Bad Request' }) });
    const unmatched = await match({ path: path() });
    expect(unmatched.status).toBe(400);
    expect(unmatched.body.meta.param).toBe('path');
    valhalla.force({ status: 500, text: JSON.stringify({ error_code: 499, error: 'Unknown', status_code: 500 }) });
    const down = await match({ path: path() });
    expect(down.status).toBe(503);
    expect(down.body.meta.message).toMatch(/valhalla/);
  });

  it('refuses bad input of every body parameter with 400 naming it, without asking Valhalla', async () => {
    const good = path();
    const many = Array.from({ length: 501 }, (_, i) => ({ coordinates: `52.5,${13.4 + i * 1e-4}` }));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['path missing', {}, 'path'],
      ['path not an array', { path: { coordinates: '52.5,13.4' } }, 'path'],
      ['path a number', { path: 7 }, 'path'],
      ['1 point', { path: [good[0]] }, 'path'],
      ['501 points', { path: many }, 'path'],
      ['a point not an object', { path: [good[0], 'x'] }, 'path'],
      ['coordinates missing', { path: [good[0], { createdAt: '2026-11-23T10:00:05Z' }] }, 'path[1].coordinates'],
      ['coordinates not lat,lng', { path: [good[0], { coordinates: 'abc' }] }, 'path[1].coordinates'],
      ['latitude out of range', { path: [good[0], { coordinates: '91,13.4' }] }, 'path[1].coordinates'],
      ['longitude out of range', { path: [{ coordinates: '52.5,181' }, good[1]] }, 'path[0].coordinates'],
      ['bad createdAt', { path: [good[0], { ...good[1], createdAt: 'yesterday' }] }, 'path[1].createdAt'],
      ['out-of-order createdAt', { path: [good[1], good[0]] }, 'path'],
      ['negative accuracy', { path: [good[0], { ...good[1], accuracy: -1 }] }, 'path[1].accuracy'],
      ['huge accuracy', { path: [good[0], { ...good[1], accuracy: 1e9 }] }, 'path[1].accuracy'],
      ['accuracy not a number', { path: [good[0], { ...good[1], accuracy: 'close' }] }, 'path[1].accuracy'],
      ['bad mode', { path: good, mode: 'plane' }, 'mode'],
      ['bad roadAttributes', { path: good, roadAttributes: 'speedLimit,colour' }, 'roadAttributes'],
      ['bad units', { path: good, units: 'furlongs' }, 'units'],
      ['bad geometry', { path: good, geometry: 'wkt' }, 'geometry'],
    ];
    const before = valhalla.requests.length;
    for (const [what, body, param] of cases) {
      const res = await match(body);
      expect({ what, status: res.status, param: res.body.meta?.param }).toEqual({ what, status: 400, param });
      expect(res.body.meta.message).toEqual(expect.any(String));
    }
    expect(valhalla.requests.length).toBe(before);
  });
});
