// Router selection end to end: configuration validation, a mode routed by Valhalla (replayed), an engine
// that is down (503, nothing else changes), and trips whose ETAs come from the configured engine and
// survive its failures.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { decodePolyline } from '../../adapters/router/polyline';
import { configFromEnv } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';
import { engineFixturesPresent, OSRM_MONACO, startOsrmReplay, startValhallaReplay, VALHALLA_FIXTURES, type ReplayServer } from '../support/engine-replay';

const present = engineFixturesPresent(OSRM_MONACO) && engineFixturesPresent(VALHALLA_FIXTURES);

describe('routing configuration', () => {
  it('defaults every mode to the embedded router', () => {
    const { routing } = configFromEnv({});
    expect(routing.modes.car).toEqual({ engine: 'embedded' });
    expect(routing.timeoutMs).toBe(10_000);
  });

  it('routes modes by OSRM (one URL each or a shared one) and Valhalla', () => {
    const { routing } = configFromEnv({
      WAYMARK_ROUTER: 'osrm', WAYMARK_OSRM_URL: 'http://osrm-car:5000/', WAYMARK_OSRM_URL_FOOT: 'http://osrm-foot:5000',
      WAYMARK_ROUTER_BIKE: 'valhalla', WAYMARK_VALHALLA_URL: 'https://valhalla.example/api', WAYMARK_ROUTER_TRUCK: 'embedded',
      WAYMARK_ROUTER_TIMEOUT_MS: '2500',
    });
    expect(routing.modes).toEqual({
      car: { engine: 'osrm', url: 'http://osrm-car:5000' },
      foot: { engine: 'osrm', url: 'http://osrm-foot:5000' },
      bike: { engine: 'valhalla', url: 'https://valhalla.example/api' },
      truck: { engine: 'embedded' },
    });
    expect(routing.timeoutMs).toBe(2500);
  });

  it('refuses unknown engines, missing URLs and URLs that are not http(s)', () => {
    expect(() => configFromEnv({ WAYMARK_ROUTER: 'graphhopper' })).toThrow(/WAYMARK_ROUTER must be one of embedded, osrm, valhalla/);
    expect(() => configFromEnv({ WAYMARK_ROUTER_CAR: 'osrm' })).toThrow(/WAYMARK_OSRM_URL_CAR \(or WAYMARK_OSRM_URL\)/);
    expect(() => configFromEnv({ WAYMARK_ROUTER: 'valhalla' })).toThrow(/WAYMARK_VALHALLA_URL/);
    expect(() => configFromEnv({ WAYMARK_ROUTER: 'osrm', WAYMARK_OSRM_URL: 'ftp://x' })).toThrow(/http\(s\)/);
    expect(() => configFromEnv({ WAYMARK_ROUTER: 'osrm', WAYMARK_OSRM_URL: 'not a url' })).toThrow(/WAYMARK_OSRM_URL must be/);
    expect(() => configFromEnv({ WAYMARK_ROUTER: 'osrm', WAYMARK_OSRM_URL: 'http://x?a=1' })).toThrow(/query/);
  });
});

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

(present ? describe : describe.skip)('routing through configured engines', () => {
  let osrm: ReplayServer;
  let valhalla: ReplayServer;
  let server: TestServer;
  let downPort: number;
  const get = (urlPath: string, query: Record<string, string>) => server.request('GET', urlPath, { key: server.keys.testPk, query });

  beforeAll(async () => {
    osrm = await startOsrmReplay();
    valhalla = await startValhallaReplay();
    downPort = await closedPort();
    server = await startTestServer({
      routing: {
        modes: {
          car: { engine: 'osrm', url: osrm.url },
          foot: { engine: 'valhalla', url: valhalla.url },
          truck: { engine: 'osrm', url: `http://127.0.0.1:${downPort}` },
          bike: { engine: 'embedded' },
        },
        timeoutMs: 2000,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await osrm?.close();
    await valhalla?.close();
  });

  it('answers foot directions from Valhalla, with words from its OSRM-format steps', async () => {
    const res = await get('/v1/route/directions', { locations: '59.442643,24.765368|59.452226,24.730034', mode: 'foot', units: 'metric' });
    expect(res.status).toBe(200);
    const rec = JSON.parse(fs.readFileSync(path.join(VALHALLA_FIXTURES, 'osrm-format-ferrostar/valhalla_osrm_response.json'), 'utf8')).routes[0];
    const route = res.body.routes[0];
    expect(route.estimate).toBeUndefined();
    expect(route.distance.value).toBe(rec.distance);
    expect(route.legs[0].steps).toHaveLength(rec.legs[0].steps.length);
    expect(route.legs[0].steps[0].instructions).toMatch(/^Head west/);
    expect(route.legs[0].steps[0].mode).toBe('walking');
    expect(route.legs[0].steps[0].travel_mode).toBe('WALK');
    expect(decodePolyline(route.geometry.polyline, 6)).toEqual(decodePolyline(rec.geometry, 6));
    expect(valhalla.requests.at(-1)!.body).toMatchObject({ costing: 'pedestrian', format: 'osrm' });
  });

  it('answers 503 naming the engine when it is down, and other modes keep working', async () => {
    const res = await get('/v1/route/distance', { origin: '43.7392,7.4277', destination: '43.7311,7.4197', modes: 'truck' });
    expect(res.status).toBe(503);
    expect(res.body.meta.message).toMatch(/osrm \(truck\)/);
    const car = await get('/v1/route/distance', { origin: '43.7392,7.4277', destination: '43.7311,7.4197', modes: 'car' });
    expect(car.status).toBe(200);
  });

  it('gives trips ETAs from the configured engine and keeps the last one when it fails', async () => {
    const sk = server.keys.testSk;
    const pk = server.keys.testPk;
    const palace = { lng: 7.4197, lat: 43.7311 };
    const put = await server.request('PUT', '/v1/geofences/palace/main', {
      key: sk, body: { description: 'Palace', type: 'circle', coordinates: [palace.lng, palace.lat], radius: 50 },
    });
    expect(put.status).toBe(200);
    const track = (lat: number, lng: number) => server.request('POST', '/v1/track', {
      key: pk, body: { deviceId: 'd-trip', userId: 'driver', latitude: lat, longitude: lng, accuracy: 5, foreground: true },
    });
    expect((await track(43.7392, 7.4277)).status).toBe(200);
    const created = await server.request('POST', '/v1/trips', {
      key: pk, body: { externalId: 'order-1', userId: 'driver', destinationGeofenceTag: 'palace', destinationGeofenceExternalId: 'main', mode: 'car', status: 'started' },
    });
    expect(created.status).toBe(200);
    // OSRM's recorded casino → palace route: 2 894.5 m, 265.8 s, shown as Radar rounds an ETA (whole
    // metres, tenths of a minute).
    expect(created.body.trip.eta).toEqual({ distance: 2895, duration: 4.4 });
    osrm.force({ status: 500, text: '{"code":"InternalError","message":"boom"}' });
    try {
      const moved = await track(43.7390, 7.4275);
      expect(moved.status).toBe(200);
      expect(moved.body.user.trip.eta).toEqual({ distance: 2895, duration: 4.4 });
    } finally {
      osrm.force(undefined);
    }
  });
});
