// Coastline ways joined into chains, each way kept in its own direction: OSM draws every natural=coastline
// way with the land on its left and the water on its right, so a way is joined only where it starts at
// the node another ends at, never reversed (reversing one would put the sea on the land's side).

/** Chains of node ids, each the ways joined end to start; a closed chain (an island) ends at its first id. */
export function coastlineChains(ways: ReadonlyArray<ArrayLike<number>>): number[][] {
  const byFirst = new Map<number, number>();
  const byLast = new Map<number, number>();
  ways.forEach((w, i) => {
    if (w.length < 2) return;
    byFirst.set(w[0], i);
    byLast.set(w[w.length - 1], i);
  });
  const used = new Uint8Array(ways.length);
  const chains: number[][] = [];
  for (let start = 0; start < ways.length; start++) {
    if (used[start] || ways[start].length < 2) continue;
    used[start] = 1;
    const chain = Array.from(ways[start]);
    // Forward from its end, then back from its start, until closed or no way continues it.
    for (let next = byFirst.get(chain[chain.length - 1]); next !== undefined && !used[next] && chain[0] !== chain[chain.length - 1]; next = byFirst.get(chain[chain.length - 1])) {
      used[next] = 1;
      const w = ways[next];
      for (let k = 1; k < w.length; k++) chain.push(w[k]);
    }
    for (let prev = byLast.get(chain[0]); prev !== undefined && !used[prev] && chain[0] !== chain[chain.length - 1]; prev = byLast.get(chain[0])) {
      used[prev] = 1;
      const w = Array.from(ways[prev]);
      w.pop();
      chain.unshift(...w);
    }
    chains.push(chain);
  }
  return chains;
}
