// A mode's graph laid out node-based (GraphKind `node`, network.ts), for a mode whose turns all cost
// nothing and none is forbidden: OSRM contracts every profile edge-based, but without turn costs an
// edge-based graph only doubles the vertices and multiplies the shortcuts (foot on Baltimore ×8×8: 10.7 M
// shortcuts edge-based where car, with turn costs, made 4.2 M). Arc c is segment direction c, so a path's
// arcs are the segment directions it travels and the query side needs no turn table.
//
// What an edge-based graph with free turns allows and this one also does, and one difference: a u-turn
// at a vertex (the edge-based graph allows it only at dead ends). A shortest path never travels a
// segment and straight back, so routes between two points are the same; only a route forced to start one
// way (a heading) may now turn back at the next junction instead of going round the block.
import { contract, type ContractionOptions, type FinishedEdges } from './contraction';
import { stronglyConnected } from './strongly-connected';
import type { ModeGraph, Network } from './network';

export interface NodeModeGraphInput {
  network: Network;
  segmentForward: Float32Array;
  segmentBackward: Float32Array;
  /** Vertices the mode cannot pass (barriers): each road direction reaching one ends at a vertex of its own there. */
  blockedVertices?: ReadonlySet<number>;
  finishedEdges?: FinishedEdges;
  contractionThreads?: Pick<ContractionOptions, 'threads' | 'startHelpers' | 'afterContracting'>;
  onProgress?(step: string, done: number, total?: number, shortcuts?: number): void;
}

/** Components with fewer open segment directions than this are islands (as mode-graph.ts counts them). */
const MAIN_COMPONENT_CODES = 1000;

export function buildNodeModeGraph(input: NodeModeGraphInput): ModeGraph {
  const { network: n, segmentForward, segmentBackward } = input;
  const segments = n.segmentFrom.length;
  const codes = segments * 2;
  const blocked = input.blockedVertices;
  input.onProgress?.('turns', 0, codes);

  const arcTail = new Uint32Array(codes);
  const arcHead = new Uint32Array(codes);
  const arcWeight = new Float32Array(codes);
  const arcDistance = new Float32Array(codes);
  let vertexCount = n.vertexPoint.length;
  let open = 0;
  for (let s = 0; s < segments; s++) {
    // At a barrier each direction gets an end of its own: a road arriving there leads nowhere (not even
    // back, as the edge-based graph allows no turn there), one leaving it can only be started on.
    const forward = 2 * s;
    const backward = forward + 1;
    const fromBlocked = blocked?.has(n.segmentFrom[s]) === true;
    const toBlocked = blocked?.has(n.segmentTo[s]) === true;
    arcTail[forward] = fromBlocked ? vertexCount++ : n.segmentFrom[s];
    arcHead[backward] = fromBlocked ? vertexCount++ : n.segmentFrom[s];
    arcHead[forward] = toBlocked ? vertexCount++ : n.segmentTo[s];
    arcTail[backward] = toBlocked ? vertexCount++ : n.segmentTo[s];
    arcWeight[forward] = segmentForward[s] >= 0 ? segmentForward[s] : -1;
    arcWeight[backward] = segmentBackward[s] >= 0 ? segmentBackward[s] : -1;
    arcDistance[forward] = arcDistance[backward] = n.segmentLength[s];
    if (segmentForward[s] >= 0) open++;
    if (segmentBackward[s] >= 0) open++;
  }

  input.onProgress?.('components', 0);
  const openTail = new Uint32Array(open);
  const openHead = new Uint32Array(open);
  for (let c = 0, k = 0; c < codes; c++) {
    if (arcWeight[c] < 0) continue;
    openTail[k] = arcTail[c];
    openHead[k++] = arcHead[c];
  }
  const component = stronglyConnected(vertexCount, openTail, openHead);
  // A component's size in open segment directions inside it, the unit the edge-based graph counts in.
  const sizes = new Map<number, number>();
  const inside = (c: number) => arcWeight[c] >= 0 && component[arcTail[c]] === component[arcHead[c]];
  for (let c = 0; c < codes; c++) if (inside(c)) sizes.set(component[arcTail[c]], (sizes.get(component[arcTail[c]]) ?? 0) + 1);
  const largest = Math.max(0, ...sizes.values());
  const threshold = Math.min(MAIN_COMPONENT_CODES, largest);
  const segmentMain = new Uint8Array(segments);
  for (let c = 0; c < codes; c++) if (inside(c) && (sizes.get(component[arcTail[c]]) ?? 0) >= threshold) segmentMain[c >> 1] = 1;

  input.onProgress?.('ordering', 0, vertexCount);
  const hierarchy = contract(
    { vertexCount, tail: arcTail, head: arcHead, weight: arcWeight, distance: arcDistance },
    (step, done, total, shortcuts) => input.onProgress?.(step, done, total, shortcuts),
    { ...input.contractionThreads, finishedEdges: input.finishedEdges },
  );
  // No routing penalties: travel seconds are the weights.
  return { kind: 'node', vertexCount, arcTail, arcHead, arcWeight, arcDistance, arcSeconds: arcWeight, segmentForward, segmentBackward, segmentMain, hierarchy };
}
