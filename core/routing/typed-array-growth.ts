// Growing a typed array keeps its contents: the engine's collections (turn arcs, a match's found paths)
// and the importer's typed lists all grow this one way.
type Growable = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array;

/** A new array of `size` elements of `a`'s type, holding `a`'s values first (size ≥ a.length). */
export function grownTo<T extends Growable>(a: T, size: number): T {
  const b = new (a.constructor as new (length: number) => T)(size);
  b.set(a as never);
  return b;
}
