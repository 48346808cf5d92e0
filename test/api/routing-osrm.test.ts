// The routing endpoints over HTTP against a real gateway whose car mode is routed by the OSRM adapter,
// talking to a local server that replays OSRM v6's recorded answers on Monaco. Other modes have no network
// (no embedded router in this build) and answer with the flagged geodesic estimate.
import fs from 'node:fs';
import path from 'node:path';
import { decodePolyline } from '../../adapters/router/polyline';
import type { LngLat } from '../../ports/router';
import { startTestServer, type TestServer } from '../support/server';
import { engineFixturesPresent, OSRM_MONACO, startOsrmReplay, type ReplayServer } from '../support/engine-replay';

const present = engineFixturesPresent(OSRM_MONACO);
const RADAR = path.resolve(__dirname, '../../../shared/fixtures/radar');

/** "latitude,longitude" of the recording's named points. */
const P = {
  casino: '43.7392,7.4277',
  palace: '43.7311,7.4197',
  fontvieille: '43.7276,7.4155',
  larvotto: '43.746,7.436',
  port: '43.7349,7.4227',
  station: '43.739,7.42',
  beausoleil: '43.743,7.423',
};

function recorded(file: string): any {
  return JSON.parse(fs.readFileSync(path.join(OSRM_MONACO, file), 'utf8'));
}

const FEET = 3.28084;

