// The bicycle profile against OSRM's bicycle semantics: our own scenarios (test/routing/bicycle-features/,
// written in the form of OSRM's feature files, since OSRM's bicycle features are not among the shared
// fixtures) imported and asked over HTTP by the OSRM conformance runner (osrm-features/conformance.ts):
// pushing (against one-ways, on footways and steps, where only walkers may go, dismount), one-ways and
// contraflow, turn restrictions that do not bind bikes, barriers, trains, ferries, platforms and bridges.
import path from 'node:path';
import { runProfileGroup, type GroupRun } from './osrm-features/conformance';
import { describeRun, totals } from './osrm-features/report';

const FEATURES = path.join(__dirname, 'bicycle-features');
/** Scenarios in the folder that ask something: a scenario the runner stops reading would drop below it. */
const SCENARIOS = 20;

let run: GroupRun;
beforeAll(async () => {
  run = await runProfileGroup('bicycle', () => undefined, FEATURES);
  console.log(describeRun('bicycle (Waymark)', run));
}, 600_000);

test('every bicycle scenario passes', () => {
  const failed = run.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.name}: ${r.detail.join('; ')}`);
  expect(failed).toEqual([]);
  expect(totals(run.results).passed).toBeGreaterThanOrEqual(SCENARIOS);
});
