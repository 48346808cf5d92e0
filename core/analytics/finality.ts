// When a closed day's kept summary is final. Events can be written with a createdAt in the past (a
// replayed offline update keeps the time the device recorded; POST /v1/track with replays), so a day that
// has ended can still gain events: its summary is recomputed when older than `refreshMs` until it has
// been computed `settleMs` after the day's end (the end of the day in its zone); from then on it is final
// and never recomputed. An event replayed into a day later than that is not counted.

export interface FinalityRules {
  settleMs: number;
  refreshMs: number;
}

export const DEFAULT_FINALITY: FinalityRules = { settleMs: 86_400_000, refreshMs: 10 * 60_000 };

/** Whether a summary computed at `computedAt` (ms) of the day ending at `dayEndMs` is final. */
export function isFinal(dayEndMs: number, computedAt: number, rules: FinalityRules): boolean {
  return computedAt >= dayEndMs + rules.settleMs;
}

/** Whether a kept summary may be answered as it is at `now`, or must be computed again. */
export function keptSummaryServes(kept: { final: boolean; computedAt: number }, now: number, rules: FinalityRules): boolean {
  return kept.final || now - kept.computedAt < rules.refreshMs;
}
