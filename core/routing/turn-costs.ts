// Seconds a turn costs, OSRM's formula (car.lua, bicycle.lua): a sigmoid of the turn angle, cheaper on
// the driving side (turn bias), applied at intersections of more than two roads and where the mode changes (onto or off a ferry); a u-turn (at dead
// ends, and between merged carriageways) adds a fixed penalty.
export interface TurnCostSpec {
  /** Seconds of the sharpest turn. */
  penalty: number;
  /** > 1 makes right turns cheaper than left turns (right-hand traffic). */
  bias: number;
  uturn: number;
}

export const TURN_COSTS: Record<string, TurnCostSpec | null> = {
  car: { penalty: 7.5, bias: 1.075, uturn: 20 },
  truck: { penalty: 7.5, bias: 1.075, uturn: 20 },
  bike: { penalty: 6, bias: 1.4, uturn: 20 },
  foot: null,
};

/**
 * `angle`: degrees in (-180, 180], positive to the right; `roads`: roads meeting at the vertex;
 * `modeChange`: boarding or leaving a ferry, which OSRM's profiles charge as a turn wherever it happens.
 */
export function turnSeconds(spec: TurnCostSpec | null, angle: number, roads: number, uturn: boolean, modeChange = false): number {
  if (spec === null) return 0;
  if (roads <= 2 && !uturn && !modeChange) return 0;
  const a = Math.abs(angle) / 180;
  const s = angle >= 0
    ? spec.penalty / (1 + Math.exp(-((13 / spec.bias) * a - 6.5 * spec.bias)))
    : spec.penalty / (1 + Math.exp(-((13 * spec.bias) * a - 6.5 / spec.bias)));
  return uturn ? s + spec.uturn : s;
}
