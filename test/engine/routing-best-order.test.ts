// The exact stop order against brute force over every permutation, on seeded random asymmetric matrices
// (some pairs unconnected).
import { prng } from '../../bench/support/prng';
import { bestOrder } from '../../core/routing/best-order';

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

function costOf(order: number[], cost: Float64Array, n: number): number {
  let sum = 0;
  for (let k = 1; k < order.length; k++) sum += cost[order[k - 1] * n + order[k]];
  return sum;
}

function bruteForce(cost: Float64Array, n: number): number {
  const middle = Array.from({ length: n - 2 }, (_, i) => i + 1);
  return Math.min(...permutations(middle).map((p) => costOf([0, ...p, n - 1], cost, n)));
}

describe('bestOrder', () => {
  it('equals brute force on 2 to 10 locations (up to 8 middle stops)', () => {
    const random = prng(15);
    for (let n = 2; n <= 10; n++) {
      for (let trial = 0; trial < 6; trial++) {
        const cost = new Float64Array(n * n);
        for (let i = 0; i < n * n; i++) cost[i] = random() < 0.05 ? Infinity : Math.round(random() * 1000);
        const best = bestOrder(cost, n);
        const expected = bruteForce(cost, n);
        expect(best.cost).toBe(expected);
        if (expected !== Infinity) {
          expect(best.order[0]).toBe(0);
          expect(best.order.at(-1)).toBe(n - 1);
          expect([...best.order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
          expect(costOf(best.order, cost, n)).toBe(best.cost);
        }
      }
    }
  });

  it('says when no order connects the stops', () => {
    const n = 4;
    const cost = new Float64Array(n * n).fill(1);
    for (let i = 0; i < n; i++) cost[i * n + 3] = Infinity;
    expect(bestOrder(cost, n)).toEqual({ order: [], cost: Infinity });
  });

  it('refuses a matrix of the wrong size', () => {
    expect(() => bestOrder(new Float64Array(5), 3)).toThrow(RangeError);
  });
});
