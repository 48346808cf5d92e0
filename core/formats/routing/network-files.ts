// Writes the routing stage's files: `network.bin` (geometry, segments, ways, strings) and one
// `<mode>.bin` per mode (arcs, crossing times, hierarchy), in the typed-array container the router
// maps straight back into typed arrays.
import fs from 'node:fs';
import path from 'node:path';
import { encodeArrays } from './typed-container';
import type { ModeGraph, Network } from '../../routing/network';

export const NETWORK_FILE = 'network.bin';
export const modeFile = (mode: string): string => `${mode}.bin`;
export const ROUTING_FORMAT_VERSION = 1;
/** Mode files: 2 says in `graph` whether the graph is edge- or node-based (version 1 files are all edge-based). */
export const MODE_FORMAT_VERSION = 2;

function write(file: string, parts: Buffer[]): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const p of parts) fs.writeSync(fd, p);
  } finally {
    fs.closeSync(fd);
  }
}

export function writeNetwork(dir: string, n: Network): number {
  const { strings, ...arrays } = n;
  const parts = encodeArrays(arrays, { version: ROUTING_FORMAT_VERSION, strings });
  write(path.join(dir, NETWORK_FILE), parts);
  return parts.reduce((s, p) => s + p.length, 0);
}

export function writeModeGraph(dir: string, mode: string, g: ModeGraph): number {
  const h = g.hierarchy;
  const parts = encodeArrays({
    arcTail: g.arcTail, arcHead: g.arcHead, arcWeight: g.arcWeight, arcDistance: g.arcDistance, arcSeconds: g.arcSeconds,
    segmentForward: g.segmentForward, segmentBackward: g.segmentBackward, segmentMain: g.segmentMain,
    duplicateOf: g.duplicateOf ?? new Uint32Array(0),
    ...(g.ratePercent ? { ratePercent: g.ratePercent } : {}),
    rank: h.rank, childA: h.childA, childB: h.childB,
    fFirst: h.forward.first, fOther: h.forward.other, fWeight: h.forward.weight, fDistance: h.forward.distance, fEdge: h.forward.edge,
    bFirst: h.backward.first, bOther: h.backward.other, bWeight: h.backward.weight, bDistance: h.backward.distance, bEdge: h.backward.edge,
  }, { version: MODE_FORMAT_VERSION, mode, graph: g.kind, vertexCount: g.vertexCount });
  write(path.join(dir, modeFile(mode)), parts);
  return parts.reduce((s, p) => s + p.length, 0);
}
