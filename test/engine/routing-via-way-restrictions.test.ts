import { applyPathRestrictions } from '../../core/routing/via-way-restrictions';
import { TurnArcs } from '../../core/routing/turn-arcs';

// A chain of codes 0 → 2 → 4 → 6 with side turns: 4 → 8, 6 → 10 (codes are segment directions: 2 × segment).
function chain(): TurnArcs {
  const arcs = new TurnArcs();
  for (const [t, h] of [[0, 2], [2, 4], [4, 6], [4, 8], [6, 10]]) arcs.push(t, h, 1, 1, 10);
  return arcs;
}

/** Every code sequence the arcs allow from `start`, as originals (copies mapped back). */
function walks(arcs: TurnArcs, duplicateOf: number[], codes: number, start: number): string[] {
  const original = (v: number) => (v < codes ? v : duplicateOf[v - codes]);
  const out: string[] = [];
  const go = (v: number, path: number[]) => {
    const next = [...arcs.tail.subarray(0, arcs.count)].flatMap((t, a) => (t === v ? [arcs.head[a]] : []));
    if (next.length === 0) out.push(path.join(','));
    for (const h of next) go(h, [...path, original(h)]);
  };
  go(start, [start]);
  return out.sort();
}

test('a restriction through ways forbids the sequence only for traffic coming from its from way', () => {
  const codes = 12;
  const { arcs, duplicateOf } = applyPathRestrictions(codes, chain(), [{ fromCodes: [0], viaCodes: [2, 4], toSegments: [4], only: false }]);
  expect(walks(arcs, duplicateOf, codes, 0)).toEqual(['0,2,4,6,10']);
  // Entering the via roads elsewhere is not restricted.
  expect(walks(arcs, duplicateOf, codes, 2)).toEqual(['2,4,6,10', '2,4,8']);
});

test('only_ through ways keeps just the allowed way on; a restriction inside another still binds', () => {
  const codes = 12;
  const only = applyPathRestrictions(codes, chain(), [{ fromCodes: [0], viaCodes: [2, 4], toSegments: [3], only: true }]);
  expect(walks(only.arcs, only.duplicateOf, codes, 0)).toEqual(['0,2,4,6,10']);
  // 0 → 2 → 4 → 6 → 10 forbidden by a long restriction, and 2 → 4 → 8 by one that starts inside it.
  const nested = applyPathRestrictions(codes, chain(), [
    { fromCodes: [0], viaCodes: [2, 4, 6], toSegments: [5], only: false },
    { fromCodes: [2], viaCodes: [4], toSegments: [4], only: false },
  ]);
  expect(walks(nested.arcs, nested.duplicateOf, codes, 0)).toEqual(['0,2,4,6']);
  expect(walks(nested.arcs, nested.duplicateOf, codes, 4)).toEqual(['4,6,10', '4,8']);
});
