// The HMM matcher on a network written in the test: two parallel east–west roads 40 m apart joined at
// their ends, so a trace can only change road by driving to an end.
import { matchTrace, type Candidate, type MatchPoint, type MatcherOracle, type MatcherParams } from '../../core/matching/hmm-matcher';

const PARAMS: MatcherParams = { defaultSigma: 10, beta: 5, maxGapSeconds: 60, maxSpeed: 50, routeFactor: 2, routeSlack: 200, minSpeed: 4 };
const M_PER_DEG_LAT = 111320;
const LNG_M = 111320 * Math.cos((40 * Math.PI) / 180);
const ROAD_LENGTH = 2000;

interface RoadCandidate extends Candidate {
  road: 0 | 1;
  /** Metres from the west end. */
  along: number;
}

/** Road 0 runs along latitude 40; road 1 40 m north; connectors at x = 0 and x = ROAD_LENGTH. */
function oracle(points: MatchPoint[], radius = 60): MatcherOracle<RoadCandidate> {
  return {
    candidates(i) {
      const p = points[i];
      const x = (p.lng + 75) * LNG_M;
      const y = (p.lat - 40) * M_PER_DEG_LAT;
      if (x < -radius || x > ROAD_LENGTH + radius) return [];
      const along = Math.min(ROAD_LENGTH, Math.max(0, x));
      const out: RoadCandidate[] = [];
      for (const road of [0, 1] as const) {
        const d = Math.hypot(x - along, y - road * 40);
        if (d <= radius) out.push({ road, along, distance: d });
      }
      return out;
    },
    roadDistances(froms, to, max) {
      return Float64Array.from(froms.flatMap((from) => to.map((c) => {
        const d = c.road === from.road
          ? Math.abs(c.along - from.along)
          : Math.min(from.along + 40 + c.along, (ROAD_LENGTH - from.along) + 40 + (ROAD_LENGTH - c.along));
        return d <= max ? d : Infinity;
      })));
    },
  };
}

function trace(northMetres: number[], stepM = 50, noise: number[] = [], dtSeconds = 5): MatchPoint[] {
  return northMetres.map((n, i) => ({
    lng: -75 + (100 + i * stepM) / LNG_M,
    lat: 40 + (n + (noise[i] ?? 0)) / M_PER_DEG_LAT,
    time: 1_700_000_000 + i * dtSeconds,
  }));
}

test('a noisy trace along the south road stays on it, even where single points lean north', () => {
  // Points 2 and 5 are 25 m north: closer to road 1 (15 m) than road 0 (25 m), yet switching roads
  // would take a detour of kilometres.
  const points = trace([0, 5, 25, -8, 3, 25, 0, -4]);
  const o = oracle(points);
  const { chosen, runs } = matchTrace(points, o, PARAMS);
  expect(runs).toEqual([[0, 7]]);
  const roads = Array.from(chosen, (k, i) => o.candidates(i)[k].road);
  expect(roads).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
});

test('a trace that is on the north road is matched to it', () => {
  const points = trace([40, 38, 44, 41, 36]);
  const o = oracle(points);
  const { chosen } = matchTrace(points, o, PARAMS);
  expect(Array.from(chosen, (k, i) => o.candidates(i)[k].road)).toEqual([1, 1, 1, 1, 1]);
});

test('a point off every road is left unmatched and does not break the run', () => {
  const points = trace([0, 0, 300, 0, 0]);
  const { chosen, runs } = matchTrace(points, oracle(points), PARAMS);
  expect(chosen[2]).toBe(-1);
  expect(runs).toEqual([[0, 4]]);
});

test('a time gap longer than the limit splits the trace', () => {
  const points = trace([0, 0, 0, 0]);
  points[2].time! += 600;
  points[3].time! += 600;
  const { runs } = matchTrace(points, oracle(points), PARAMS);
  expect(runs).toEqual([[0, 1], [2, 3]]);
});

test('a jump faster than the mode allows splits the trace instead of inventing a road', () => {
  // 50 m steps a tenth of a second apart: 500 m/s.
  const points = trace([0, 0, 0], 50, [], 0.1);
  const { runs } = matchTrace(points, oracle(points), PARAMS);
  expect(runs).toEqual([[0, 0], [1, 1], [2, 2]]);
  // The same steps at 5 s are 10 m/s: one run.
  const slow = trace([0, 0, 0]);
  expect(matchTrace(slow, oracle(slow), PARAMS).runs).toEqual([[0, 2]]);
});

describe('the weight bound on a transition (OSRM\'s: the distance bound at an assumed slowest speed)', () => {
  // A divided road: road 0 the eastbound carriageway, road 1 the westbound one 20 m north. From road 0
  // the far carriageway is reached only by a loop round the block: 200 m (within 2 × 50 + 200 m of a
  // 50 m step) but 90 s of turns and signals, past 300 m at 4 m/s (75 s).
  function divided(points: MatchPoint[]): MatcherOracle<RoadCandidate> & { weights: number[] } {
    const weights: number[] = [];
    return {
      weights,
      candidates(i) {
        const p = points[i];
        const x = (p.lng + 75) * LNG_M;
        const y = (p.lat - 40) * M_PER_DEG_LAT;
        const out: RoadCandidate[] = [];
        for (const road of [0, 1] as const) {
          const d = Math.abs(y - road * 20);
          if (d <= 15) out.push({ road, along: x, distance: d });
        }
        return out;
      },
      roadDistances(froms, to, maxDistance, maxWeight) {
        weights.push(maxWeight);
        return Float64Array.from(froms.flatMap((from) => to.map((c) => {
          const ahead = c.along - from.along;
          const [metres, seconds] = c.road === from.road ? [ahead, ahead / 10] : [200, 90];
          return ahead >= 0 && metres <= maxDistance && seconds <= maxWeight ? metres : Infinity;
        })));
      },
    };
  }

  test('a point near only the far carriageway is not reached by a loop: the trace is split there', () => {
    // Point 2 is 3 m from the westbound carriageway and 17 m from the eastbound one: only the far
    // carriageway's candidate is within 15 m.
    const points = trace([0, 2, 17, 1]);
    const o = divided(points);
    const { chosen, runs } = matchTrace(points, o, PARAMS);
    expect(runs).toEqual([[0, 1], [2, 2], [3, 3]]);
    expect(Array.from(chosen, (k, i) => o.candidates(i)[k].road)).toEqual([0, 0, 1, 0]);
    // The bound asked for is the distance bound at 4 m/s: (2 × 50 + 200) / 4 = 75 s a step.
    expect(o.weights[0]).toBeCloseTo(75, 0);
  });

  test('where both carriageways are candidates, the near side is kept rather than the loop', () => {
    // Point 2 is 12 m north: 8 m from the westbound carriageway, 12 m from the eastbound one.
    const points = trace([0, 2, 12, 1]);
    const o = divided(points);
    const { chosen, runs } = matchTrace(points, o, PARAMS);
    expect(runs).toEqual([[0, 3]]);
    expect(Array.from(chosen, (k, i) => o.candidates(i)[k].road)).toEqual([0, 0, 0, 0]);
  });
});
