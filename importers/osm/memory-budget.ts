// The memory an import's largest working sets may use when the operator names no budget
// (`waymark data import --memory-budget MiB` overrides it): half of the machine's memory, or of the
// container's limit when it has a lower one. Half leaves the other half to what the budget does not
// bound (the node index, the network held while the modes are built, the stages' tables) and to the
// gateway and database serving beside the import; the routing contraction spills its finished edges
// to disk and builds only as many modes at once as fit (routing-stage.ts).
import os from 'node:os';

export const DEFAULT_BUDGET_SHARE = 0.5;

/** `constrainedBytes`: a cgroup's limit (process.constrainedMemory()), 0 or undefined when none. */
export function defaultMemoryBudgetBytes(totalBytes: number = os.totalmem(), constrainedBytes: number | undefined = constrainedMemory()): number {
  const limit = constrainedBytes !== undefined && constrainedBytes > 0 && constrainedBytes < totalBytes ? constrainedBytes : totalBytes;
  return Math.floor(limit * DEFAULT_BUDGET_SHARE);
}

function constrainedMemory(): number | undefined {
  const read = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory;
  const bytes = read?.();
  // Node answers a huge number (2^64 − 1 and the like) when the cgroup sets no limit.
  return bytes !== undefined && bytes > 0 && bytes < 2 ** 52 ? bytes : undefined;
}
