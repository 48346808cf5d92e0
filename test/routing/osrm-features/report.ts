// Totals of a conformance run and the assertions both profile groups make.
import { EXPECTED_DIFFERENCES } from './expected-differences';
import type { GroupRun, ScenarioResult } from './conformance';

export interface Totals {
  scenarios: number;
  runnable: number;
  passed: number;
  expectedDifference: number;
  failed: number;
  skipped: number;
  unasked: number;
}

export function totals(results: readonly ScenarioResult[]): Totals {
  const count = (f: (r: ScenarioResult) => boolean) => results.filter(f).length;
  const runnable = count((r) => r.outcome !== 'skipped');
  return {
    scenarios: results.length,
    runnable,
    passed: count((r) => r.outcome === 'passed'),
    expectedDifference: count((r) => r.outcome !== 'passed' && r.outcome !== 'skipped' && EXPECTED_DIFFERENCES[r.id] !== undefined),
    failed: count((r) => (r.outcome === 'failed' || r.outcome === 'unasked') && EXPECTED_DIFFERENCES[r.id] === undefined),
    skipped: count((r) => r.outcome === 'skipped'),
    unasked: count((r) => r.outcome === 'unasked'),
  };
}

export function describeRun(profile: string, run: GroupRun): string {
  const t = totals(run.results);
  const pct = t.runnable > 0 ? ((100 * t.passed) / t.runnable).toFixed(1) : '0';
  const lines = [
    `OSRM ${profile} scenarios: ${t.scenarios}; runnable ${t.runnable}, passed ${t.passed} (${pct} %), expected differences ${t.expectedDifference}, ` +
      `unexpected failures ${t.failed}; skipped (OSRM tooling) ${t.skipped}. Import ${run.importSeconds.toFixed(1)} s, ${run.requests} requests in ${run.askSeconds.toFixed(1)} s.`,
  ];
  for (const r of run.results) {
    if (r.outcome === 'passed' || r.outcome === 'skipped') continue;
    const known = EXPECTED_DIFFERENCES[r.id];
    lines.push(`  ${known ? 'expected' : 'FAILED  '} ${r.id} ${r.name}${known ? ` — ${known}` : ''}`);
    if (!known || process.env.OSRM_CONFORMANCE_VERBOSE) for (const d of r.detail.slice(0, 6)) lines.push(`      ${d}`);
  }
  return lines.join('\n');
}
