// POST /v1/route/match on the embedded router over imported extracts, compared with OSRM v6's recorded
// match of the same Monaco trace: the same points on the same roads, about the same distance; a time
// gap splits the trace; noise and an outlier do not throw it off; GraphHopper's real Andorra GPX track.
import fs from 'node:fs';
import path from 'node:path';
import { prng } from '../../bench/support/prng';
import { OSM, OSRM, fixturesPresent, serverWithExtracts } from '../routing/support';
import type { TestServer } from '../support/server';

const TRACE = path.join(OSRM, 'match_input_trace.json');
const GPX = path.join(OSM, 'andorra-graphhopper-map-matching.gpx');
const present = fixturesPresent('embedded map matching', path.join(OSM, 'monaco-osrm.osm.pbf'), path.join(OSM, 'andorra-graphhopper.osm.pbf'), TRACE, GPX);

interface Trace { coordinates: Array<[number, number]>; timestamps: number[] }

function metres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const x = (b[0] - a[0]) * Math.cos(((a[1] + b[1]) / 2) * rad) * 111320;
  const y = (b[1] - a[1]) * 111320;
  return Math.hypot(x, y);
}

function body(coords: Array<[number, number]>, times?: number[], extra: Record<string, unknown> = {}) {
  return {
    path: coords.map(([lng, lat], i) => ({ coordinates: `${lat},${lng}`, ...(times ? { createdAt: new Date(times[i] * 1000).toISOString() } : {}) })),
    units: 'metric', geometry: 'linestring', roadAttributes: 'names,roadClass,speedLimit', ...extra,
  };
}

