// The memory an import may use when the operator names no budget (`waymark data import --memory-budget
// MiB` overrides it): a quarter of the machine's memory, or of the container's limit when it has a lower
// one. The budget is a bound on the process while the routing modes are built (the process's memory when
// the building starts plus the expected memory of the modes built at once: routing-stage.ts), the
// import's peak; a quarter (6 GiB on a 24 GiB machine) keeps a Maryland-sized region within what issue 35
// asks and leaves the rest to the gateway and database serving beside the import. The contraction spills
// its finished edges to disk and builds only as many modes at once as fit; a larger budget builds more
// of them at once (faster on more cores), never differently.
import os from 'node:os';

export const DEFAULT_BUDGET_SHARE = 0.25;

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
