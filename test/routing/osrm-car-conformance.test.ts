// OSRM's own car scenarios (../shared/fixtures/osrm-features/car) imported and asked over HTTP: see
// osrm-features/conformance.ts. Every runnable scenario passes or is an expected difference.
import { requires, sharedFixture } from '../support/requires';
import { runProfileGroup, type GroupRun } from './osrm-features/conformance';
import { EXPECTED_DIFFERENCES } from './osrm-features/expected-differences';
import { describeRun, totals } from './osrm-features/report';

const withFeatures = requires("OSRM's feature files", sharedFixture('osrm-features/car'));

withFeatures('OSRM car scenarios', () => {
  let run: GroupRun;
  beforeAll(async () => {
    run = await runProfileGroup('car');
    console.log(describeRun('car', run));
  }, 600_000);

  test('at least 95 % of runnable scenarios pass, and every other one is a listed difference', () => {
    const t = totals(run.results);
    const unexpected = run.results.filter((r) => (r.outcome === 'failed' || r.outcome === 'unasked') && EXPECTED_DIFFERENCES[r.id] === undefined).map((r) => r.id);
    expect(unexpected).toEqual([]);
    expect(t.passed / t.runnable).toBeGreaterThanOrEqual(0.95);
  });

  test('every listed difference of the car profile still differs', () => {
    const passing = run.results.filter((r) => r.outcome === 'passed' && EXPECTED_DIFFERENCES[r.id] !== undefined).map((r) => r.id);
    expect(passing).toEqual([]);
  });
});
