// The OSRM and Valhalla adapters against local servers replaying recorded engine answers: what they send,
// how they read the answers, and what each kind of engine failure becomes.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { RouterRejected, RouterUnavailable } from '../../adapters/router/engine-errors';
import { OsrmRouter } from '../../adapters/router/osrm/osrm-router';
import { decodePolyline } from '../../adapters/router/polyline';
import { OutsideNetwork, type LngLat } from '../../ports/router';
import { ValhallaRouter } from '../../adapters/router/valhalla/valhalla-router';
import { engineFixturesPresent, OSRM_MONACO, startOsrmReplay, startValhallaReplay, VALHALLA_FIXTURES, type ReplayServer } from '../support/engine-replay';

const present = engineFixturesPresent(OSRM_MONACO) && engineFixturesPresent(VALHALLA_FIXTURES);

const CASINO: LngLat = [7.4277, 43.7392];
const PALACE: LngLat = [7.4197, 43.7311];

function osrmFile(name: string): string {
  return fs.readFileSync(path.join(OSRM_MONACO, name), 'utf8');
}

(present ? describe : describe.skip)('OSRM adapter', () => {
  let replay: ReplayServer;
  let osrm: OsrmRouter;
  beforeAll(async () => {
    replay = await startOsrmReplay();
    osrm = new OsrmRouter({ urls: { car: replay.url, truck: `${replay.url}/` }, timeoutMs: 300 });
  });
  afterEach(() => replay.force(undefined));
  afterAll(async () => {
    await osrm?.close();
    await replay?.close();
  });

  it('reads a recorded route: legs, steps, polyline geometry, snapped waypoints', async () => {
    const result = await osrm.route({ locations: [CASINO, PALACE], mode: 'car', steps: true });
    const rec = JSON.parse(osrmFile('route_casino_to_palace_steps_full.json'));
    expect(result.routes).toHaveLength(1);
    expect(result.routes[0].distance).toBe(2894.5);
    expect(result.routes[0].geometry).toEqual(decodePolyline(rec.routes[0].geometry, 5));
    expect(result.routes[0].legs[0].steps[2].geometry).toEqual(decodePolyline(rec.routes[0].legs[0].steps[2].geometry, 5));
    expect(result.waypoints).toEqual([[7.427724, 43.739173], [7.419557, 43.731357]]);
    const sent = replay.requests.at(-1)!;
    expect(sent.path).toBe('/route/v1/driving/7.4277,43.7392;7.4197,43.7311');
    expect(sent.query.get('geometries')).toBe('polyline6');
    expect(sent.query.get('steps')).toBe('true');
    expect(await osrm.eta(CASINO, PALACE, 'car')).toEqual({ distance: 2894.5, duration: 265.8 / 60 });
  });

  it('reads a recorded square table, sent once, and a rectangular one as sources and destinations', async () => {
    const points: LngLat[] = [CASINO, PALACE, [7.4155, 43.7276], [7.436, 43.746]];
    const square = await osrm.table({ sources: points, destinations: points, mode: 'car' });
    expect(square.durations[0][1]).toBe(265.8);
    expect(square.distances[3][2]).toBe(3996.4);
    expect(replay.requests.at(-1)!.query.get('sources')).toBeNull();
    const rect = await osrm.table({ sources: [CASINO, PALACE], destinations: [[7.4155, 43.7276], [7.436, 43.746], [7.4227, 43.7349]], mode: 'car' });
    expect(rect.durations).toEqual([[220.5, 273.6, 204.8], [167.7, 301.3, 136.4]]);
    expect(replay.requests.at(-1)!.query.get('destinations')).toBe('2;3;4');
  });

  it('turns a point snapped kilometres away into OutsideNetwork naming it', async () => {
    await expect(osrm.route({ locations: [[0, 0], [1, 1]], mode: 'car' })).rejects.toMatchObject({ constructor: OutsideNetwork, index: 0, location: [0, 0] });
  });

  it('maps the recorded NoSegment, TooBig and InvalidQuery answers', async () => {
    replay.force({ status: 400, text: osrmFile('error_NoSegment_table.json') });
    const table = osrm.table({ sources: [CASINO], destinations: [[7.2, 43.6]], mode: 'car' });
    await expect(table).rejects.toBeInstanceOf(OutsideNetwork);
    await expect(table).rejects.toMatchObject({ index: 0, location: [7.2, 43.6] });
    replay.force({ status: 400, text: osrmFile('error_TooBig_table.json') });
    await expect(osrm.table({ sources: [CASINO], destinations: [PALACE], mode: 'car' })).rejects.toBeInstanceOf(RouterRejected);
    replay.force({ status: 400, text: osrmFile('error_InvalidQuery_bad_option.json') });
    await expect(osrm.route({ locations: [CASINO, PALACE], mode: 'car' })).rejects.toBeInstanceOf(RouterUnavailable);
  });

  it('reports an engine that answers garbage, hangs, or is not there as unavailable', async () => {
    replay.force({ status: 502, text: '<html>bad gateway</html>' });
    await expect(osrm.route({ locations: [CASINO, PALACE], mode: 'car' })).rejects.toThrow(/not JSON/);
    replay.force({ status: 200, text: '', hang: true });
    await expect(osrm.route({ locations: [CASINO, PALACE], mode: 'car' })).rejects.toThrow(/within 300 ms/);
    replay.force(undefined);
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = new OsrmRouter({ urls: { car: `http://127.0.0.1:${port}` }, timeoutMs: 1000 });
    await expect(down.route({ locations: [CASINO, PALACE], mode: 'car' })).rejects.toBeInstanceOf(RouterUnavailable);
    await down.close();
  });

  it('refuses a mode without a server and avoid options OSRM has no class for', async () => {
    await expect(osrm.route({ locations: [CASINO, PALACE], mode: 'foot' })).rejects.toMatchObject({ constructor: RouterRejected, param: 'mode' });
    await expect(osrm.route({ locations: [CASINO, PALACE], mode: 'car', avoid: ['borderCrossings'] })).rejects.toMatchObject({ param: 'avoid' });
  });

  it('refuses an answer larger than its bound', async () => {
    const small = new OsrmRouter({ urls: { car: replay.url }, timeoutMs: 1000, maxResponseBytes: 1024 * 1024 });
    replay.force({ status: 200, text: `{"code":"Ok","pad":"${'x'.repeat(3 * 1024 * 1024)}"}` });
    await expect(small.route({ locations: [CASINO, PALACE], mode: 'car' })).rejects.toThrow(/larger than/);
    await small.close();
  });
});

