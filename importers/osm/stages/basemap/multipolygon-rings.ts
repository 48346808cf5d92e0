// A multipolygon's rings from its member ways: ways are joined end to end (reversed where needed) by
// shared end nodes until each chain closes. A chain that never closes (a lake cut by the extract's
// border) is left out: filled, it would cut across the land.

/** Closed rings of node ids (last id = first id) made from the given ways' node lists. */
export function ringsOfWays(ways: ReadonlyArray<ArrayLike<number>>): number[][] {
  const rings: number[][] = [];
  const used = new Uint8Array(ways.length);
  const byEnd = new Map<number, number[]>();
  const link = (node: number, way: number): void => {
    const list = byEnd.get(node);
    if (list) list.push(way);
    else byEnd.set(node, [way]);
  };
  ways.forEach((w, i) => {
    if (w.length < 2) {
      used[i] = 1;
      return;
    }
    link(w[0], i);
    link(w[w.length - 1], i);
  });
  for (let start = 0; start < ways.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const chain = Array.from(ways[start]);
    while (chain[chain.length - 1] !== chain[0]) {
      const end = chain[chain.length - 1];
      const next = (byEnd.get(end) ?? []).find((w) => !used[w]);
      if (next === undefined) break;
      used[next] = 1;
      const w = Array.from(ways[next]);
      if (w[0] !== end) w.reverse();
      for (let k = 1; k < w.length; k++) chain.push(w[k]);
    }
    if (chain.length >= 4 && chain[chain.length - 1] === chain[0]) rings.push(chain);
  }
  return rings;
}
