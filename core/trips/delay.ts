// Lateness against scheduledArrivalAt (spec Trip `delay`). Pure: times are epoch milliseconds.
//
// The expected arrival is the arrival time once arrived, else now + ETA (now alone when no ETA is
// known: a trip already past its scheduled time without a route is late by at least that much).
// scheduledArrivalTimeDelay is minutes late, one decimal, never negative: early is "not delayed".

export interface TripDelay {
  delayed: boolean;
  /** Minutes. */
  scheduledArrivalTimeDelay: number;
}

export interface DelayInput {
  scheduledArrivalAt: number;
  now: number;
  etaMinutes?: number;
  arrivedAt?: number;
}

const MS_PER_MINUTE = 60_000;

export function tripDelay(input: DelayInput): TripDelay {
  const expected = input.arrivedAt ?? input.now + (input.etaMinutes ?? 0) * MS_PER_MINUTE;
  const lateMinutes = Math.max(0, (expected - input.scheduledArrivalAt) / MS_PER_MINUTE);
  const rounded = Math.round(lateMinutes * 10) / 10;
  return { delayed: rounded > 0, scheduledArrivalTimeDelay: rounded };
}
