// Map matching on one mode's network: candidates from the segment index, road distances between
// consecutive points' candidates from searches bounded to their neighbourhood (one small table per
// step, ModeRouter.transitionMetres), the HMM of engine/matching, and the matched route rebuilt leg by
// leg with the roads it uses, from the paths those searches found (no search of its own per leg).
import type { LngLat, MatchedRoad, MatchResult, TracePoint } from './route-shapes';
import { matchTrace, type Candidate, type MatcherParams } from '../matching/hmm-matcher';
import { FoundPaths } from './bounded-table';
import type { ModeRouter } from './mode-router';
import { ROAD_CLASSES } from './network';
import type { Piece } from './route-steps';
import type { Snap } from './segment-index';

/** Candidates per point: enough for parallel roads and junctions, few enough to keep steps cheap. */
const MAX_CANDIDATES = 8;
/** Search radius: 3 σ of the point's accuracy, within these bounds (metres). */
const MIN_RADIUS = 25;
const MAX_RADIUS = 200;
/**
 * Seconds of travel a transition search covers before the hierarchy is asked for the pairs it has not
 * decided (mode-router.ts transitionMetres). Only speed depends on it: measured on east Baltimore, 120 s
 * leaves 2 % of pairs to the hierarchy; 30 s left 32 % and was slower, 600 s searched five times more.
 */
const TRANSITION_SEARCH_SECONDS = 120;

interface RoadCandidate extends Candidate {
  snap: Snap;
  point: number;
  k: number;
}

/**
 * Metres/second a transition is assumed to keep at the least (its cost bound, hmm-matcher.ts minSpeed):
 * OSRM's 4 m/s for motor vehicles; a sixth of the top speed for slower modes, so that a bike pushed at
 * walking pace, or a walk with steps, stays within it.
 */
const MIN_TRANSITION_SPEED = 4;

export function defaultMatcherParams(topSpeedKph: number): MatcherParams {
  const top = topSpeedKph / 3.6;
  return {
    defaultSigma: 10, beta: 5, maxGapSeconds: 60, maxSpeed: top * 1.5, routeFactor: 2, routeSlack: 200,
    minSpeed: Math.min(MIN_TRANSITION_SPEED, top / 6),
  };
}

export function matchOnNetwork(router: ModeRouter, points: readonly TracePoint[], params: MatcherParams): MatchResult {
  const candidates: RoadCandidate[][] = points.map((p, i) => {
    const sigma = Math.max(1, p.accuracy ?? params.defaultSigma);
    const radius = Math.min(MAX_RADIUS, Math.max(MIN_RADIUS, 3 * sigma));
    return router.candidates(p.location, radius, MAX_CANDIDATES).map((snap, k) => ({ snap, distance: snap.distance, point: i, k }));
  });
  // One table per pair of consecutive matched points, from the candidates of the first still reachable;
  // its paths are kept for the legs: into[t] for the step into point t.
  const found = new FoundPaths();
  const into: Array<{ rowOf: Int32Array; pathOf: Int32Array } | undefined> = new Array(points.length);
  const outcome = matchTrace(points.map((p) => ({ lng: p.location[0], lat: p.location[1], time: p.time, accuracy: p.accuracy })), {
    candidates: (i) => candidates[i],
    roadDistances(from, to, maxDistance, maxWeight) {
      const metres = new Float64Array(from.length * to.length);
      const pathOf = new Int32Array(metres.length);
      const rowOf = new Int32Array(candidates[from[0].point].length).fill(-1);
      from.forEach((c, r) => { rowOf[c.k] = r; });
      into[to[0].point] = { rowOf, pathOf };
      router.transitionMetres(from.map((c) => c.snap), to.map((c) => c.snap), maxDistance, maxWeight, TRANSITION_SEARCH_SECONDS, metres, found, pathOf);
      return metres;
    },
  }, params);

  const matchedPoints: MatchResult['matchedPoints'] = [];
  const pieces: Piece[] = [];
  for (const [first, last] of outcome.runs) {
    let previous = -1;
    for (let i = first; i <= last; i++) {
      const k = outcome.chosen[i];
      if (k < 0) continue;
      const snap = candidates[i][k].snap;
      matchedPoints.push({ location: [round6(snap.lon), round6(snap.lat)], originalIndex: i });
      if (previous >= 0) {
        // The step's table was asked for these two points: the HMM's transitions are the legs' pairs.
        const from = candidates[previous][outcome.chosen[previous]].snap;
        const step = into[i]!;
        const path = step.pathOf[step.rowOf[outcome.chosen[previous]] * candidates[i].length + k];
        pieces.push(...(router.transitionLeg(from, snap, found, path, TRANSITION_SEARCH_SECONDS) ?? []));
      }
      previous = i;
    }
  }
  const geometry = router.piecesGeometry(pieces).map(([lng, lat]) => [round6(lng), round6(lat)] as LngLat);
  return {
    matchedPoints,
    geometry,
    distance: Math.round(pieces.reduce((t, p) => t + p.distance, 0) * 10) / 10,
    roads: roadsOf(router, pieces),
  };
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** Consecutive pieces on ways of the same name and class make one road stretch. */
function roadsOf(router: ModeRouter, pieces: readonly Piece[]): MatchedRoad[] {
  const n = router.network;
  const roads: MatchedRoad[] = [];
  let run: Piece[] = [];
  let runKey = '';
  const flush = () => {
    if (run.length === 0) return;
    const way = n.segmentWay[run[0].segment];
    const line = router.piecesGeometry(run);
    const name = n.strings[n.wayName[way]] ?? '';
    const maxspeed = Math.max(...run.map((p) => n.wayMaxspeed[n.segmentWay[p.segment]]));
    roads.push({
      highway: ROAD_CLASSES[n.wayClass[way]] ?? 'road',
      names: name ? [name] : [],
      speedLimitKph: maxspeed > 0 ? maxspeed : undefined,
      start: [round6(line[0][0]), round6(line[0][1])],
      end: [round6(line[line.length - 1][0]), round6(line[line.length - 1][1])],
    });
    run = [];
  };
  for (const p of pieces) {
    if (p.distance <= 0) continue;
    const way = n.segmentWay[p.segment];
    const key = `${n.wayName[way]}|${n.wayClass[way]}`;
    if (key !== runKey) flush();
    runKey = key;
    run.push(p);
  }
  flush();
  return roads;
}
