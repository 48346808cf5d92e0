// Valhalla matching adapter benchmark: what Waymark adds to a Valhalla map match, i.e. building the
// /trace_attributes body for a 500-point trace and reading a matching answer (polyline6 shape decoded,
// edges grouped into roads, matched points kept with their index). Valhalla's own matching time is
// Valhalla's and is not measured here. The answer is seeded: a random walk of 500 points every ~5 s, a
// shape of 3 points per trace point, an edge per 4 shape points named from a pool of 12 streets.
//
// Run: npm run bench:build && node dist/bench/valhalla-match.js
// Options: RUNS=2000 POINTS=500 environment variables.
import { encodePolyline } from '../adapters/router/polyline';
import type { LngLat, TracePoint } from '../ports/router';
import { matchFrom, traceAttributesBody } from '../adapters/router/valhalla/valhalla-trace';
import { prng } from './support/prng';
import { summarize } from './support/stats';

const RUNS = Number(process.env.RUNS ?? 2000);
const POINTS = Number(process.env.POINTS ?? 500);
const CLASSES = ['primary', 'secondary', 'tertiary', 'residential', 'service_other'];

function seededAnswer(seed: number): { trace: TracePoint[]; answer: Record<string, unknown> } {
  const rnd = prng(seed);
  let [lng, lat] = [13.4, 52.5];
  const shape: LngLat[] = [];
  for (let i = 0; i < POINTS * 3; i++) {
    lng += (rnd() - 0.3) * 1e-4;
    lat += (rnd() - 0.3) * 1e-4;
    shape.push([Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6]);
  }
  const edges: Array<Record<string, unknown>> = [];
  let street = 0;
  for (let b = 0; b + 4 < shape.length; b += 4) {
    if (rnd() < 0.3) street = Math.floor(rnd() * 12);
    edges.push({ names: [`Street ${street}`], road_class: CLASSES[street % CLASSES.length], speed_limit: street % 3 ? 50 : 0, length: 0.04, begin_shape_index: b, end_shape_index: b + 4 });
  }
  const trace = Array.from({ length: POINTS }, (_, i): TracePoint => ({ location: shape[i * 3], time: 1_700_000_000 + i * 5, accuracy: 5 + rnd() * 20 }));
  const matched = trace.map((p, i) => ({ type: i % 50 === 7 ? 'unmatched' : 'matched', lat: p.location[1], lon: p.location[0], edge_index: Math.floor((i * 3) / 4) }));
  return { trace, answer: { units: 'kilometers', shape: encodePolyline(shape, 6), edges, matched_points: matched } };
}

function main(): void {
  const { trace, answer } = seededAnswer(16);
  // What the adapter receives: the parsed JSON (EngineHttp parses it); parsing is timed apart.
  const text = JSON.stringify(answer);
  let sink = 0;
  for (let i = 0; i < 200; i++) sink += matchFrom(JSON.parse(text), POINTS).roads.length; // warm-up
  const build: number[] = [];
  const parse: number[] = [];
  const read: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t = process.hrtime.bigint();
    sink += JSON.stringify(traceAttributesBody({ points: trace, mode: 'car' }, 'auto')).length;
    build.push(Number(process.hrtime.bigint() - t) / 1e3);
    t = process.hrtime.bigint();
    const body = JSON.parse(text) as Record<string, unknown>;
    parse.push(Number(process.hrtime.bigint() - t) / 1e3);
    t = process.hrtime.bigint();
    const result = matchFrom(body, POINTS);
    read.push(Number(process.hrtime.bigint() - t) / 1e3);
    sink += result.roads.length + result.matchedPoints.length;
  }
  const result = matchFrom(JSON.parse(text), POINTS);
  console.log(`valhalla match adapter: ${POINTS} points, answer ${(text.length / 1024).toFixed(0)} KiB, ${(answer.edges as unknown[]).length} edges → ${result.roads.length} roads, ${result.geometry.length} shape points, ${result.matchedPoints.length} matched; ${RUNS} runs`);
  for (const [label, values] of [['build request body (JSON.stringify)', build], ['JSON.parse of the answer', parse], ['read answer (matchFrom)', read]] as const) {
    const s = summarize(values);
    console.log(`  ${label.padEnd(38)} min ${s.min.toFixed(1)}  median ${s.median.toFixed(1)}  mean ${s.mean.toFixed(1)} µs`);
  }
  if (sink === 42) console.log('');
}

main();
