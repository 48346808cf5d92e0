// The Valhalla adapter's map matching (/trace_attributes) and isochrones (/isochrone) against a local server
// replaying Valhalla's documented answers: what is sent, how the answers are read, what failures become.
import fs from 'node:fs';
import path from 'node:path';
import { RouterRejected, RouterUnavailable } from '../../adapters/router/engine-errors';
import { decodePolyline } from '../../adapters/router/polyline';
import { OutsideNetwork, type LngLat, type TracePoint } from '../../ports/router';
import { ValhallaRouter } from '../../adapters/router/valhalla/valhalla-router';
import { TRACE_ATTRIBUTES } from '../../adapters/router/valhalla/valhalla-trace';
import { engineFixturesPresent, startValhallaReplay, VALHALLA_FIXTURES, type ReplayServer } from '../support/engine-replay';
import { assembledTraceAttributes } from '../support/valhalla-trace-answer';

const present = engineFixturesPresent(VALHALLA_FIXTURES);

function example(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(VALHALLA_FIXTURES, 'docs-examples', name), 'utf8'));
}

const error = (status: number, code: number, message: string) => ({ status, text: JSON.stringify({ error_code: code, error: message, status_code: status, status: 'Bad Request' }) });

// Valhalla's documented trace_attributes request shape (York, PA), with times and accuracies added.
const TRACE: TracePoint[] = [
  { location: [-76.735741, 39.983841], time: 1_700_000_000, accuracy: 5 },
  { location: [-76.735298, 39.983704], time: 1_700_000_004, accuracy: 8 },
  { location: [-76.734848, 39.983578], time: 1_700_000_009, accuracy: 400 },
  { location: [-76.734253, 39.983551] },
];

