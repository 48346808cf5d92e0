// The node index of an import (importers/osm/node-coordinates.ts): a file whose node ids are not in
// order (the tiling tool's regions, some hand-made extracts) is sorted once when the index is frozen,
// by a radix sort of the ids that must order exactly as a stable comparison sort does, duplicates
// keeping their last occurrence.
import { NodeCoordinatesBuilder, sortedOrder } from '../../importers/osm/node-coordinates';
import { prng as random } from '../../bench/support/prng';

const stableOrder = (ids: Float64Array): number[] => Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b] || a - b);

describe('sortedOrder', () => {
  test.each([
    ['ids below 2^16', 1 << 16],
    ['ids of a 2026 extract (past 2^32)', 14_000_000_000],
    ['ids near 2^53', 2 ** 53 - 1],
  ])('orders %s as a stable comparison sort, duplicates in file order', (_, top) => {
    const next = random(35);
    const ids = new Float64Array(50_000);
    for (let i = 0; i < ids.length; i++) ids[i] = i % 7 === 0 && i > 0 ? ids[Math.floor(next() * i)] : Math.floor(next() * top);
    expect(Array.from(sortedOrder(ids))).toEqual(stableOrder(ids));
  });

  test('negative ids (JOSM files) take the comparison sort and come out the same', () => {
    const ids = Float64Array.from([5, -3, 2 ** 40, -3, 0, 7, -1]);
    expect(Array.from(sortedOrder(ids))).toEqual(stableOrder(ids));
    expect(Array.from(sortedOrder(new Float64Array(0)))).toEqual([]);
  });
});

test('an index built from unsorted ids answers every id with its last coordinates', () => {
  const next = random(20);
  const builder = new NodeCoordinatesBuilder();
  const expected = new Map<number, [number, number]>();
  for (let i = 0; i < 30_000; i++) {
    const id = 10_000_000_000 + Math.floor(next() * 20_000);
    const lon = Math.round((next() * 360 - 180) * 1e7) / 1e7;
    const lat = Math.round((next() * 180 - 90) * 1e7) / 1e7;
    builder.add(id, lon, lat);
    expected.set(id, [lon, lat]);
  }
  const index = builder.freeze();
  expect(index.size).toBe(expected.size);
  for (const [id, [lon, lat]] of expected) {
    const i = index.indexOf(id);
    expect([id, index.lonAt(i), index.latAt(i)]).toEqual([id, lon, lat]);
  }
  expect(index.indexOf(9_999_999_999)).toBe(-1);
});

test('freezing an unsorted index reports each of its parts in order, a sorted one at once', () => {
  // 12 s without a progress line at the end of reading a tiled ×20×20 region (issue 35): the sort says
  // where it is between its passes.
  const next = random(9);
  const unsorted = new NodeCoordinatesBuilder();
  for (let i = 0; i < 5_000; i++) unsorted.add(Math.floor(next() * 14_000_000_000), 0, 0);
  const seen: Array<[number, number]> = [];
  unsorted.freeze((done, total) => seen.push([done, total]));
  // The join, the second and third radix passes as they start (ids below 2^48 take three), the
  // reordering, the end.
  expect(seen).toEqual([[1, 6], [2, 6], [3, 6], [5, 6], [6, 6]]);
  const sorted = new NodeCoordinatesBuilder();
  for (let i = 0; i < 5_000; i++) sorted.add(i + 1, 0, 0);
  const quick: Array<[number, number]> = [];
  sorted.freeze((done, total) => quick.push([done, total]));
  expect(quick).toEqual([[1, 1]]);
});

test('lookups remembered per slot answer as the search does: ids sharing a slot, absent ids, repeats', () => {
  const builder = new NodeCoordinatesBuilder();
  // Ids 4,096 apart share a slot of the remembered lookups; some are absent; some pass 2^32.
  const present = [7, 7 + 4096, 7 + 3 * 4096, 2 ** 32 + 7, 2 ** 40 + 4096 + 7, 12, 4108];
  present.forEach((id, i) => builder.add(id, i / 10, -i / 10));
  const nodes = builder.freeze();
  const absent = [7 + 2 * 4096, 2 ** 33 + 7, 8, -7, 4096 * 5 + 12];
  const next = random(4);
  for (let round = 0; round < 2_000; round++) {
    const pick = next() < 0.5 ? present : absent;
    const id = pick[Math.floor(next() * pick.length)];
    const at = nodes.indexOf(id);
    if (pick === absent) expect(at).toBe(-1);
    else expect([at, nodes.lonAt(at)]).toEqual([present.slice().sort((a, b) => a - b).indexOf(id), present.indexOf(id) / 10]);
  }
});
