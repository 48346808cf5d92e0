// The importer's growing typed lists (importers/osm/stages/routing/typed-list.ts) store each value as
// their array type converts it, across growth, for every kind (each kind has a store of its own).
import { TypedList } from '../../importers/osm/stages/routing/typed-list';

const KINDS = [Int32Array, Uint32Array, Float32Array, Float64Array, Uint8Array, Uint16Array] as const;

test.each(KINDS.map((Type) => [Type.name, Type] as const))('%s keeps what its array would, past growth', (_, Type) => {
  const values: number[] = [];
  for (let i = 0; i < 5_000; i++) values.push(i % 3 === 0 ? -i * 1.75 : i * 65_537.3);
  const list = new TypedList(Type as never, 4);
  for (const v of values) list.push(v);
  const expected = (Type as unknown as { from(v: number[]): ArrayLike<number> }).from(values);
  expect(list.length).toBe(values.length);
  expect(Array.from(list.toArray() as ArrayLike<number>)).toEqual(Array.from(expected));
  expect(list.get(4_999)).toBe(expected[4_999]);
});
