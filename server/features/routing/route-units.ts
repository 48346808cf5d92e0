// Distances and durations as Radar writes them: `value` in metres (metric) or feet (imperial), durations in
// minutes, and `text` rounded for people ("0.7 mi", "406.8 ft", "2 hrs 22 mins", "0.4 min").
export type Units = 'metric' | 'imperial';

export interface Measure {
  value: number;
  text: string;
}

const FEET_PER_METRE = 3.28084;
const FEET_PER_MILE = 5280;
/** Below this many feet (≈ 0.19 mi) Radar writes feet; above, tenths of a mile. */
const FEET_TEXT_BELOW = 1000;
/** Below this many metres, whole metres; above, tenths of a kilometre. */
const METRES_TEXT_BELOW = 100;

export function distanceMeasure(metres: number, units: Units): Measure {
  if (units === 'imperial') {
    const feet = metres * FEET_PER_METRE;
    const text = feet < FEET_TEXT_BELOW ? `${feet.toFixed(1)} ft` : `${(feet / FEET_PER_MILE).toFixed(1)} mi`;
    return { value: round(feet), text };
  }
  const text = metres < METRES_TEXT_BELOW ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
  return { value: round(metres), text };
}

export function durationMeasure(seconds: number): Measure {
  const minutes = seconds / 60;
  return { value: round(minutes), text: durationText(minutes) };
}

/** "0.4 min" under half a minute, "1 min", "20 mins", "1 hr", "2 hrs 22 mins". */
export function durationText(minutes: number): string {
  if (minutes < 0.5) return `${minutes.toFixed(1)} min`;
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  const mins = (n: number): string => `${n} ${n === 1 ? 'min' : 'mins'}`;
  if (hours === 0) return mins(rest);
  const hrs = `${hours} ${hours === 1 ? 'hr' : 'hrs'}`;
  return rest === 0 ? hrs : `${hrs} ${mins(rest)}`;
}

/** Centimetre (or hundredth-of-a-minute) precision: enough for clients, stable in tests. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
