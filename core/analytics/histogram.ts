// Minutes counted in bins, so that days' distributions add up and a period's percentiles need no
// individual values: 0.1 min wide under an hour, 1 min under a day, an hour beyond. A bin is named by
// its lower edge in tenths of a minute (an integer: no float drift between days), as a JSON key.

export type Histogram = Record<string, number>;

const TENTHS_PER_HOUR = 600;
const TENTHS_PER_DAY = 14_400;

/** The bin of a value in minutes, in tenths of a minute (its lower edge). */
export function binOf(minutes: number): number {
  // A value a hair under a tenth (12.3 computed as 12.2999…) belongs to that tenth.
  const tenths = Math.floor(minutes * 10 + 1e-6);
  if (tenths < TENTHS_PER_HOUR) return Math.max(0, tenths);
  if (tenths < TENTHS_PER_DAY) return tenths - (tenths % 10);
  return tenths - (tenths % TENTHS_PER_HOUR);
}

export function addToHistogram(h: Histogram, minutes: number): void {
  const key = String(binOf(minutes));
  h[key] = (h[key] ?? 0) + 1;
}

export function addHistograms(into: Histogram, from: Histogram): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

export function histogramCount(h: Histogram): number {
  let n = 0;
  for (const v of Object.values(h)) n += v;
  return n;
}

/**
 * The nearest-rank percentile (0 < p ≤ 1) in minutes: the lower edge of the bin holding the value ranked
 * ceil(p·n). Null for an empty histogram.
 */
export function percentile(h: Histogram, p: number): number | null {
  const bins = Object.entries(h).map(([k, n]) => [Number(k), n] as const).sort((a, b) => a[0] - b[0]);
  const total = bins.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bin, n] of bins) {
    seen += n;
    if (seen >= rank) return bin / 10;
  }
  return bins[bins.length - 1][0] / 10;
}
