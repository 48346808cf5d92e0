// The budget an import runs under when the operator names none (importers/osm/memory-budget.ts):
// a quarter of the machine's memory, or of a container's lower limit.
import { defaultMemoryBudgetBytes } from '../../importers/osm/memory-budget';

const GiB = 2 ** 30;

test.each([
  ['a 24 GiB machine, no container limit', 24 * GiB, undefined, 6 * GiB],
  ['a 24 GiB machine, a limit of 0 (none)', 24 * GiB, 0, 6 * GiB],
  ['a 128 GiB machine in a 6 GiB container', 128 * GiB, 6 * GiB, 1.5 * GiB],
  ['a limit above the machine (ignored)', 8 * GiB, 64 * GiB, 2 * GiB],
])('%s', (_, total, limit, expected) => {
  expect(defaultMemoryBudgetBytes(total, limit)).toBe(expected);
});