(present ? describe : describe.skip)('Valhalla adapter', () => {
  let replay: ReplayServer;
  let valhalla: ValhallaRouter;
  beforeAll(async () => {
    replay = await startValhallaReplay();
    valhalla = new ValhallaRouter({ url: replay.url, timeoutMs: 1000 });
  });
  afterEach(() => replay.force(undefined));
  afterAll(async () => {
    await valhalla?.close();
    await replay?.close();
  });

  it('asks /route for the OSRM format with the mode costing and avoid options, and reads the recorded answer', async () => {
    const from: LngLat = [24.765368, 59.442643];
    const to: LngLat = [24.730034, 59.452226];
    const result = await valhalla.route({ locations: [from, to], mode: 'foot', steps: true, avoid: ['ferries', 'borderCrossings'], heading: 270 });
    const sent = replay.requests.at(-1)!;
    expect(sent.path).toBe('/route');
    expect(sent.body).toMatchObject({
      locations: [{ lat: 59.442643, lon: 24.765368, heading: 270 }, { lat: 59.452226, lon: 24.730034 }],
      costing: 'pedestrian', format: 'osrm', costing_options: { pedestrian: { use_ferry: 0, country_crossing_penalty: 86400 } },
    });
    const rec = JSON.parse(fs.readFileSync(path.join(VALHALLA_FIXTURES, 'osrm-format-ferrostar/valhalla_osrm_response.json'), 'utf8'));
    const route = result.routes[0];
    expect(route.distance).toBe(rec.routes[0].distance);
    expect(route.legs[0].steps).toHaveLength(rec.routes[0].legs[0].steps.length);
    expect(route.geometry).toEqual(decodePolyline(rec.routes[0].geometry, 6));
    // polyline6 decoded: the first point is the depart maneuver's location.
    expect(route.legs[0].steps[0].geometry[0][0]).toBeCloseTo(24.765368, 5);
    expect(route.legs[0].steps[0].geometry[0][1]).toBeCloseTo(59.442643, 5);
    expect(result.waypoints).toEqual([[24.765368, 59.442643], [24.730034, 59.452226]]);
  });

  it('names the costing of each mode', async () => {
    for (const [mode, costing] of [['car', 'auto'], ['truck', 'truck'], ['bike', 'bicycle']] as const) {
      await valhalla.route({ locations: [[24.76, 59.44], [24.73, 59.45]], mode, avoid: ['tolls', 'highways'] });
      expect(replay.requests.at(-1)!.body).toMatchObject({ costing, costing_options: { [costing]: { use_tolls: 0, use_highways: 0 } } });
    }
  });

  it('reads the documented sources_to_targets answer as seconds and metres', async () => {
    const table = await valhalla.table({ sources: [[13.4, 52.5], [13.41, 52.51]], destinations: [[13.4, 52.5], [13.41, 52.51]], mode: 'car' });
    expect(table).toEqual({ durations: [[0, 105], [108, 0]], distances: [[0, 147], [147, 0]] });
    expect(replay.requests.at(-1)!.body).toMatchObject({ costing: 'auto', sources: [{ lat: 52.5, lon: 13.4 }, { lat: 52.51, lon: 13.41 }] });
  });

  it('maps Valhalla errors: no edge near a location, no path, a server failure', async () => {
    // Valhalla's error body shape (openapi.yaml: error_code, error, status_code, status) with its codes.
    replay.force({ status: 400, text: JSON.stringify({ error_code: 171, error: 'No suitable edges near location', status_code: 400, status: 'Bad Request' }) });
    await expect(valhalla.route({ locations: [[0, 0], [1, 1]], mode: 'car' })).rejects.toBeInstanceOf(OutsideNetwork);
    replay.force({ status: 400, text: JSON.stringify({ error_code: 442, error: 'No path could be found for input', status_code: 400, status: 'Bad Request' }) });
    await expect(valhalla.route({ locations: [[0, 0], [1, 1]], mode: 'car' })).rejects.toMatchObject({ constructor: RouterRejected, param: 'locations' });
    replay.force({ status: 500, text: JSON.stringify({ error_code: 499, error: 'Unknown', status_code: 500, status: 'Internal Server Error' }) });
    await expect(valhalla.table({ sources: [[0, 0]], destinations: [[1, 1]], mode: 'car' })).rejects.toBeInstanceOf(RouterUnavailable);
  });
});