(present ? describe : describe.skip)('Valhalla map matching and isochrones', () => {
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

  it('sends /trace_attributes the shape with times, the mode costing, map_snap and the attribute filter', async () => {
    await valhalla.match({ points: TRACE, mode: 'bike' });
    const sent = replay.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/trace_attributes');
    expect(sent.body).toEqual({
      shape: [
        { lat: 39.983841, lon: -76.735741, time: 1_700_000_000 },
        { lat: 39.983704, lon: -76.735298, time: 1_700_000_004 },
        { lat: 39.983578, lon: -76.734848, time: 1_700_000_009 },
        { lat: 39.983551, lon: -76.734253 },
      ],
      costing: 'bicycle',
      shape_match: 'map_snap',
      units: 'kilometers',
      filters: { action: 'include', attributes: [...TRACE_ATTRIBUTES] },
      // Median of 5, 8 and 400 m: one wild fix does not widen the search.
      trace_options: { gps_accuracy: 8 },
    });
    for (const wanted of ['edge.names', 'edge.road_class', 'edge.speed_limit', 'edge.length', 'edge.begin_shape_index', 'edge.end_shape_index', 'matched.point', 'matched.type', 'shape']) {
      expect(TRACE_ATTRIBUTES).toContain(wanted);
    }
    await valhalla.match({ points: [{ location: [1, 2] }, { location: [1.001, 2] }], mode: 'foot' });
    const plain = replay.requests.at(-1)!.body as Record<string, unknown>;
    expect(plain.costing).toBe('pedestrian');
    expect(plain.trace_options).toBeUndefined();
    expect(plain.shape).toEqual([{ lat: 2, lon: 1 }, { lat: 2, lon: 1.001 }]);
  });

  it('reads the documented trace_attributes answer: distance from the edge lengths, nothing invented', async () => {
    const rec = example('trace_attributes.json') as { edges: Array<{ length: number }> };
    const result = await valhalla.match({ points: TRACE, mode: 'car' });
    const metres = Math.round(rec.edges.reduce((s, e) => s + e.length, 0) * 10_000) / 10;
    expect(result.distance).toBe(metres);
    expect(result.distance).toBeGreaterThan(200);
    // The documented answer carries no shape and no matched points: none are made up.
    expect(result).toMatchObject({ matchedPoints: [], geometry: [], roads: [] });
  });

  it('maps matched points, shape, roads per run of name and class, classes and speed limits', async () => {
    const assembled = assembledTraceAttributes();
    replay.force({ status: 200, text: JSON.stringify(assembled.body) });
    const result = await valhalla.match({ points: [{ location: assembled.from }, { location: [13.4339, 52.5185] }, { location: assembled.to }], mode: 'car' });
    const shape = decodePolyline(assembled.shape, 6);
    expect(result.geometry).toEqual(shape);
    expect(result.geometry.length).toBe(27);
    // The unmatched middle point is left out; the others keep their input index.
    expect(result.matchedPoints).toEqual([{ location: assembled.from, originalIndex: 0 }, { location: assembled.to, originalIndex: 2 }]);
    expect(result.distance).toBe(290);
    expect(result.roads).toEqual([
      { highway: 'primary', names: ['Karl-Marx-Allee', 'B 1', 'B 5'], speedLimitKph: 50, start: shape[0], end: shape[3] },
      { highway: 'residential', names: ['Lebuser Straße'], speedLimitKph: 30, start: shape[3], end: shape[18] },
      // service_other is not an OSM class: it comes back as `service`; a 0 limit is no limit.
      { highway: 'service', names: ['Palisadenstraße'], start: shape[18], end: shape[26] },
    ]);
  });

  it('keeps the limit covering most of a run; ignores "unlimited", shape indexes outside the shape, extra matched points', async () => {
    const shape = '_c`|@_c`|@_ibE?_ibE?_ibE?';
    const points = decodePolyline(shape, 6);
    replay.force({ status: 200, text: JSON.stringify({
      shape,
      edges: [
        { names: ['A1'], road_class: 'motorway', speed_limit: 'unlimited', length: 5, begin_shape_index: 0, end_shape_index: 1 },
        { names: ['A1'], road_class: 'motorway', speed_limit: 130, length: 2, begin_shape_index: 1, end_shape_index: 2 },
        { names: ['A1'], road_class: 'motorway', speed_limit: 120, length: 1, begin_shape_index: 2, end_shape_index: 99 },
      ],
      matched_points: [{ type: 'matched', lat: 1, lon: 1 }, { type: 'matched', lat: 'x', lon: 1 }, { type: 'matched', lat: 3, lon: 3 }],
    }) });
    const result = await valhalla.match({ points: TRACE.slice(0, 2), mode: 'car' });
    expect(result.roads).toEqual([{ highway: 'motorway', names: ['A1'], speedLimitKph: 130, start: points[0], end: points[points.length - 1] }]);
    expect(result.distance).toBe(8000);
    // A malformed point is skipped; one past the two input points is not invented an index.
    expect(result.matchedPoints).toEqual([{ location: [1, 1], originalIndex: 0 }]);
  });

  it('turns Valhalla "no match" and "no edge near" errors into OutsideNetwork, limits and failures into their errors', async () => {
    for (const [code, message] of [[171, 'No suitable edges near location'], [442, 'No path could be found for input'], [443, 'Exact route match algorithm failed to find path'], [444, 'Map Match algorithm failed to find path']] as const) {
      replay.force(error(400, code, message));
      await expect(valhalla.match({ points: TRACE, mode: 'car' })).rejects.toMatchObject({ constructor: OutsideNetwork, index: 0, location: TRACE[0].location });
    }
    replay.force(error(400, 153, 'Too many shape points'));
    await expect(valhalla.match({ points: TRACE, mode: 'car' })).rejects.toBeInstanceOf(RouterRejected);
    replay.force(error(400, 445, 'Shape match algorithm specification in api request is incorrect'));
    await expect(valhalla.match({ points: TRACE, mode: 'car' })).rejects.toBeInstanceOf(RouterUnavailable);
    replay.force({ status: 502, text: '<html>bad gateway</html>' });
    await expect(valhalla.match({ points: TRACE, mode: 'car' })).rejects.toThrow(/not JSON/);
  });

  it('sends /isochrone one time contour by the mode costing, as polygons', async () => {
    await valhalla.isochrone({ center: [13.433, 52.519], mode: 'truck', minutes: 15 });
    const sent = replay.requests.at(-1)!;
    expect(sent.path).toBe('/isochrone');
    expect(sent.body).toEqual({ locations: [{ lat: 52.519, lon: 13.433 }], costing: 'truck', contours: [{ time: 15 }], polygons: true });
  });

  it('reads the documented LineString contour as one closed ring of [lng, lat]', async () => {
    const rec = example('isochrone.json') as { features: Array<{ geometry: { coordinates: LngLat[] } }> };
    const rings = await valhalla.isochrone({ center: [13.433, 52.519], mode: 'car', minutes: 5 });
    expect(rings).toEqual([rec.features[0].geometry.coordinates]);
    expect(rings[0][0]).toEqual([13.433188, 52.520031]);
    expect(rings[0][0]).toEqual(rings[0][rings[0].length - 1]);
  });

  it('reads Polygon and MultiPolygon contours as the outer ring of the largest piece, closing open rings', async () => {
    const outer: LngLat[] = [[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]];
    const hole: LngLat[] = [[0.5, 0.5], [1, 0.5], [1, 1], [0.5, 0.5]];
    const small: LngLat[] = [[5, 5], [5.1, 5], [5.1, 5.1]];
    const collection = (geometry: unknown) => JSON.stringify({ type: 'FeatureCollection', features: [
      { type: 'Feature', properties: { contour: 10, metric: 'time' }, geometry },
      { type: 'Feature', properties: {}, geometry: { type: 'MultiPoint', coordinates: [[1, 1]] } },
    ] });
    replay.force({ status: 200, text: collection({ type: 'Polygon', coordinates: [outer, hole] }) });
    expect(await valhalla.isochrone({ center: [1, 1], mode: 'car', minutes: 10 })).toEqual([outer]);
    replay.force({ status: 200, text: collection({ type: 'MultiPolygon', coordinates: [[small], [outer, hole]] }) });
    expect(await valhalla.isochrone({ center: [1, 1], mode: 'car', minutes: 10 })).toEqual([outer]);
    replay.force({ status: 200, text: collection({ type: 'Polygon', coordinates: [small] }) });
    expect(await valhalla.isochrone({ center: [5, 5], mode: 'car', minutes: 10 })).toEqual([[...small, small[0]]]);
  });

  it('maps isochrone failures: no road near the centre, an answer without a contour, a server error', async () => {
    replay.force(error(400, 171, 'No suitable edges near location'));
    await expect(valhalla.isochrone({ center: [0, 0], mode: 'foot', minutes: 5 })).rejects.toMatchObject({ constructor: OutsideNetwork, location: [0, 0] });
    replay.force({ status: 200, text: JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[1, 1], [1, 2]] } }] }) });
    await expect(valhalla.isochrone({ center: [1, 1], mode: 'foot', minutes: 5 })).rejects.toThrow(/without a contour/);
    replay.force({ status: 500, text: JSON.stringify({ error_code: 499, error: 'Unknown', status_code: 500 }) });
    await expect(valhalla.isochrone({ center: [1, 1], mode: 'foot', minutes: 5 })).rejects.toBeInstanceOf(RouterUnavailable);
  });

  it('has the documented trace_route answer replayed for clients of /trace_route', async () => {
    const before = replay.requests.length;
    const res = await fetch(`${replay.url}/trace_route`, { method: 'POST', body: JSON.stringify({ shape: [], costing: 'auto' }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { trip: { status: number } }).trip.status).toBe(0);
    expect(replay.requests.length).toBe(before + 1);
  });
});
