// Map matching's transitions (ModeRouter.transitionMetres, bounded-table.ts) answer what the hierarchy's
// table answers: for candidates of nearby points on Monaco's real network, the metres of the least-cost
// path when within the bound, else Infinity, whatever the search cap leaves to the hierarchy; and the leg
// between two matched candidates (ModeRouter.nearLegPieces) is the hierarchy's, below or past its cap;
// and the leg kept from the transitions' searches (ModeRouter.transitionLeg) is nearLegPieces', exactly.
// With a weight bound (map matching's, OSRM's kind), a pair whose least-cost path costs more is Infinity.
import path from 'node:path';
import { prng } from '../../bench/support/prng';
import type { RouterMode } from '../../ports/router';
import { DIRECT_PATH, FoundPaths } from '../../core/routing/bounded-table';
import type { ModeRouter } from '../../core/routing/mode-router';
import type { Snap } from '../../core/routing/segment-index';
import { OSM, fixturesPresent, importForRouting, type ImportedRouter } from './support';

const present = fixturesPresent('map matching transitions', path.join(OSM, 'monaco-osrm.osm.pbf'));

let imported: ImportedRouter;
beforeAll(async () => {
  if (present) imported = await importForRouting({ monaco: 'monaco-osrm.osm.pbf' });
}, 300_000);
afterAll(() => imported?.close());

function modeRouter(mode: RouterMode): ModeRouter {
  return imported.router.networksLoaded[0].routers[mode];
}

/** Pairs of candidate sets of two points up to `spread` metres apart, as a trace gives them. */
function candidateSets(r: ModeRouter, count: number, spread: number, seed: number): Array<[Snap[], Snap[]]> {
  const random = prng(seed);
  const n = r.network;
  const sets: Array<[Snap[], Snap[]]> = [];
  while (sets.length < count) {
    const p = Math.floor(random() * n.pointLon.length);
    const lon = n.pointLon[p] / 1e7, lat = n.pointLat[p] / 1e7;
    const dx = ((random() - 0.5) * 2 * spread) / (111_320 * Math.cos((lat * Math.PI) / 180)), dy = ((random() - 0.5) * 2 * spread) / 111_320;
    const a = r.candidates([lon, lat], 40, 8), b = r.candidates([lon + dx, lat + dy], 40, 8);
    if (a.length > 0 && b.length > 0) sets.push([a, b]);
  }
  return sets;
}

