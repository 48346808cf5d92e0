// OSRM's own car scenarios (../shared/fixtures/osrm-features/car) imported and asked over HTTP: see
// osrm-features/conformance.ts. At least 95 % of the runnable ones pass; docs/routing-profiles.md lists the rest.
import { requires, sharedFixture } from '../support/requires';
import { runProfileGroup, type GroupRun } from './osrm-features/conformance';
import { EXPECTED_DIFFERENCES } from './osrm-features/expected-differences';
import { describeRun, totals } from './osrm-features/report';

/** Scenarios passing when this floor was last raised. */
const PASSING_FLOOR = 211;

const withFeatures = requires("OSRM's feature files", sharedFixture('osrm-features/car'));

withFeatures('OSRM car scenarios', () => {
  let run: GroupRun;
  beforeAll(async () => {
    run = await runProfileGroup('car');
    console.log(describeRun('car', run));
  }, 600_000);

  test('at least 95 % of runnable scenarios pass, and no fewer than the recorded floor', () => {
    const t = totals(run.results);
    expect(t.passed / t.runnable).toBeGreaterThanOrEqual(0.95);
    expect(t.passed).toBeGreaterThanOrEqual(PASSING_FLOOR);
  });

  test('every listed difference of the car profile still differs', () => {
    const passing = run.results.filter((r) => r.outcome === 'passed' && EXPECTED_DIFFERENCES[r.id] !== undefined).map((r) => r.id);
    expect(passing).toEqual([]);
  });
});