(present ? describe : describe.skip)('map matching on the embedded router', () => {
  let server: TestServer;
  let trace: Trace;
  let osrm: { matchings: Array<{ distance: number; legs: Array<{ steps: Array<{ name: string }> }> }>; tracepoints: Array<{ location: [number, number] } | null> };

  beforeAll(async () => {
    server = await serverWithExtracts({ monaco: 'monaco-osrm.osm.pbf', andorra: 'andorra-graphhopper.osm.pbf' });
    trace = JSON.parse(fs.readFileSync(TRACE, 'utf8'));
    osrm = JSON.parse(fs.readFileSync(path.join(OSRM, 'match_trace_steps_annotations.json'), 'utf8'));
  }, 300_000);
  afterAll(() => server?.close());

  const match = (b: unknown) => server.request('POST', '/v1/route/match', { key: server.keys.testPk, body: b });

  test('the Monaco trace: the points OSRM matched, on the roads OSRM names, about OSRM\'s distance', async () => {
    const res = await match(body(trace.coordinates, trace.timestamps));
    expect(res.status).toBe(200);
    const matched = res.body.matchedPath as Array<{ latitude: number; longitude: number; originalIndex: number }>;
    expect(matched.length).toBeGreaterThanOrEqual(57);
    let close = 0;
    for (const m of matched) {
      const theirs = osrm.tracepoints[m.originalIndex];
      if (theirs && metres([m.longitude, m.latitude], theirs.location) <= 10) close++;
    }
    expect(close / matched.length).toBeGreaterThanOrEqual(0.9);
    // OSRM matched the whole trace as one route of 3,539.9 m.
    expect(Math.abs(res.body.distance.value - osrm.matchings[0].distance) / osrm.matchings[0].distance).toBeLessThan(0.05);
    const theirNames = new Set(osrm.matchings[0].legs.flatMap((l) => l.steps.map((s) => s.name)).filter((n) => n));
    const ourNames = new Set((res.body.roadAttributes as Array<{ names: string[] }>).flatMap((r) => r.names));
    const shared = [...theirNames].filter((n) => ourNames.has(n));
    expect(shared.length / theirNames.size).toBeGreaterThanOrEqual(0.8);
    expect(res.body.geometry.type).toBe('LineString');
    expect(res.body.geometry.coordinates.length).toBeGreaterThan(30);
    for (const r of res.body.roadAttributes) {
      expect(['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'residential', 'unclassified', 'service_other']).toContain(r.roadClass);
      expect(r.startLocation).toEqual({ latitude: expect.any(Number), longitude: expect.any(Number) });
    }
  });

  test('15 m of seeded noise and one point 2 km off: the noisy points still land on OSRM\'s roads, the outlier is left out', async () => {
    const random = prng(5);
    const noisy = trace.coordinates.map(([lng, lat]) => [lng + ((random() - 0.5) * 30) / 80000, lat + ((random() - 0.5) * 30) / 111320] as [number, number]);
    noisy[30] = [noisy[30][0] + 0.025, noisy[30][1]];
    const res = await match(body(noisy, trace.timestamps));
    expect([res.status, res.body.meta.message]).toEqual([200, undefined]);
    const matched = res.body.matchedPath as Array<{ latitude: number; longitude: number; originalIndex: number }>;
    expect(matched.map((m) => m.originalIndex)).not.toContain(30);
    const onOsrmRoad = matched.filter((m) => {
      const theirs = osrm.tracepoints[m.originalIndex];
      return theirs && metres([m.longitude, m.latitude], theirs.location) <= 20;
    });
    expect(onOsrmRoad.length / matched.length).toBeGreaterThanOrEqual(0.85);
  });

  test('a ten-minute gap splits the trace: no road is invented between the two pieces', async () => {
    // OSRM's split_on_gap request: the first 12 points, then the points from 40 on, ten minutes later.
    const coords = [...trace.coordinates.slice(0, 12), ...trace.coordinates.slice(40, 52)];
    const times = [...trace.timestamps.slice(0, 12), ...trace.timestamps.slice(40, 52).map((t) => t + 600)];
    const res = await match(body(coords, times));
    expect(res.status).toBe(200);
    const split = JSON.parse(fs.readFileSync(path.join(OSRM, 'match_split_on_gap.json'), 'utf8')) as { matchings: Array<{ distance: number }> };
    const theirs = split.matchings.reduce((t, m) => t + m.distance, 0);
    // Joining the pieces by road would add about 1.9 km.
    expect(Math.abs(res.body.distance.value - theirs) / theirs).toBeLessThan(0.15);
    expect(res.body.matchedPath.some((m: { originalIndex: number }) => m.originalIndex < 12)).toBe(true);
    expect(res.body.matchedPath.some((m: { originalIndex: number }) => m.originalIndex >= 12)).toBe(true);
  });

  test('GraphHopper\'s real 21-point Andorra GPX track is matched onto named roads', async () => {
    const gpx = fs.readFileSync(GPX, 'utf8');
    // The track has no timestamps: matched on geometry alone.
    const points = [...gpx.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)">/g)];
    expect(points.length).toBe(21);
    const coords = points.map((m) => [Number(m[2]), Number(m[1])] as [number, number]);
    const res = await match(body(coords));
    expect(res.status).toBe(200);
    expect(res.body.matchedPath.length).toBeGreaterThanOrEqual(19);
    for (const m of res.body.matchedPath) {
      const [lng, lat] = coords[m.originalIndex];
      expect(metres([m.longitude, m.latitude], [lng, lat])).toBeLessThan(60);
    }
    // The track's own polyline is 676 m long; the matched route follows it.
    expect(res.body.distance.value).toBeGreaterThan(600);
    expect(res.body.distance.value).toBeLessThan(900);
    expect(res.body.roadAttributes.some((r: { names: string[] }) => r.names.length > 0)).toBe(true);
  });

  test('a path far from every imported network answers 400 naming path', async () => {
    const res = await match(body([[0, 0], [0.001, 0.001], [0.002, 0.002]]));
    expect(res.status).toBe(400);
    expect(res.body.meta.param).toBe('path');
  });
});
