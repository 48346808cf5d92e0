// A trace for the matching benchmarks: points along a route's line every `every` metres, each moved up to
// ±10 m at random (a phone's error), 5 s apart, so the matcher sees what a driven route looks like.
import type { LngLat, TracePoint } from '../../ports/router';

export function resampleTrace(line: LngLat[], every: number, count: number, random: () => number): TracePoint[] {
  const out: TracePoint[] = [];
  let carried = 0;
  for (let i = 1; i < line.length && out.length < count; i++) {
    const [ax, ay] = line[i - 1];
    const [bx, by] = line[i];
    const kx = Math.cos((ay * Math.PI) / 180) * 111320;
    const len = Math.hypot((bx - ax) * kx, (by - ay) * 111320);
    for (let d = every - carried; d <= len && out.length < count; d += every) {
      const t = d / len;
      const noise = () => (random() - 0.5) * 20;
      out.push({ location: [ax + (bx - ax) * t + noise() / kx, ay + (by - ay) * t + noise() / 111320], time: 1_700_000_000 + out.length * 5, accuracy: 10 });
    }
    carried = (carried + len) % every;
  }
  return out;
}
