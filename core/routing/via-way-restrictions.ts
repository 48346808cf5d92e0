// Turn restrictions through ways (from a way, along one or more via ways, to a way) in the edge-based
// graph. A turn arc only knows the road it comes from, not the one before; so, as OSRM does, the via
// roads are copied for traffic that enters them from the `from` road: the turn from `from` onto the first
// via road leads to its copy, the copy's turns lead on to the next copy, and the last copy lacks the
// forbidden turn (`no_*`) or every turn but the allowed one (`only_*`). Copies keep the turns (and costs)
// of the road they copy, so a route entering the via roads any other way is not restricted.
//
// The copies form a trie of the restrictions' road sequences, matched as Aho-Corasick matches words: a
// copy stands for the roads driven so far, and where it has no copy to go on to, it goes on as the
// longest tail of those roads that another restriction starts with would (its "failure" state), so one
// restricted sequence inside or overlapping another is still caught, and a copy also obeys the
// restrictions of every such tail.
import type { TurnArcs } from './turn-arcs';

export interface PathRestriction {
  /** Segment directions (codes) of the `from` way that arrive where the via ways start. */
  fromCodes: number[];
  /** Codes of the via ways in driving order. */
  viaCodes: number[];
  /** Segments of the `to` way leaving where the via ways end. */
  toSegments: number[];
  only: boolean;
}

/**
 * The graph with the copies each restriction needs: returns, for each copy (vertex `codes + i`), the
 * code it copies, and the arcs: the originals rewired into the copies, and the copies' own.
 */
export function applyPathRestrictions(codes: number, arcs: TurnArcs, restrictions: readonly PathRestriction[]): { arcs: TurnArcs; duplicateOf: number[] } {
  const duplicateOf: number[] = [];
  if (restrictions.length === 0) return { arcs, duplicateOf };
  const child = new Map<string, number>();
  const parent: number[] = [];
  const actions = new Map<number, Array<{ only: boolean; to: ReadonlySet<number> }>>();
  for (const r of restrictions) {
    if (r.viaCodes.length === 0) continue;
    const to = new Set(r.toSegments);
    for (const f of r.fromCodes) {
      let at = f;
      for (const code of r.viaCodes) {
        const key = `${at}>${code}`;
        let next = child.get(key);
        if (next === undefined) {
          next = codes + duplicateOf.length;
          duplicateOf.push(code);
          parent.push(at);
          child.set(key, next);
        }
        at = next;
      }
      const list = actions.get(at) ?? [];
      list.push({ only: r.only, to });
      actions.set(at, list);
    }
  }
  if (duplicateOf.length === 0) return { arcs, duplicateOf };

  // Failure states, in creation order (a copy is made after its parent).
  const fail = new Int32Array(duplicateOf.length);
  const failOf = (state: number) => (state < codes ? -1 : fail[state - codes]);
  const goTo = (state: number, code: number): number => {
    for (let s = state; ; s = failOf(s)) {
      const next = child.get(`${s}>${code}`);
      if (next !== undefined) return next;
      if (s < codes) return code;
    }
  };
  for (let i = 0; i < duplicateOf.length; i++) {
    const p = parent[i];
    fail[i] = p < codes ? duplicateOf[i] : goTo(failOf(p), duplicateOf[i]);
  }

  const baseCount = arcs.count;
  const out = new Map<number, number[]>();
  const needed = new Set<number>(duplicateOf);
  for (const key of child.keys()) needed.add(Number(key.slice(0, key.indexOf('>'))));
  for (let a = 0; a < baseCount; a++) {
    const t = arcs.tail[a];
    if (!needed.has(t)) continue;
    const list = out.get(t);
    if (list) list.push(a);
    else out.set(t, [a]);
  }
  // Originals turn into the copies that start restrictions.
  for (let a = 0; a < baseCount; a++) {
    const next = child.get(`${arcs.tail[a]}>${arcs.head[a]}`);
    if (next !== undefined) arcs.head[a] = next;
  }
  // Each copy: its original's turns, each going on to the state it leads to, less what the copy's
  // restrictions (and those of its failure states) forbid.
  const originalHead = (a: number) => (arcs.head[a] < codes ? arcs.head[a] : duplicateOf[arcs.head[a] - codes]);
  for (let i = 0; i < duplicateOf.length; i++) {
    const copy = codes + i;
    const rules: Array<{ only: boolean; to: ReadonlySet<number> }> = [];
    for (let s = copy; s >= codes; s = failOf(s)) rules.push(...(actions.get(s) ?? []));
    for (const a of out.get(duplicateOf[i]) ?? []) {
      const head = originalHead(a);
      const segment = head >> 1;
      if (rules.some((r) => r.to.has(segment) !== r.only)) continue;
      arcs.push(copy, goTo(copy, head), arcs.weight[a], arcs.seconds[a], arcs.distance[a]);
    }
  }
  return { arcs, duplicateOf };
}
