// Coordinates of a way from the pipeline's node store, and the representative point of a closed way.
import type { NodeCoordinates } from '../../stage';

/** [lon, lat, …] of the way's nodes in order; undefined when a node is missing from the extract. */
export function wayCoords(refs: ArrayLike<number>, nodes: NodeCoordinates): Float64Array | undefined {
  const out = new Float64Array(refs.length * 2);
  for (let i = 0; i < refs.length; i++) {
    const at = nodes.indexOf(refs[i]);
    if (at < 0) return undefined;
    out[2 * i] = nodes.lonAt(at);
    out[2 * i + 1] = nodes.latAt(at);
  }
  return out;
}

/** The mean of a way's distinct vertices: inside any convex building, close enough for addresses. */
export function vertexMean(coords: Float64Array): [number, number] {
  let n = coords.length / 2;
  // A closed ring repeats its first vertex.
  if (n > 1 && coords[0] === coords[coords.length - 2] && coords[1] === coords[coords.length - 1]) n -= 1;
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += coords[2 * i];
    y += coords[2 * i + 1];
  }
  return [x / n, y / n];
}

/** The vertex halfway along the way by index: a point on the street, never off it. */
export function middleVertex(coords: Float64Array): [number, number] {
  const i = Math.floor(coords.length / 4);
  return [coords[2 * i], coords[2 * i + 1]];
}