(present ? describe : describe.skip)('routing endpoints on the OSRM adapter (recorded Monaco answers)', () => {
  let replay: ReplayServer;
  let server: TestServer;
  const get = (urlPath: string, query: Record<string, string>) => server.request('GET', urlPath, { key: server.keys.testPk, query });

  beforeAll(async () => {
    replay = await startOsrmReplay();
    server = await startTestServer({
      routing: {
        modes: { car: { engine: 'osrm', url: replay.url }, truck: { engine: 'embedded' }, bike: { engine: 'embedded' }, foot: { engine: 'embedded' } },
        timeoutMs: 5000,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await replay?.close();
  });

  describe('GET /v1/route/distance', () => {
    it('answers the recorded route in feet and minutes, in the shape of Radar SDK fixtures', async () => {
      const res = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'geodesic,car', units: 'imperial' });
      expect(res.status).toBe(200);
      const route = recorded('route_casino_to_palace_steps_full.json').routes[0];
      expect(res.body.routes.car.distance.value).toBeCloseTo(route.distance * FEET, 1);
      expect(res.body.routes.car.distance.text).toBe(`${((route.distance * FEET) / 5280).toFixed(1)} mi`);
      expect(res.body.routes.car.duration.value).toBeCloseTo(route.duration / 60, 2);
      expect(res.body.routes.car.duration.text).toBe('4 mins');
      expect(res.body.routes.car.estimate).toBeUndefined();
      expect(res.body.meta.warning).toBeUndefined();
      // The same keys as Radar's own response fixture: geodesic has a distance only.
      const fixture = JSON.parse(fs.readFileSync(path.join(RADAR, 'android/route_distance.json'), 'utf8'));
      expect(Object.keys(res.body.routes.geodesic)).toEqual(Object.keys(fixture.routes.geodesic));
      expect(Object.keys(res.body.routes.car).sort()).toEqual(Object.keys(fixture.routes.car).filter((k) => k !== 'geometry').sort());
      expect(Object.keys(res.body.routes.car.distance)).toEqual(['value', 'text']);
      // Straight line casino → palace is about 1.1 km.
      expect(res.body.routes.geodesic.distance.value / FEET).toBeGreaterThan(1000);
      expect(res.body.routes.geodesic.distance.value / FEET).toBeLessThan(1200);
    });

    it('answers metres in metric and the geometry when asked, the recorded points in each format', async () => {
      const points: LngLat[] = decodePolyline(recorded('route_casino_to_palace_steps_full.json').routes[0].geometry, 5);
      const line = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', units: 'metric', geometry: 'linestring' });
      expect(line.status).toBe(200);
      expect(line.body.routes.car.distance).toEqual({ value: 2894.5, text: '2.9 km' });
      expect(line.body.routes.car.geometry.type).toBe('LineString');
      expect(line.body.routes.car.geometry.coordinates).toEqual(points);
      const p5 = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', units: 'metric', geometry: 'polyline5' });
      expect(decodePolyline(p5.body.routes.car.geometry.polyline, 5)).toEqual(points);
      const p6 = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', geometry: 'polyline6' });
      expect(decodePolyline(p6.body.routes.car.geometry.polyline, 6)).toEqual(points);
      // Radar always answers the straight line, whatever the modes (issue 32 item 1).
      expect(Object.keys(line.body.routes.geodesic)).toEqual(['distance']);
    });

    it('flags modes no network covers as geodesic estimates', async () => {
      const res = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car,foot', units: 'metric' });
      expect(res.status).toBe(200);
      expect(res.body.routes.car.estimate).toBeUndefined();
      expect(res.body.routes.foot.estimate).toBe(true);
      expect(res.body.meta.warning).toMatch(/straight-line estimates/);
      expect(res.body.routes.foot.duration.value).toBeGreaterThan(res.body.routes.car.duration.value);
    });

    it('sends avoid=highways to OSRM as exclude=motorway and refuses what OSRM cannot avoid', async () => {
      const res = await get('/v1/route/distance', { origin: P.casino, destination: P.fontvieille, modes: 'car', units: 'metric', avoid: 'highways' });
      expect(res.status).toBe(200);
      expect(replay.requests.at(-1)?.query.get('exclude')).toBe('motorway');
      expect(res.body.routes.car.distance.value).toBe(recorded('route_exclude_motorway_bearings.json').routes[0].distance);
      const border = await get('/v1/route/distance', { origin: P.casino, destination: P.fontvieille, modes: 'car', avoid: 'borderCrossings' });
      expect(border.status).toBe(400);
      expect(border.body.meta.param).toBe('avoid');
    });

    it('answers 400 naming the point that is far from every road', async () => {
      const res = await get('/v1/route/distance', { origin: '0,0', destination: '1,1', modes: 'car' });
      expect(res.status).toBe(400);
      expect(res.body.meta.param).toBe('origin');
      expect(res.body.meta.message).toMatch(/not near any road network/);
    });

    it('accepts departureTime and answers the same route', async () => {
      const at = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', departureTime: '2026-12-24T18:00:00Z' });
      const now = await get('/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car' });
      expect(at.status).toBe(200);
      expect(at.body.routes).toEqual(now.body.routes);
    });
  });

  describe('GET /v1/route/matrix', () => {
    it('answers the recorded table with indexes, in the shape of Radar docs', async () => {
      const res = await get('/v1/route/matrix', { origins: `${P.casino}|${P.palace}`, destinations: `${P.fontvieille}|${P.larvotto}|${P.port}`, mode: 'car', units: 'metric' });
      expect(res.status).toBe(200);
      const table = recorded('table_sources_destinations_subset.json');
      expect(res.body.origins).toEqual([{ latitude: 43.7392, longitude: 7.4277 }, { latitude: 43.7311, longitude: 7.4197 }]);
      expect(res.body.destinations).toHaveLength(3);
      expect(res.body.matrix).toHaveLength(2);
      for (let i = 0; i < 2; i++) {
        expect(res.body.matrix[i]).toHaveLength(3);
        for (let j = 0; j < 3; j++) {
          const entry = res.body.matrix[i][j];
          expect(entry.originIndex).toBe(i);
          expect(entry.destinationIndex).toBe(j);
          expect(entry.distance.value).toBeCloseTo(table.distances[i][j], 1);
          expect(entry.duration.value).toBe(Math.round((table.durations[i][j] / 60) * 100) / 100);
        }
      }
      const docs = JSON.parse(fs.readFileSync(path.join(RADAR, 'docs-api/routing-matrix.json'), 'utf8')).responses[0];
      expect(Object.keys(res.body.matrix[0][0]).sort()).toEqual(Object.keys(docs.matrix[0][0]).sort());
    });

    it('equals the pairwise routes', async () => {
      const points = [P.casino, P.palace, P.fontvieille, P.larvotto];
      const res = await get('/v1/route/matrix', { origins: points.join('|'), destinations: points.join('|'), mode: 'car', units: 'metric' });
      expect(res.status).toBe(200);
      const pairs: Array<[number, number, string]> = [[0, 1, P.palace], [2, 3, P.larvotto]];
      for (const [i, j, to] of pairs) {
        const route = await get('/v1/route/distance', { origin: points[i], destination: to, modes: 'car', units: 'metric' });
        expect(route.status).toBe(200);
        expect(res.body.matrix[i][j].distance).toEqual(route.body.routes.car.distance);
        expect(res.body.matrix[i][j].duration).toEqual(route.body.routes.car.duration);
      }
      // casino → fontvieille: the table against the only recorded route between them.
      expect(res.body.matrix[0][2].distance.value).toBe(recorded('route_exclude_motorway_bearings.json').routes[0].distance);
      expect(res.body.matrix[0][0].distance.value).toBe(0);
    });

    it('refuses more than 625 routes and avoid values the matrix does not take', async () => {
      const many = Array.from({ length: 26 }, (_, i) => `43.7${i},7.42`).join('|');
      const big = await get('/v1/route/matrix', { origins: many, destinations: many, mode: 'car' });
      expect(big.status).toBe(400);
      expect(big.body.meta.param).toBe('destinations');
      expect(big.body.meta.message).toMatch(/625/);
      const border = await get('/v1/route/matrix', { origins: P.casino, destinations: P.palace, mode: 'car', avoid: 'borderCrossings' });
      expect(border.status).toBe(400);
      expect(border.body.meta.param).toBe('avoid');
    });
  });

  describe('GET /v1/route/directions', () => {
    it('answers legs and steps with every field of the spec', async () => {
      const res = await get('/v1/route/directions', { locations: `${P.casino}|${P.palace}`, mode: 'car', units: 'imperial' });
      expect(res.status).toBe(200);
      const route = res.body.routes[0];
      const rec = recorded('route_casino_to_palace_steps_full.json').routes[0];
      expect(route.distance.value).toBeCloseTo(rec.distance * FEET, 1);
      expect(route.legs).toHaveLength(1);
      const leg = route.legs[0];
      expect(leg.startLocation).toEqual({ latitude: 43.7392, longitude: 7.4277 });
      expect(leg.endLocation).toEqual({ latitude: 43.7311, longitude: 7.4197 });
      expect(leg.steps).toHaveLength(rec.legs[0].steps.length);
      for (const step of leg.steps) {
        for (const field of ['distance', 'duration', 'start_location', 'end_location', 'bearing_before', 'bearing_after', 'instructions', 'banner_instructions', 'voice_instructions', 'geometry', 'mode', 'manuever', 'street_name']) {
          expect(step).toHaveProperty(field);
        }
        expect(step.instructions.length).toBeGreaterThan(3);
        expect(step.voice_instructions.length).toBeGreaterThan(0);
      }
      expect(leg.steps[0].manuever).toBe('start');
      expect(leg.steps[0].instructions).toBe('Head northeast on Place du Casino.');
      expect(leg.steps[2].manuever).toBe('left');
      expect(leg.steps[2].instructions).toBe('Turn left onto Boulevard des Moulins.');
      expect(leg.steps.at(-1).manuever).toBe('destination-right');
      expect(leg.steps[0].voice_instructions[0].announcement).toMatch(/^Head northeast on Place du Casino, then, in \d+ ft, continue onto Allées des Boulingrins\.$/);
      // Default geometry: polyline6 of the recorded shape.
      expect(decodePolyline(route.geometry.polyline, 6)).toEqual(decodePolyline(rec.geometry, 5));
    });

    it('writes instructions in each of the eight languages', async () => {
      const seen = new Map<string, string>();
      for (const lang of ['de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru']) {
        const res = await get('/v1/route/directions', { locations: `${P.casino}|${P.palace}`, lang });
        expect(res.status).toBe(200);
        const left = res.body.routes[0].legs[0].steps[2];
        expect(left.instructions.toLowerCase()).toContain('boulevard des moulins');
        seen.set(lang, left.instructions);
      }
      expect(new Set(seen.values()).size).toBe(8);
      expect(seen.get('de')).toMatch(/^Links abbiegen auf Boulevard des Moulins/);
      expect(seen.get('fr')).toMatch(/^Tourner à gauche/);
      expect(seen.get('es')).toMatch(/^Gira a la izquierda/);
      expect(seen.get('ru')).toMatch(/налево/);
      expect(seen.get('ja')).toMatch(/左/);
      expect(seen.get('ko')).toMatch(/좌회전/);
      expect(seen.get('pt')).toMatch(/esquerda/);
    });

    it('visits several locations in order, one leg each', async () => {
      const res = await get('/v1/route/directions', { locations: `${P.station}|${P.port}|${P.beausoleil}`, geometry: 'linestring', units: 'metric' });
      expect(res.status).toBe(200);
      const rec = recorded('route_3wp_polyline6_simplified.json').routes[0];
      const legs = res.body.routes[0].legs;
      expect(legs).toHaveLength(2);
      expect(legs.map((l: any) => l.distance.value)).toEqual(rec.legs.map((l: any) => l.distance));
      expect(legs[1].startLocation).toEqual({ latitude: 43.7349, longitude: 7.4227 });
      expect(legs[0].steps.at(-1).manuever).toMatch(/^destination/);
      expect(legs[0].steps.at(-1).instructions).toMatch(/1st destination/);
      expect(legs[1].geometry.type).toBe('LineString');
    });

    it('passes heading as the first bearing and alternatives with two locations', async () => {
      const res = await get('/v1/route/directions', { locations: `${P.casino}|${P.palace}`, heading: '90' });
      expect(res.status).toBe(200);
      expect(replay.requests.at(-1)?.query.get('bearings')).toBe('90,45;');
      const alt = await get('/v1/route/directions', { locations: `${P.fontvieille}|${P.larvotto}`, alternatives: 'true' });
      expect(alt.status).toBe(200);
      expect(replay.requests.at(-1)?.query.get('alternatives')).toBe('true');
      expect(alt.body.routes.length).toBeGreaterThanOrEqual(1);
      const three = await get('/v1/route/directions', { locations: `${P.station}|${P.port}|${P.beausoleil}`, alternatives: 'true' });
      expect(three.status).toBe(400);
      expect(three.body.meta.param).toBe('alternatives');
    });
  });

  describe('bad input', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/v1/route/distance', { destination: P.palace, modes: 'car' }, 'origin'],
      ['/v1/route/distance', { origin: '91,7', destination: P.palace, modes: 'car' }, 'origin'],
      ['/v1/route/distance', { origin: P.casino, destination: 'abc', modes: 'car' }, 'destination'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace }, 'modes'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car,plane' }, 'modes'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', units: 'furlongs' }, 'units'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', avoid: 'mountains' }, 'avoid'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', geometry: 'wkt' }, 'geometry'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', departureTime: 'tomorrow' }, 'departureTime'],
      ['/v1/route/distance', { origin: P.casino, destination: P.palace, modes: 'car', departureTime: '2026-02-30T10:00:00Z' }, 'departureTime'],
      ['/v1/route/matrix', { destinations: P.palace, mode: 'car' }, 'origins'],
      ['/v1/route/matrix', { origins: P.casino, mode: 'car' }, 'destinations'],
      ['/v1/route/matrix', { origins: `${P.casino}|`, destinations: P.palace, mode: 'car' }, 'origins'],
      ['/v1/route/matrix', { origins: P.casino, destinations: P.palace }, 'mode'],
      ['/v1/route/matrix', { origins: P.casino, destinations: P.palace, mode: 'boat' }, 'mode'],
      ['/v1/route/directions', { locations: P.casino }, 'locations'],
      ['/v1/route/directions', { locations: Array(26).fill(P.casino).join('|') }, 'locations'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, heading: '361' }, 'heading'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, heading: 'north' }, 'heading'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, alternatives: 'maybe' }, 'alternatives'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, lang: 'it' }, 'lang'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, geometry: 'geojson' }, 'geometry'],
      ['/v1/route/directions', { locations: `${P.casino}|${P.palace}`, mode: 'plane' }, 'mode'],
      ['/v1/route/optimize', { locations: Array(11).fill(P.casino).join('|') }, 'locations'],
      ['/v1/route/optimize', { locations: `${P.casino}|\u0000` }, 'locations'],
      ['/v1/route/optimize', { locations: `${P.casino}|${P.palace}`, units: 'miles' }, 'units'],
    ];
    it.each(cases)('%s %j → 400 naming %s', async (urlPath, query, param) => {
      const before = replay.requests.length;
      const res = await get(urlPath, query);
      expect(res.status).toBe(400);
      expect(res.body.meta.param).toBe(param);
      expect(res.body.meta.message).toMatch(new RegExp(param));
      expect(replay.requests.length).toBe(before);
    });

    it('bounds a huge list before reading it', async () => {
      const res = await get('/v1/route/matrix', { origins: '1,1|'.repeat(1500), destinations: P.palace, mode: 'car' });
      expect(res.status).toBe(400);
      expect(res.body.meta.param).toBe('origins');
    });

    it('needs a publishable key', async () => {
      const res = await server.request('GET', '/v1/route/distance', { query: { origin: P.casino, destination: P.palace, modes: 'car' } });
      expect(res.status).toBe(401);
    });
  });
});
