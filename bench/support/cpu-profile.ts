// Where a page's main thread spent its time: a V8 CPU profile (Chromium DevTools protocol, Profiler
// domain) folded into self time per function, so a benchmark can name what its long tasks are made of.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The `n` functions with the most self time, as "12.3% 145 ms name (file:line)" lines. */
export function topSelfTime(profile: CpuProfile, n: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byNode.get(samples[i]);
    // A sample's time is the interval to the next sample.
    const us = deltas[i + 1] ?? 0;
    if (!node) continue;
    const f = node.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const file = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1) : '';
    const key = `${f.functionName || '(anonymous)'}${file ? ` (${file}:${f.lineNumber + 1})` : ''}`;
    self.set(key, (self.get(key) ?? 0) + us);
    total += us;
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, us]) => `${((100 * us) / Math.max(1, total)).toFixed(1)}% ${(us / 1000).toFixed(0)} ms ${k}`);
}
