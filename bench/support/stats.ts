// Summary figures of repeated timing runs.
export function summarize(values: number[]): { min: number; median: number; mean: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, mean: values.reduce((s, v) => s + v, 0) / values.length };
}
