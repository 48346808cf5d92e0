// Strongly connected components of a directed graph given as arc lists, for the mode graphs' large
// connected part (mode-graph.ts, node-mode-graph.ts).
/** Tarjan's strongly connected components, iterative (no recursion limit on long roads). */
export function stronglyConnected(n: number, tail: Uint32Array, head: Uint32Array): Int32Array {
  const first = new Uint32Array(n + 1);
  for (let i = 0; i < tail.length; i++) first[tail[i] + 1]++;
  for (let v = 0; v < n; v++) first[v + 1] += first[v];
  const adj = new Uint32Array(tail.length);
  const pos = first.slice(0, n);
  for (let i = 0; i < tail.length; i++) adj[pos[tail[i]]++] = head[i];

  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callStack: number[] = [];
  const edgePos = new Uint32Array(n);
  let counter = 0;
  let components = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    callStack.push(root);
    index[root] = low[root] = counter++;
    edgePos[root] = first[root];
    stack.push(root);
    onStack[root] = 1;
    while (callStack.length > 0) {
      const v = callStack[callStack.length - 1];
      if (edgePos[v] < first[v + 1]) {
        const w = adj[edgePos[v]++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          edgePos[w] = first[w];
          stack.push(w);
          onStack[w] = 1;
          callStack.push(w);
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      callStack.pop();
      if (callStack.length > 0) {
        const parent = callStack[callStack.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component[w] = components;
        } while (w !== v);
        components++;
      }
    }
  }
  return component;
}