(present ? describe : describe.skip)('transition metres for map matching', () => {
  test.each(['car', 'foot'] as const)('%s: equal to the hierarchy\'s table within the bound, whatever the search cap', (mode) => {
    const r = modeRouter(mode);
    let finite = 0, beyond = 0, leftToHierarchy = 0;
    for (const [from, to] of candidateSets(r, 150, 250, mode === 'car' ? 3 : 4)) {
      const bound = 400;
      const table = r.table(from, to);
      for (const cap of [0, 10, 120, Infinity]) {
        const before = r.transitionStats.undecided;
        const out = new Float64Array(from.length * to.length);
        r.transitionMetres(from, to, bound, Infinity, cap, out);
        leftToHierarchy += r.transitionStats.undecided - before;
        for (let k = 0; k < out.length; k++) {
          const expected = Number.isFinite(table.cost[k]) && table.metres[k] <= bound ? table.metres[k] : Infinity;
          if (expected === Infinity) expect(out[k]).toBe(Infinity);
          else expect(out[k]).toBeCloseTo(expected, 1);
          if (cap === Infinity) {
            if (expected === Infinity) beyond++;
            else finite++;
          }
        }
      }
    }
    // Both outcomes and the hierarchy's share were exercised.
    expect(finite).toBeGreaterThan(100);
    expect(beyond).toBeGreaterThan(100);
    expect(leftToHierarchy).toBeGreaterThan(0);
  });

  test.each(['car', 'foot'] as const)('%s: a pair whose least-cost path costs more than the weight bound is Infinity, and none is left to the hierarchy', (mode) => {
    const r = modeRouter(mode);
    let finite = 0, refusedByWeight = 0;
    for (const [from, to] of candidateSets(r, 150, 250, mode === 'car' ? 11 : 12)) {
      const bound = 400;
      // Map matching's bound for a 250 m step at 4 m/s (car) or a sixth of walking pace (foot), and a
      // tighter one, each under and over the search cap.
      const table = r.table(from, to);
      for (const weight of mode === 'car' ? [40, 175] : [150, 1400]) {
        for (const cap of [10, 120, Infinity]) {
          const before = r.transitionStats.undecided;
          const out = new Float64Array(from.length * to.length);
          r.transitionMetres(from, to, bound, weight, cap, out);
          if (weight <= cap) expect(r.transitionStats.undecided).toBe(before);
          for (let k = 0; k < out.length; k++) {
            const within = Number.isFinite(table.cost[k]) && table.metres[k] <= bound;
            const expected = within && table.cost[k] <= weight ? table.metres[k] : Infinity;
            if (expected === Infinity) expect(out[k]).toBe(Infinity);
            else expect(out[k]).toBeCloseTo(expected, 1);
            if (cap === Infinity && weight === (mode === 'car' ? 40 : 150)) {
              if (expected !== Infinity) finite++;
              else if (within) refusedByWeight++;
            }
          }
        }
      }
    }
    // Both outcomes were exercised: pairs within both bounds, and pairs within the metres refused by weight.
    expect(finite).toBeGreaterThan(100);
    expect(refusedByWeight).toBeGreaterThan(20);
  });

  test.each(['car', 'foot'] as const)('%s: a matched leg found by the bounded search is the hierarchy\'s leg, whatever the cap', (mode) => {
    const r = modeRouter(mode);
    let legs = 0, capped = 0;
    for (const [from, to] of candidateSets(r, 60, 250, mode === 'car' ? 5 : 6)) {
      const a = from[0], b = to[0];
      const expected = r.legPieces(a, b);
      for (const cap of [0, 10, 120, Infinity]) {
        const legCost = (pieces: ReturnType<ModeRouter['legPieces']>) => pieces?.reduce((t, p) => t + p.duration, 0) ?? 0;
        if (cap < legCost(expected)) capped++;
        // The same pieces; the last one's seconds are the search's total less the others', which the two
        // searches add up in another order (a few microseconds apart). Matching reports no seconds.
        const got = r.nearLegPieces(a, b, cap);
        expect(got?.map(({ duration: _, ...p }) => p)).toEqual(expected?.map(({ duration: _, ...p }) => p));
        got?.forEach((p, i) => expect(p.duration).toBeCloseTo(expected![i].duration, 3));
      }
      if (expected !== null) legs++;
    }
    expect(legs).toBeGreaterThan(30);
    // Both the bounded search's answer and the hierarchy's (past the cap) were exercised.
    expect(capped).toBeGreaterThan(30);
  });

  test.each(['car', 'foot', 'bike'] as const)('%s: the leg kept from the transitions\' search is nearLegPieces\' leg, to the bit', (mode) => {
    const r = modeRouter(mode);
    const found = new FoundPaths();
    const kinds = { kept: 0, direct: 0, searched: 0 };
    for (const [from, to] of candidateSets(r, 120, 250, mode === 'car' ? 7 : mode === 'foot' ? 8 : 9)) {
      for (const cap of [10, 120]) {
        const out = new Float64Array(from.length * to.length);
        const pathOf = new Int32Array(out.length);
        found.clear();
        r.transitionMetres(from, to, 400, Infinity, cap, out, found, pathOf);
        from.forEach((a, i) => to.forEach((b, j) => {
          const path = pathOf[i * to.length + j];
          if (!Number.isFinite(out[i * to.length + j])) return;
          if (path >= 0) kinds.kept++;
          else if (path === DIRECT_PATH) kinds.direct++;
          else kinds.searched++;
          // Durations too: matching sums the legs' pieces, so equal must mean equal.
          expect(r.transitionLeg(a, b, found, path, cap)).toEqual(r.nearLegPieces(a, b, cap));
        }));
      }
    }
    // Legs from kept paths, from the shared segment, and (left to the hierarchy) searched anew.
    expect(kinds.kept).toBeGreaterThan(300);
    expect(kinds.direct).toBeGreaterThan(10);
    expect(kinds.searched).toBeGreaterThan(0);
  });
});
